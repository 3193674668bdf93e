"""benchmarks/matrix_qasper.py scores matrix cells against QA answers: which question asks which
column (the shipped forms file), when a cell names an answer (distinctive words, a shorter form
covering the answer's head, an abbreviation, a size's numbers), and a half's tally on a library
the test builds, with a judge paper left out. Names, questions and answers here are made up."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.conftest import load_script

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "matrix_qasper.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "matrix_qasper_script")


m = _script()
FORMS = m.read_forms(m.FORMS.read_text(encoding="utf-8"))


def named(cell: str, answer: str, column: str = "datasets") -> bool:
    one, _ = FORMS.names_answer(cell, [answer], column)
    return bool(one)


@pytest.mark.parametrize(
    ("cell", "answer"),
    [
        ("Harbor Reviews", "the Harbor Reviews corpus BIBREF4"),  # generic words and placeholder
        ("HRC", "Harbor Reviews Corpus (HRC)"),  # its abbreviation
        ("Lakeside 2019", "Lakeside 2019 Welsh NER"),  # a shorter form: half of its words
        ("recall", "precision and recall at a fixed cutoff"),  # one item, its head "recall"
        ("F1 score", "macro-averaged F-measure of the two classes"),  # one name, qualifiers
        ("Quarry Talk, Harbor Reviews", "Harbor Reviews"),  # one of the cell's names
        ("SNOWBANK", "snowbank"),  # case
    ],
)
def test_a_cell_names_an_answer_by_its_distinctive_words(cell: str, answer: str) -> None:
    assert named(cell, answer)


@pytest.mark.parametrize(
    ("cell", "answer"),
    [
        ("Welsh", "Lakeside 2019 Welsh NER"),  # a word of the name, not the name
        ("Harbor Style", "Harbor Reviews"),  # a word the answer does not hold
        ("2019", "Lakeside 2019"),  # a number alone is no name
        ("precision", "mean average precision"),  # another metric
        ("Quarry Talk", "Harbor Reviews Corpus (HRC)"),
    ],
)
def test_a_cell_that_names_something_else_does_not_count(cell: str, answer: str) -> None:
    assert not named(cell, answer)


def test_a_size_counts_by_its_numbers_however_written() -> None:
    for cell in ("12,400 reviews", "12 400 sentences", "12.4K", "0.0124 million"):
        assert named(cell, "12400 reviews", "dataset size"), cell
    assert named("1.5 million posts", "1.5M", "dataset size")
    assert not named("12,000 reviews", "12,400 reviews", "dataset size")


def test_names_all_needs_every_item_of_one_answer() -> None:
    accept = ["Harbor Reviews and Quarry Talk", "Harbor Reviews"]
    assert FORMS.names_answer("Harbor Reviews", accept, "datasets") == (True, True)
    assert FORMS.names_answer("Quarry Talk", accept, "datasets") == (True, False)
    assert FORMS.names_answer("Snowbank", accept, "datasets") == (False, False)


@pytest.mark.parametrize(
    ("question", "column"),
    [
        ("Which corpora were used for training?", "datasets"),
        ("On what dataset are the taggers tested?", "datasets"),
        ("What evaluation measures do the authors use?", "metrics"),
        ("How are the summaries evaluated?", "metrics"),
        ("What were the baseline systems?", "baselines"),
        ("Which parsers do they compare against?", "baselines"),
        ("What languages are the reviews written in?", "languages studied"),
        ("How large is the collected corpus?", "dataset size"),
        ("What is the size of their data?", "dataset size"),
        ("How much data do they collect?", "dataset size"),
        # left out: another work's data, a number, prior work, a sub-part's size, no form
        ("Which existing corpora do they compare with?", None),
        ("How many languages do they cover?", None),
        ("What are the state-of-the-art parsers?", None),
        ("How big is the test set?", None),
        ("How is tagging accuracy measured?", None),
        ("Where was the data collected from?", None),
        ("By how much do they beat the baselines?", None),
        ("What is the baseline's accuracy?", None),
        ("What measures do they take against overfitting?", None),
    ],
)
def test_a_question_form_picks_its_column(question: str, column: str | None) -> None:
    assert FORMS.column(question) == column


def _item(n: int, doc: str, question: str, accept: list[str], **kw: object) -> dict[str, object]:
    return {"id": f"made-up-{n}", "doc": doc, "question": question, "type": "extractive",
            "answerable": True, "accept": accept} | kw  # fmt: skip


def test_only_answerable_name_answers_are_asked() -> None:
    items = [
        _item(1, "a.md", "What datasets are used?", ["Harbor Reviews"]),
        _item(2, "a.md", "What datasets are used?", [], answerable=False),
        _item(3, "a.md", "Which datasets do they use?", ["Yes"], type="yes_no"),
        _item(4, "a.md", "What datasets are used?", [" ".join(["word"] * (m.SENTENCE_WORDS + 1))]),
    ]
    asked, sentences = m.asked(items, FORMS)
    assert [q.id for q in asked] == ["made-up-1"] and sentences == 1


HARBOR = """# Tagging Harbor Reviews

