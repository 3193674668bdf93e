"""`ask --trace` without a model: one step routed by code from the question's analysis (a
comparison, a table of one paper, else a search), validated and run by the tool registry,
printed with its result; `--json` carries the same steps."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.agent.actions.tool_plan import route, run_plan
from citewise.agent.actions.tools import COMMON_ERRORS, REGISTRY
from citewise.api import Library
from citewise.cli import app
from citewise.cli.testing import CliRunner
from citewise.llm.base import parse_spec
from citewise.llm.registry import role_clients
from tests.agent.comparison.test_compare import ADAMW, SGD
from tests.llm.smollm2 import SMOLLM2, needs_smollm2
from tests.pdfs import write_paper
from tests.structure.paper import write_structured_paper

runner = CliRunner()


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    root = tmp_path_factory.mktemp("plan")
    pdfs = {
        "adamw": write_paper(root / "adamw.pdf", "Echo Transformers for Granite", ADAMW),
        "sgd": write_paper(root / "sgd.pdf", "Momentum Networks for Marble", SGD),
        "echo": write_structured_paper(root / "echo.pdf"),
    }
    with Library(root / "lib", embeddings=False) as library:
        assert not library.ingest(list(pdfs.values())).failed
        by_file = {Path(d.path).stem: d.id for d in library.documents()}
    yield root / "lib", {k: by_file[p.stem] for k, p in pdfs.items()}


def test_a_comparative_question_routes_to_compare_methods(lib) -> None:
    path, ids = lib
    with Library(path, embeddings=False) as library:
        (step,) = library.plan(f"How do {ids['adamw']} and {ids['sgd']} differ in clipping?")
    assert step.source == "route" and step.step.action == "compare_methods"
    assert step.outcome.ok and step.outcome.result
    values = {c["document"]: c["value"] for c in step.outcome.result["cells"]}
    assert values == {ids["adamw"]: "1.0", ids["sgd"]: "5.0"}


def test_a_table_of_one_paper_routes_to_lookup_table(lib) -> None:
    path, ids = lib
    with Library(path, embeddings=False) as library:
        (step,) = library.plan("What is the probe time in Table 2?", [ids["echo"]])
        (missing,) = library.plan("What does Table 9 show?", [ids["echo"]])
    assert step.step.action == "lookup_table" and step.outcome.ok and step.outcome.result
    assert ["Probe time", "4.20", "5.10"] in step.outcome.result["rows"]
    assert missing.outcome.error and missing.outcome.error.code == "TABLE_NOT_FOUND"


def test_trace_prints_each_step_and_json_carries_it(lib) -> None:
    path, ids = lib
    question = "Which optimizer trains the echo transformer?"
    shown = runner.invoke(app, ["-L", str(path), "ask", "--trace", question])
    assert shown.exit_code == 0, shown.output
    assert "step 1 · route search_library" in shown.stderr and "ok (" in shown.stderr
    data = json.loads(runner.invoke(app, ["-L", str(path), "ask", "--trace", "--json",
                                          question]).stdout)  # fmt: skip
    (step,) = data["trace"]
    assert step["action"] == "search_library" and step["ok"] and step["source"] == "route"
    assert any("AdamW" in h["quote"] for h in step["result"]["hits"])
    plain = json.loads(runner.invoke(app, ["-L", str(path), "ask", "--json", question]).stdout)
    assert "trace" not in plain


@needs_smollm2
def test_a_models_step_is_validated_run_and_backed_by_the_routed_step(lib) -> None:
    """SmolLM2 in the reason role (tiny: the wiring is tested, not the plan's quality): its
    reply is a registry call by the JSON schema, the registry runs or refuses it with a
    code of that tool, and a routed step follows when it did not succeed."""
    path, ids = lib
    with Library(path, embeddings=False) as library:
        spec = parse_spec(f"llamacpp:{SMOLLM2}", None)
        model = role_clients("reason", library.model_settings, library.store.audit, spec)
        question = "What learning rate does the echo transformer use?"
        analysed, scope = library.answerer.analyse(question)
        fallback = route(analysed, scope, list(ids.values()))
        trace = run_plan(library, question, fallback, model[0], list(ids.values()), max_steps=1)
        usage = library.usage()
    first = trace[0]
    assert first.source == "model" and first.step.action in REGISTRY
    tool = REGISTRY[first.step.action]
    if not first.outcome.ok:
        assert first.outcome.error and first.outcome.error.code in (*tool.errors, *COMMON_ERRORS)
        assert trace[-1].source == "route" and trace[-1].outcome.ok
    assert len(trace) <= 2 and usage.calls >= 1


def test_chat_traces_each_turn(lib) -> None:
    path, ids = lib
    turns = f"How do {ids['adamw']} and {ids['sgd']} differ in clipping?\nWhich optimizer?\n"
    result = runner.invoke(app, ["-L", str(path), "chat", "--trace", "--json"], input=turns)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["trace"][0]["action"] for r in rows] == ["compare_methods", "search_library"]
    assert rows[0]["comparison"]["aspects"] == ["gradient clipping"]
