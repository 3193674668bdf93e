"""`citewise show --json`, `table` and `formula` over a library holding the written paper,
and references resolving to other papers in the library."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from citewise.cli import app
from citewise.cli.testing import CliRunner

runner = CliRunner()


def cli(library: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["--library", str(library), *args])
    return result.exit_code, result.stdout


@pytest.fixture
def library(tmp_path: Path, structured_pdf: Path) -> Path:
    lib = tmp_path / "lib"
    code, out = cli(lib, "ingest", "--no-embed", "--json", str(structured_pdf))
    assert code == 0, out
    return lib


def doc_id(library: Path) -> str:
    return json.loads(cli(library, "list", "--json")[1])[0]["id"]


def test_show_json_follows_the_issue_schema(library: Path) -> None:
    code, out = cli(library, "show", doc_id(library), "--json")
    assert code == 0
    shown = json.loads(out)
    for key in ("id", "title", "authors", "year", "doi", "pages"):
        assert key in shown
    assert shown["title"] == "Echo Profiles of Quarry Stone" and shown["pages"] == 2
    assert shown["sections"][:3] == [
        {"number": "1", "title": "Introduction", "level": 1, "page": 1},
        {"number": "2", "title": "Method", "level": 1, "page": 1},
        {"number": "2.1", "title": "Tapping", "level": 2, "page": 1},
    ]
    assert shown["tables"] == [
        {"label": "Table 1", "page": 1, "rows": 4, "cols": 5,
         "caption": "Table 1: Precision and yield by stone."},
        {"label": "Table 2", "page": 1, "rows": 4, "cols": 3,
         "caption": "Table 2: Cost per block, ruled."},
        {"label": "Table 3", "page": 2, "rows": 4, "cols": 3,
         "caption": "Table 3: Stone types and their uses."},
    ]  # fmt: skip
    assert shown["equations"] == [{"number": "1", "page": 1, "text": "E = a m u 2"}]
    assert [(r["authors"][0], r["year"], r["title"]) for r in shown["references"]] == [
        ("C Miller", 2019, "Saw blades and hidden cracks"),
        ("D Olsen", 2022, "Spectral features for stone"),
        ("B Stone", 2021, "Echoes in hard rock"),
    ]
    assert shown["references"][2]["doi"] == "10.5555/rock.2021.9"
    assert all(r["resolved_document"] is None for r in shown["references"])


def test_show_without_json_prints_a_tree(library: Path) -> None:
    code, out = cli(library, "show", doc_id(library))
    assert code == 0
    assert "2.1 Tapping" in out and "Table 2" in out and "(1)" in out
    assert "References (3, 0 in this library)" in out


def test_table_as_csv_json_and_markdown(library: Path) -> None:
    doc = doc_id(library)
    code, out = cli(library, "table", doc, "Table 2", "--csv")
    assert code == 0
    assert out == (
        "Item,Cost per block,Cost per block\n"
        "Item,Bergen,Carrara\n"
        "Probe time,4.20,5.10\n"
        "Saw wear,12.80,11.40\n"
    )
    code, out = cli(library, "table", doc, "1", "--json")
    data = json.loads(out)
    assert (data["label"], data["page"], data["rows"], data["cols"]) == ("Table 1", 1, 4, 5)
    assert data["header_rows"] == 2 and data["grid"][2] == ["Contact", "91.5", "712", "88.2", "640"]
    wanted = {"row": 0, "col": 1, "text": "Granite", "rowspan": 1, "colspan": 2, "header": True}
    assert any({k: c.get(k) for k in wanted} == wanted for c in data["cells"])
    # each cell's box on the page (a highlight can box the cell, not only the table)
    assert all(len(c["bbox"]) == 4 for c in data["cells"] if "bbox" in c)
    assert any("bbox" in c for c in data["cells"])
    assert data["block"].endswith(tuple("0123456789")) and len(data["bbox"]) == 4
    code, out = cli(library, "table", doc, "Table 3", "--markdown")
    assert out.split("\n")[:3] == [
        "| Stone | Origin | Use |",
        "|---|---|---|",
        "| Granite | Bergen quarry | Kerbs and steps |",
    ]
    code, out = cli(library, "table", doc, "Table 3")
    assert code == 0 and "Carrara hills" in out


def test_missing_table_or_equation_exits_3_naming_what_exists(library: Path) -> None:
    result = runner.invoke(app, ["--library", str(library), "table", doc_id(library), "Table 9"])
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: no table 'Table 9' in {doc_id(library)} (labelled tables: Table 1, Table 2, "
        "Table 3)\n"
    )
    result = runner.invoke(app, ["--library", str(library), "formula", doc_id(library), "eq4"])
    assert result.exit_code == 3 and "numbered: 1" in result.stderr


@pytest.mark.parametrize("spelling", ["1", "eq1", "(1)"])
def test_formula_by_number(library: Path, spelling: str) -> None:
    code, out = cli(library, "formula", doc_id(library), spelling, "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["number"], data["page"], data["text"]) == ("1", 1, "E = a m u 2")
    assert data["section"] == "2 Method > 2.1 Tapping"


def _cited_paper(path: Path, title: str, doi: str | None, year: int) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), title, fontsize=20, fontname="hebo")
    page.insert_text((72, 104), "Bo Stone", fontsize=11)
    if doi:
        page.insert_text((72, 120), f"doi:{doi}", fontsize=9)
    page.insert_text((72, 160), "Granite rings and marble hums when tapped.", fontsize=10)
    doc.set_metadata({"title": title, "creationDate": f"D:{year}0101000000Z"})
    doc.save(path)
    return path


def test_references_resolve_to_library_papers_by_doi_then_title(
    library: Path, tmp_path: Path
) -> None:
    # cited by DOI (the entry's title differs from the paper's), then by title alone
    by_doi = _cited_paper(
        tmp_path / "rock.pdf", "Echoes in very hard rock", "10.5555/rock.2021.9", 2021
    )
    by_title = _cited_paper(tmp_path / "saw.pdf", "Saw Blades and Hidden Cracks", None, 2019)
    code, out = cli(library, "ingest", "--no-embed", "--json", str(by_doi), str(by_title))
    assert code == 0, out
    assert len(json.loads(out)["added"]) == 2
    # files are parsed in parallel: `added` lists them as they finish, so find each by title
    listed = json.loads(cli(library, "list", "--json")[1])
    ids = {d["title"]: d["id"] for d in listed}
    shown = json.loads(cli(library, "show", doc_id(library), "--json")[1])
    resolved = {r["title"]: r["resolved_document"] for r in shown["references"]}
    assert resolved == {
        "Saw blades and hidden cracks": ids["Saw Blades and Hidden Cracks"],
        "Spectral features for stone": None,
        "Echoes in hard rock": ids["Echoes in very hard rock"],
    }