## Abstract

We tag harbor reviews with a small recurrent tagger.

## Experiments

We evaluate our tagger on the Harbor Reviews Corpus, which holds 12,400 reviews.
We report accuracy as the evaluation metric.
"""
QUARRY = """# Quarry Talk

## Abstract

We study quarry workers' speech.

## Data

We use the Quarry Talk corpus of recorded conversations.
"""


def test_a_half_is_scored_on_real_cells_and_a_judge_paper_is_left_out(tmp_path: Path) -> None:
    (tmp_path / "harbor.md").write_text(HARBOR)
    (tmp_path / "quarry.md").write_text(QUARRY)
    lib = tmp_path / "lib"
    docs = [str(tmp_path / "harbor.md"), str(tmp_path / "quarry.md")]
    result = CliRunner().invoke(app, ["-L", str(lib), "ingest", "--no-embed", *docs])
    assert result.exit_code == 0, result.output
    pool = tmp_path / "pool"
    (pool / "splits").mkdir(parents=True)
    items = [
        _item(1, "harbor.md", "Which dataset do they evaluate on?", ["Harbor Reviews Corpus"]),
        _item(2, "harbor.md", "What evaluation metrics are used?", ["accuracy"]),
        _item(3, "harbor.md", "What were the baselines?", ["a rule-based tagger"]),
        _item(4, "quarry.md", "What dataset do they use?", ["Quarry Talk"]),
    ]
    (pool / "splits" / "odd.yaml").write_text(yaml.safe_dump(items))
    gold = tmp_path / "gold.yaml"
    papers = [{"file": "quarry.md", "part": "held-out-7"}, {"file": "harbor.md", "part": "dev"}]
    gold.write_text(yaml.safe_dump({"papers": papers}))
    judges = m.judge_files(gold)
    assert judges == {"quarry.md"}
    cells = m.Cells(lib)
    try:
        half = m.score_half("odd", cells, FORMS, judges, show=True, pool=pool)
    finally:
        cells.close()
    result_ = m.report(half)
    assert result_["left_out_judge_questions"] == 1
    assert not any("quarry.md" in line for line in half.lines)
    rows = result_["columns"]
    assert rows["datasets"] == {"questions": 1, "filled": 1, "right": 1, "precision": 1.0,
                                "recall": 1.0, "names_all": 1}  # fmt: skip
    assert rows["metrics"]["right"] == 1
    assert rows["baselines"]["questions"] == 1 and rows["baselines"]["right"] == 0
    assert rows["all"]["questions"] == 3


def test_items_are_shown_for_the_odd_half_only(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["matrix_qasper.py", "--library", "nowhere", "--half", "even", "--show"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stopped:
        m.main()
    assert stopped.value.code == 2  # refused before any library is opened


def test_without_the_gold_file_it_stops_rather_than_read_judge_papers(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="not found"):
        m.judge_files(tmp_path / "no_gold.yaml")
