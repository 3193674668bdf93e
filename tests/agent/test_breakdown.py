"""A superlative over a row's total, among the parts a named row breaks down into
(agent/numeric/cells.py `breakdown`, `superlative_total`), on a PDF the test writes."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.agent.numeric.cells import TableView, breakdown, superlative_total
from citewise.api import Library
from tests.agent.tables_pdf import LEFT, _para, _table, write_results_paper

# "Sorting error" breaks down into the three rows below it (they add up, column by column).
ERRORS = [
    ("Error type", "Granite", "Marble", "Slate"),
    ("Probe error", "1%", "0%", "2%"),
    ("Sorting error", "30%", "40%", "20%"),
    ("Echo", "10%", "25%", "5%"),
    ("Timing", "18%", "12%", "14%"),
    ("Labeling", "2%", "3%", "1%"),
    ("Laptop crash", "69%", "60%", "78%"),
]


def write_errors_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 80), "Why Acoustic Sorting Fails", fontsize=18, fontname="hebo")
    y = _para(page, 120, "Table 1 breaks the failed sorts down by error type and stone.")
    _table(page, y, "Table 1: Error types of the failed sorts per stone.", ERRORS,
           [LEFT, 220, 300, 380])  # fmt: skip
    doc.save(path)
    doc.close()
    return path


def test_the_lowest_total_among_a_named_rows_parts(tmp_path: Path) -> None:
    library = Library(tmp_path / "library", embeddings=False)
    try:
        assert library.ingest([write_errors_paper(tmp_path / "errors.pdf")]).failed == []
        answer = library.ask("Which type of sorting error has the lowest total percentage?")
        assert not answer.refused, answer
        # Labeling (6) among Echo, Timing, Labeling; not Probe error (3), not a sorting error
        assert answer.answer.startswith("Labeling"), answer.answer
        assert answer.sentences[0].kind == "cell"
    finally:
        library.close()


def test_breakdown_needs_rows_that_add_up_and_a_total_word() -> None:
    view = TableView("Table 1", "", list(ERRORS[0]), [list(r) for r in ERRORS[1:]])
    assert breakdown(view, 1) == [2, 3, 4]
    assert breakdown(view, 0) == []  # the rows below "Probe error" never add up to it
    highest = superlative_total("Which type of sorting error has the highest total?", view)
    assert highest is not None and highest.row == "Timing" and highest.value == "44"
    # without a total word, or with one column named, this is not a question over the totals
    assert superlative_total("Which type of sorting error is lowest?", view) is None
    assert superlative_total("Which error has the lowest total on Marble?", view) is None
    # a table that never names the dataset asked about does not answer for it
    assert superlative_total("Which sorting error has the lowest total in BASALT?", view) is None


def test_a_lead_statement_names_no_cell(tmp_path: Path) -> None:
    """The cell is named by the asking sentence; the rows a lead statement mentions
    ("BM25 and Hybrid fusion") do not compete with it."""
    library = Library(tmp_path / "library", embeddings=False)
    try:
        assert library.ingest([write_results_paper(tmp_path / "results.pdf")]).failed == []
        doc = library.documents()[0].id
        answer = library.ask(
            "The paper compares BM25 and Hybrid fusion. "
            "What NFCorpus Recall@100 does the Dense retriever reach?",
            documents=(doc,),
        )
        assert not answer.refused, answer
        assert answer.answer.startswith("24.2"), answer.answer
    finally:
        library.close()
