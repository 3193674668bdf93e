"""A comparative `ask` over two papers the test writes (known optimizer, schedule and
clipping settings) answers with the compare table: the same cells `compare --json` gives,
each cited, and key differences built only from them; other questions are unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.agent.comparison.compare_answer import ComparativeAnswer
from citewise.api import Library
from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.agent.comparison.test_compare import ASPECTS, two_papers  # noqa: F401 (the fixture)

runner = CliRunner()
SETTINGS = {
    "optimizer": ("AdamW", "SGD with momentum of 0.9"),
    "schedule": ("cosine decay", "step decay"),
    "gradient clipping": ("1.0", "5.0"),
}


def ids(lib: Path) -> tuple[str, str]:
    listed = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)
    by_file = {Path(d["path"]).name: d["id"] for d in listed}
    return by_file["adamw.pdf"], by_file["sgd.pdf"]


def ask_json(lib: Path, question: str, *extra: str) -> dict[str, object]:
    result = runner.invoke(app, ["-L", str(lib), "ask", "--json", question, *extra])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize(
    "question,aspects",
    [
        ("Compare the optimizer configurations in {a} and {b}, especially learning-rate "
         "decay and gradient clipping.", ["optimizer", "schedule", "gradient clipping"]),
        ("compare the optimizer settings across all papers", ["optimizer"]),
        ("How do {a} and {b} differ in learning rate schedule?", ["schedule"]),
        ("{a} vs {b}: gradient clipping", ["gradient clipping"]),
    ],
)  # fmt: skip
def test_a_comparative_question_is_answered_with_the_table(
    two_papers: Path,  # noqa: F811
    question: str,
    aspects: list[str],
) -> None:
    a, b = ids(two_papers)
    data = ask_json(two_papers, question.format(a=a, b=b))
    comparison = data["comparison"]
    assert isinstance(comparison, dict) and not data["refused"]
    assert comparison["aspects"] == aspects
    cells = {(c["aspect"], c["document"]): c["value"] for c in comparison["cells"]}
    assert cells == {
        (aspect, doc): SETTINGS[aspect][n] for aspect in aspects for n, doc in enumerate((a, b))
    }
    evidence = {e["id"]: e for e in data["evidence"]}  # type: ignore[union-attr]
    for c in comparison["cells"]:
        assert c["value"].removesuffix("…") in c["quote"] and c["block"] in evidence
        assert c["value"].removesuffix("…") in evidence[c["block"]]["quote"]
    for s in data["sentences"]:  # type: ignore[union-attr]
        assert s["citations"] and set(s["citations"]) <= set(evidence)
    assert comparison["key_differences"] and all(
        value in comparison["key_differences"] for aspect in aspects for value in SETTINGS[aspect]
    )


def test_the_answer_carries_what_compare_json_prints(two_papers: Path) -> None:  # noqa: F811
    a, b = ids(two_papers)
    question = f"compare the optimizer, learning rate schedule and gradient clipping of {a} and {b}"
    asked = ask_json(two_papers, question)["comparison"]
    compared = runner.invoke(app, ["-L", str(two_papers), "compare", a, b, "--aspects", ASPECTS,
                                   "--json"])  # fmt: skip
    assert asked == json.loads(compared.stdout)


def test_naming_only_papers_compares_the_default_aspects(two_papers: Path) -> None:  # noqa: F811
    a, b = ids(two_papers)
    with Library(two_papers, embeddings=False) as lib:
        answer = lib.ask(f"Compare {a} and {b}.")
    assert isinstance(answer, ComparativeAnswer) and answer.comparison is not None
    assert answer.comparison.aspects == (
        "task", "method", "datasets", "metrics", "main result", "limitations",
    )  # fmt: skip
    assert [s["document"] for s in answer.scope] == [a, b]


def test_text_output_prints_the_table_and_key_differences(two_papers: Path) -> None:  # noqa: F811
    a, b = ids(two_papers)
    result = runner.invoke(
        app, ["-L", str(two_papers), "ask", f"how do {a} and {b} differ in gradient clipping"]
    )
    assert result.exit_code == 0, result.output
    assert "gradient clipping" in result.stdout and "Key differences." in result.stdout
    row = next(line for line in result.stdout.splitlines() if "gradient clipping" in line)
    assert "1.0" in row and "5.0" in row and "[1]" in row and "[2]" in row


def test_nothing_stated_is_a_refusal_with_the_closest_passages(
    two_papers: Path,  # noqa: F811
) -> None:
    with Library(two_papers, embeddings=False) as lib:
        answer = lib.ask("Compare the weight decay across all papers.")
    assert isinstance(answer, ComparativeAnswer) and answer.comparison is not None
    assert answer.refused and answer.refusal_kind == "not_answered"
    assert not answer.sentences and answer.evidence  # the passages about decay schedules
    assert {e.document for e in answer.evidence} <= set(ids(two_papers))
    assert all(not c.stated for c in answer.comparison.cells)
    assert answer.to_dict()["comparison"] == answer.comparison.to_dict()


@pytest.mark.parametrize(
    "question",
    [
        "What learning rate does the echo transformer use?",
        "Compare the number of boosting rounds across all papers.",  # no aspect: per paper
        "Which optimizer was used to train the echo transformer?",  # one paper, no cue
    ],
)
def test_other_questions_are_not_answered_with_a_table(
    two_papers: Path,  # noqa: F811
    question: str,
) -> None:
    with Library(two_papers, embeddings=False) as lib:
        answer = lib.ask(question)
    assert not isinstance(answer, ComparativeAnswer)
    assert "comparison" not in answer.to_dict()
