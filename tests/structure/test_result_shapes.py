"""The JSON every face prints for a library's structure, evidence, ingest and research
results: the keys (in order) and values of the API's results on a real SQLite library of
papers the test writes, and the CLI printing the same objects."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.agent.research import ResearchOptions
from citewise.api import Library
from citewise.api.research import ResearchDesk, brief_event_data
from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.pdfs import write_paper
from tests.structure.paper import write_structured_paper

runner = CliRunner()

DETAILS = ["id", "title", "authors", "year", "doi", "pages", "sections", "tables",
           "equations", "references", "path", "blocks", "abstract", "flagged_pages"]  # fmt: skip
STRUCTURE = ["sections", "tables", "equations", "references"]
TABLE = ["document", "label", "caption", "page", "block", "bbox", "rows", "cols",
         "header_rows", "cells", "grid"]  # fmt: skip
EVIDENCE = ["id", "document", "title", "page", "bbox", "section", "kind", "label", "quote", "path"]
FORMULA = ["document", "number", "page", "text", "bbox", "block", "section"]
FORMULA_CLI = ["document", "number", "page", "text", "latex", "latex_from", "image_only",
               "variables", "before", "after", "bbox", "block", "section"]  # fmt: skip
INGEST = ["documents", "added", "replaced", "unchanged", "failed", "warnings", "pages",
          "blocks", "embedded_blocks", "embedding_model", "seconds", "embed_seconds"]  # fmt: skip
STATS_HEAD = ["rounds", "sub_questions", "papers_screened", "papers_included", "papers_cited"]
STATS_TAIL = ["tokens_used", "tokens_charged", "budget_tokens"]


def cli(library: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["--library", str(library), *args])
    return result.exit_code, result.stdout


def as_json(result: object) -> Any:
    """What a face prints: the result's to_dict() through JSON (plain data passes as is)."""
    to_dict = getattr(result, "to_dict", None)
    return json.loads(json.dumps(to_dict() if to_dict else result))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("shapes")
    echo = write_structured_paper(folder / "echo.pdf")
    granite = write_paper(folder / "granite.pdf")
    code, out = cli(folder / "lib", "ingest", "--no-embed", "--json", str(echo), str(granite))
    assert code == 0, out
    yield folder / "lib", json.loads(out)


@pytest.fixture(scope="module")
def lib(written: tuple[Path, dict[str, Any]]) -> Iterator[Library]:
    with Library(written[0], embeddings=False) as library:
        yield library


def echo_id(lib: Library) -> str:
    return next(d.id for d in lib.documents() if d.path.endswith("echo.pdf"))


def test_ingest_json_reports_the_batch(written: tuple[Path, dict[str, Any]], lib: Library) -> None:
    _, report = written
    assert list(report) == INGEST
    assert report["documents"] == 2 and sorted(report["added"]) == sorted(
        d.id for d in lib.documents()
    )
    assert report["pages"] == sum(d.pages for d in lib.documents()) == 3
    assert report["blocks"] == sum(d.blocks for d in lib.documents())
    assert (report["replaced"], report["unchanged"], report["failed"], report["warnings"]) == (
        [], [], [], []
    )  # fmt: skip
    assert report["embedded_blocks"] == 0 and report["embedding_model"] is None
    assert isinstance(report["seconds"], float) and isinstance(report["embed_seconds"], float)


def test_document_details_and_structure(written: tuple[Path, dict[str, Any]], lib: Library) -> None:
    doc = lib.document(echo_id(lib))
    details = as_json(lib.document_details(doc.id))
    assert list(details) == DETAILS
    assert (details["id"], details["title"], details["authors"], details["year"]) == (
        doc.id, "Echo Profiles of Quarry Stone", ["Ada Quarry", "Ben Stone"], 2022
    )  # fmt: skip
    assert (details["path"], details["blocks"], details["pages"]) == (doc.path, doc.blocks, 2)
    assert details["abstract"] == "" and details["flagged_pages"] == {} and details["doi"] is None
    structure = as_json(lib.structure(doc.id))
    assert list(structure) == STRUCTURE
    assert {k: details[k] for k in STRUCTURE} == structure
    assert structure["sections"][2] == {"number": "2.1", "title": "Tapping", "level": 2, "page": 1}
    assert [t["label"] for t in structure["tables"]] == ["Table 1", "Table 2", "Table 3"]
    assert structure["tables"][1] == {"label": "Table 2", "page": 1, "rows": 4, "cols": 3,
                                      "caption": "Table 2: Cost per block, ruled."}  # fmt: skip
    assert structure["equations"] == [{"number": "1", "page": 1, "text": "E = a m u 2"}]
    assert list(structure["references"][2]) == ["authors", "title", "year", "doi",
                                                "resolved_document"]  # fmt: skip
    assert structure["references"][2]["doi"] == "10.5555/rock.2021.9"
    assert json.loads(cli(written[0], "show", doc.id, "--json")[1]) == details


