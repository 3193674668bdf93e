"""Contract tests of the tool registry: every action's preconditions, typed result,
postconditions and error codes, over a real library of papers the tests write."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.agent.actions import tool_actions as actions
from citewise.agent.actions.tools import REGISTRY, Tool, execute, run_step, schemas
from citewise.api import Library
from tests.agent.comparison.test_compare import ADAMW, SGD
from tests.pdfs import write_paper
from tests.structure.paper import write_structured_paper

PLAIN = [("1 Introduction", ["Stone has been cut by hand for a very long time in the north."])]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, dict[str, str]]]:
    root = tmp_path_factory.mktemp("tools")
    pdfs = {
        "adamw": write_paper(root / "adamw.pdf", "Echo Transformers for Granite", ADAMW),
        "sgd": write_paper(root / "sgd.pdf", "Momentum Networks for Marble", SGD),
        "plain": write_paper(root / "plain.pdf", "Cutting Stone by Hand", PLAIN),
        "echo": write_structured_paper(root / "echo.pdf"),
    }
    library = Library(root / "lib", embeddings=False)
    library.ingest(list(pdfs.values()))
    by_file = {Path(d.path).stem: d.id for d in library.documents()}
    yield library, {k: by_file[p.stem] for k, p in pdfs.items()}
    library.close()


def test_every_action_publishes_schemas_and_error_codes() -> None:
    published = {s["name"]: s for s in schemas()}
    assert set(published) == {
        "search_library", "compare_methods", "build_matrix", "extract_setup", "lookup_table",
        "extract_formula", "validate_conclusion",
    }  # fmt: skip
    for spec in published.values():
        assert spec["parameters"]["type"] == "object" and spec["result"]["type"] == "object"
        assert "PAPER_NOT_FOUND" in spec["errors"] and "INVALID_PARAMS" in spec["errors"]
    assert "PAGE_OUT_OF_RANGE" in published["search_library"]["errors"]
    assert "ASPECT_EMPTY" in published["compare_methods"]["errors"]
    assert {"FORMULA_NOT_FOUND", "INVALID_EQ_ID"} <= set(published["extract_formula"]["errors"])
    assert "TABLE_NOT_FOUND" in published["lookup_table"]["errors"]


def test_unknown_action_and_bad_params_are_refused_with_hints(lib) -> None:
    library, ids = lib
    out = execute(library, "delete_everything", {})
    assert out.error and out.error.code == "UNKNOWN_ACTION" and "search_library" in out.error.hint
    for action, params in [
        ("search_library", {"query": "", "k": 3}),
        ("search_library", {"query": "echo", "k": 0}),
        ("search_library", {"query": "echo", "colour": "red"}),
        ("compare_methods", {"documents": [ids["adamw"]]}),
        ("build_matrix", {"columns": "optimizer"}),
        ("extract_formula", {"document": ids["echo"]}),
    ]:
        out = execute(library, action, params)
        assert not out.ok and out.error and out.error.code == "INVALID_PARAMS", (action, params)
        assert out.error.hint.startswith("parameters:")


@pytest.mark.parametrize(
    "action,params",
    [
        ("search_library", {"query": "echo", "documents": ["nobody2020"]}),
        ("compare_methods", {"documents": ["nobody2020", "nobody2021"]}),
        ("extract_setup", {"document": "nobody2020"}),
        ("build_matrix", {"documents": ["nobody2020"]}),
        ("lookup_table", {"document": "nobody2020", "label": "Table 1"}),
        ("extract_formula", {"document": "nobody2020", "number": "1"}),
    ],
)
def test_a_missing_paper_is_paper_not_found(lib, action: str, params: dict) -> None:
    out = execute(lib[0], action, params)
    assert out.error and out.error.code == "PAPER_NOT_FOUND" and "citewise list" in out.error.hint


def test_search_library_keeps_to_its_documents_and_page(lib) -> None:
    library, ids = lib
    out = execute(
        library, "search_library", {"query": "gradient clipping", "documents": [ids["sgd"]]}
    )
    assert out.ok and out.result
    hits = out.result["hits"]
    assert hits and all(h["document"] == ids["sgd"] for h in hits)
    assert any("clipped" in h["quote"] for h in hits)
    out = execute(library, "search_library",
                  {"query": "echo", "documents": [ids["echo"]], "page": 2})  # fmt: skip
    assert out.ok and out.result and out.result["hits"]
    assert all(h["page"] == 2 for h in out.result["hits"])
    out = execute(library, "search_library",
                  {"query": "echo", "documents": [ids["echo"]], "page": 9})  # fmt: skip
    assert out.error and out.error.code == "PAGE_OUT_OF_RANGE" and "1 to 2" in out.error.hint


def test_compare_methods_cells_are_cited_or_aspect_empty(lib) -> None:
    library, ids = lib
    docs = [ids["adamw"], ids["sgd"]]
    out = execute(library, "compare_methods",
                  {"documents": docs, "aspects": ["optimizer", "gradient clipping"]})  # fmt: skip
    assert out.ok and out.result
    cells = {(c["aspect"], c["document"]): c for c in out.result["cells"]}
    assert cells[("optimizer", ids["adamw"])]["value"] == "AdamW"
    assert cells[("gradient clipping", ids["sgd"])]["value"] == "5.0"
    for c in cells.values():
        assert c["value"].removesuffix("…") in c["citation"]["quote"]
    out = execute(library, "compare_methods", {"documents": docs, "aspects": ["weight decay"]})
    assert out.error and out.error.code == "ASPECT_EMPTY"
    out = execute(library, "compare_methods", {"documents": docs, "aspects": ["optimzer"]})
    assert out.error and out.error.code == "UNKNOWN_ASPECT" and "optimizer" in out.error.hint


def test_build_matrix_has_a_row_per_paper_and_every_cell_cited(lib) -> None:
    library, ids = lib
    docs = [ids["adamw"], ids["plain"]]
    out = execute(library, "build_matrix", {"documents": docs, "columns": ["optimizer", "seed"]})
    assert out.ok and out.result
    assert out.result["columns"] == ["optimizer", "seeds"]
    rows = {r["document"]: r["cells"] for r in out.result["rows"]}
    assert list(rows) == docs and all(
        list(cells) == ["optimizer", "seeds"] for cells in rows.values()
    )
    assert rows[ids["adamw"]]["optimizer"]["value"] == "AdamW"
    assert not rows[ids["plain"]]["optimizer"]["stated"]
    assert out.result["fill_rate"] == 0.25
    out = execute(library, "build_matrix", {})  # every paper, the default columns
    assert out.ok and out.result and len(out.result["rows"]) == len(ids)
    assert out.result["columns"] == [
        "task", "method", "datasets", "metrics", "main result", "limitations"
    ]
    out = execute(library, "build_matrix", {"columns": ["optimzer"]})
    assert out.error and out.error.code == "UNKNOWN_ASPECT" and "optimizer" in out.error.hint


def test_error_kinds_travel_with_the_codes(lib) -> None:
    library, _ = lib
    missing = execute(library, "extract_setup", {"document": "nobody2020"})
    assert missing.error and missing.error.kind == "not_found"
    bad = execute(library, "compare_methods", {"documents": []})
    assert bad.error and bad.error.kind == "invalid"


def test_extract_setup_lists_stated_and_unstated(lib) -> None:
    library, ids = lib
    out = execute(library, "extract_setup", {"document": ids["adamw"]})
    assert out.ok and out.result
    stated = {v["aspect"]: v["value"] for v in out.result["values"]}
    assert stated["optimizer"] == "AdamW" and stated["learning rate"] == "3e-4"
    assert "weight decay" in out.result["not_stated"]
    out = execute(library, "extract_setup", {"document": ids["plain"]})
    assert out.error and out.error.code == "ASPECT_EMPTY"


def test_lookup_table_and_extract_formula(lib) -> None:
    library, ids = lib
    out = execute(library, "lookup_table", {"document": ids["echo"], "label": "Table 2"})
    assert out.ok and out.result and out.result["rows"][2] == ["Probe time", "4.20", "5.10"]
    out = execute(library, "lookup_table", {"document": ids["echo"], "label": "Table 9"})
    assert out.error and out.error.code == "TABLE_NOT_FOUND" and "Table 1" in out.error.hint
    out = execute(library, "extract_formula", {"document": ids["echo"], "number": "eq1"})
    assert out.ok and out.result and out.result["number"] == "1"
    out = execute(library, "extract_formula", {"document": ids["echo"], "number": "3.2"})
    assert out.error and out.error.code == "FORMULA_NOT_FOUND" and out.error.hint == "numbered: 1"
    out = execute(library, "extract_formula", {"document": ids["echo"], "number": "eq3-2"})
    assert out.error and out.error.code == "INVALID_EQ_ID" and "accepted forms" in out.error.hint


def test_plan_steps_run_from_json_and_carry_next_step(lib) -> None:
    library, ids = lib
    step = json.dumps({"action": "extract_formula",
                       "params": {"document": ids["echo"], "number": "(1)"},
                       "next_step": "explain the variables"})  # fmt: skip
    out = run_step(library, step)
    assert out.ok and out.next_step == "explain the variables"
    out = run_step(library, '{"params": {}}')
    assert out.error and out.error.code == "INVALID_PARAMS"


def test_a_result_that_breaks_its_postcondition_is_not_returned(
    lib, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forged(_lib: object, p: actions.CompareMethodsParams) -> actions.CompareMethodsResult:
        quote = actions.Citation(document="a", page=1, block="b", quote="We use SGD.")
        cell = actions.ComparisonCell(aspect="optimizer", document="a", value="AdamW",
                                      stated=True, citation=quote, page=1, block="b",
                                      quote="We use SGD.")  # fmt: skip
        return actions.CompareMethodsResult(documents=[], aspects=["optimizer"], cells=[cell],
                                            key_differences="")  # fmt: skip

    real = REGISTRY["compare_methods"]
    monkeypatch.setitem(REGISTRY, "compare_methods", Tool(
        real.name, real.description, real.params, real.result, forged, real.errors,
        real.postcondition))  # fmt: skip
    out = execute(lib[0], "compare_methods", {"documents": ["a", "b"]})
    assert out.error and out.error.code == "POSTCONDITION_FAILED" and out.error.kind == "failed"


def test_a_matrix_row_missing_a_column_breaks_its_postcondition(
    lib, monkeypatch: pytest.MonkeyPatch
) -> None:
    def short(_lib: object, p: actions.BuildMatrixParams) -> actions.BuildMatrixResult:
        row = actions.MatrixRow(document="a", title="A", year=None, path="a.pdf", cells={})
        return actions.BuildMatrixResult(
            columns=["optimizer"], rows=[row], fill_rate=0.0, computed=0, cached=0
        )

    real = REGISTRY["build_matrix"]
    monkeypatch.setitem(REGISTRY, "build_matrix", Tool(
        real.name, real.description, real.params, real.result, short, real.errors,
        real.postcondition))  # fmt: skip
    out = execute(lib[0], "build_matrix", {"documents": ["a"]})
    assert out.error and out.error.code == "POSTCONDITION_FAILED"


def test_validate_conclusion_needs_a_passage_that_says_it(lib) -> None:
    library, ids = lib
    said = "We apply gradient clipping with a maximum norm of 1.0."
    out = execute(library, "validate_conclusion", {"conclusion": said})
    assert out.ok and out.result and out.result["supported"]
    (evidence,) = out.result["evidence"]
    assert evidence["document"] == ids["adamw"] and "maximum norm of 1.0" in evidence["quote"]
    wrong = "We apply gradient clipping with a maximum norm of 7.5."
    out = execute(library, "validate_conclusion",
                  {"conclusion": wrong, "documents": [ids["adamw"]]})  # fmt: skip
    assert out.ok and out.result and not out.result["supported"]
    assert "7.5" in out.result["reason"] and out.result["evidence"] == []
    out = execute(library, "validate_conclusion", {"conclusion": "zyxwv qwerty plugh"})
    assert out.error and out.error.code == "NO_EVIDENCE"
