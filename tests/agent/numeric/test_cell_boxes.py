"""Cell highlight boxes: a cell answer's citation, and each operand of a computed answer,
carry the box of the table cell read (PDF points, the page coordinates of the evidence's
`bbox`); a grid stored without boxes (an older library) gives no `cell_bbox` at all."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citewise.agent.numeric.cells import TableView
from citewise.api import Library
from tests.agent.tables_pdf import write_results_paper


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, Path]:
    folder = tmp_path_factory.mktemp("boxes")
    path = write_results_paper(folder / "results.pdf")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([path])
    return lib, path


def _text_in(path: Path, page: int, box: list[float]) -> str:
    """The words whose centre lies in `box` on `page` of the PDF."""
    with pymupdf.open(path) as doc:
        words = doc[page - 1].get_text("words")
    inside = [
        w[4]
        for w in words
        if box[0] <= (w[0] + w[2]) / 2 <= box[2] and box[1] <= (w[1] + w[3]) / 2 <= box[3]
    ]
    return " ".join(inside)


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 1
        and inner[1] >= outer[1] - 1
        and inner[2] <= outer[2] + 1
        and inner[3] <= outer[3] + 1
    )


def test_each_operand_of_a_computed_answer_has_its_cells_box(
    paper: tuple[Library, Path],
) -> None:
    lib, path = paper
    answer = lib.ask("How much higher is the SciFact nDCG@10 of BM25 + rerank than BM25?")
    (sentence,) = answer.sentences
    assert sentence.kind == "computed" and sentence.operands
    pages = {e.id: e.page for e in answer.evidence}
    read = [
        _text_in(path, pages[str(o["citation"])], o["cell_bbox"])  # type: ignore[arg-type]
        for o in sentence.operands
    ]
    assert read == ["73.2", "66.5"]


def test_a_quote_answer_has_no_cell_box(paper: tuple[Library, Path]) -> None:
    lib, _ = paper
    data = lib.ask("What does Table 1 compare?").to_dict()
    for evidence in data["evidence"]:  # type: ignore[attr-defined]
        assert "cell_bbox" not in evidence


def test_a_grid_stored_without_boxes_reads_as_before() -> None:
    old = {
        "n_rows": 2,
        "n_cols": 2,
        "header_rows": 1,
        "cells": [
            {"row": 0, "col": 0, "text": "Model"},
            {"row": 0, "col": 1, "text": "F1"},
            {"row": 1, "col": 0, "text": "Alpha"},
            {"row": 1, "col": 1, "text": "80.1"},
        ],
    }
    view = TableView.from_data(old, "Table 9")
    assert view is not None and view.rows == [["Alpha", "80.1"]]
    assert view.box(0, 1) is None


def test_ruled_and_text_tables_store_a_box_per_cell(tmp_path: Path) -> None:
    """Both table readers (ruled cell borders, text columns) box every cell on the page."""
    from citewise.documents.pdf.reader import read_pdf
    from citewise.documents.structure import find_table, tables
    from tests.structure.paper import write_structured_paper

    path = write_structured_paper(tmp_path / "echo.pdf")
    doc = read_pdf(path)
    found = tables((b, b.data) for b in doc.blocks)
    for label in ("Table 1", "Table 2"):  # text-column grid, then ruled grid
        table = find_table(found, label)
        assert table is not None
        for cell in table.cells:
            assert cell.bbox is not None, (label, cell)
            assert _text_in(path, table.page, cell.bbox) == cell.text, (label, cell)


def test_a_filings_statement_figures_carry_their_cells_boxes(tmp_path: Path) -> None:
    """A line item read from a statement (not a matched cell) is boxed too: the cell of
    its row under the fiscal year's column, here (1,577) and not 2017's (1,373)."""
    from tests.agent.tables_pdf import write_annual_report

    path = write_annual_report(tmp_path / "granite_2018_10k.pdf")
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([path])
    data = lib.ask("What is Granite Corp's FY2018 capital expenditure (in USD millions)?").to_dict()
    (evidence,) = data["evidence"]  # type: ignore[misc]
    assert _text_in(path, evidence["page"], evidence["cell_bbox"]) == "(1,577)"
    margin = lib.ask("What is Granite Corp's FY2018 operating margin?")
    (sentence,) = margin.sentences
    assert sentence.kind == "computed" and sentence.operands
    pages = {e.id: e.page for e in margin.evidence}
    read = {
        _text_in(path, pages[str(o["citation"])], o["cell_bbox"])  # type: ignore[arg-type]
        for o in sentence.operands
    }
    assert read == {"7,207", "32,765"}