def test_evidence_is_the_stored_block(lib: Library) -> None:
    doc = lib.document(echo_id(lib))
    block = lib.blocks(doc.id)[3]
    evidence = as_json(lib.evidence(block.id))
    assert list(evidence) == EVIDENCE
    assert evidence == {
        "id": block.id, "document": doc.id, "title": doc.title, "page": block.page,
        "bbox": [round(v, 1) for v in block.bbox], "section": block.section_path,
        "kind": block.kind, "label": block.label, "quote": block.text, "path": doc.path,
    }  # fmt: skip


def test_table_is_cells_and_a_grid_on_the_api_and_the_cli(
    written: tuple[Path, dict[str, Any]], lib: Library
) -> None:
    doc_id = echo_id(lib)
    table = as_json(lib.table(doc_id, "Table 2"))
    assert list(table) == TABLE
    block = next(b for b in lib.blocks(doc_id) if b.id == table["block"])
    assert (table["document"], table["label"], table["page"], table["bbox"]) == (
        doc_id, "Table 2", block.page, list(block.bbox)
    )  # fmt: skip
    assert (table["rows"], table["cols"], table["header_rows"]) == (4, 3, 2)
    first = table["cells"][0]
    assert list(first) == ["row", "col", "text", "rowspan", "colspan", "header", "bbox"]
    assert (first["text"], first["rowspan"], first["colspan"], first["header"]) == (
        "Item", 2, 1, True
    )  # fmt: skip
    assert len(table["grid"]) == 4 and all(len(row) == 3 for row in table["grid"])
    code, out = cli(written[0], "table", doc_id, "2", "--json")
    assert code == 0 and json.loads(out) == table


def test_formula_on_the_api_and_the_cli(written: tuple[Path, dict[str, Any]], lib: Library) -> None:
    doc_id = echo_id(lib)
    formula = as_json(lib.formula(doc_id, "1"))
    assert list(formula) == FORMULA
    block = next(b for b in lib.blocks(doc_id) if b.id == formula["block"])
    assert (formula["number"], formula["page"], formula["text"]) == ("1", 1, "E = a m u 2")
    assert (formula["document"], formula["section"]) == (doc_id, block.section_path)
    code, out = cli(written[0], "formula", doc_id, "eq1", "--json")
    printed = json.loads(out)
    assert code == 0 and list(printed) == FORMULA_CLI
    assert {k: printed[k] for k in FORMULA} == formula
    # a PDF's equation has its text; no LaTeX is known for it, so none is made up
    assert (printed["latex"], printed["latex_from"], printed["image_only"]) == (None, None, False)
    assert printed["variables"] == ["E", "a", "m", "u"]
    assert printed["before"].startswith("The energy of a tap follows")
    assert printed["after"].startswith("Table 1 lists precision")


def test_research_stats_and_event_data(lib: Library) -> None:
    desk = ResearchDesk(lib)
    outcome = desk.research("acoustic sorting of stone", ResearchOptions())
    shown = outcome.to_dict()
    assert list(shown) == ["task", "state", "report_markdown", "report_html", "evidence", "stats"]
    assert shown["state"] == "completed" and shown["evidence"] == desk.tasks.evidence_count(
        outcome.task.id
    )
    stats = as_json(desk.stats(outcome.task))
    assert list(stats)[:5] == STATS_HEAD and list(stats)[-3:] == STATS_TAIL
    assert {**stats, "seconds": shown["stats"]["seconds"]} == shown["stats"]
    assert list(shown["stats"])[-1] == "seconds" and stats["rounds"] == outcome.task.round
    assert stats["evidence_items"] == shown["evidence"] and stats["tokens_used"] == 0
    assert stats["verification"]["ids_unresolved"] == stats["unresolved_ids"] == 0
    events = desk.show(outcome.task.id).to_dict()["events"]
    assert all(list(e) == ["time", "stage", "kind", "data"] for e in events)
    plan = next(e for e in events if e["stage"] == "plan")
    assert plan["data"] == {"round": 0, "output": ["plan"]}
    assert as_json(brief_event_data({"round": 2, "output": {"b": 1, "a": 2}})) == {
        "round": 2, "output": ["a", "b"]
    }  # fmt: skip
    assert as_json(brief_event_data({"paper": "x", "added": 1})) == {"paper": "x", "added": 1}
