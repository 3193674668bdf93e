"""A drafted answer read only from table rows must write the capitalised names the question
asks with, in the table or its caption (agent/sentences/figures.table_without_names); the paper's
own
name, from its title, need not be there. On a PDF the test writes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from citewise.api import Library


@pytest.fixture(scope="module")
def error_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    folder = tmp_path_factory.mktemp("error-table")
    path = write_error_paper(folder / "granola-errors.pdf")
    lib = Library(folder / "library", embeddings=False)
    assert lib.ingest([path]).failed == []
    yield lib
    lib.close()


def write_error_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "GRANOLA: Probe Programs for Quarry Logs", fontsize=18)
    page.insert_textbox(
        pymupdf.Rect(72, 110, 523, 170),
        "We asked two annotators to sort the failed probe programs by the kind of fault.",
        fontsize=10,
    )
    page.insert_text(
        (72, 190), "Table 2: Fault kinds of failed probe programs on QUARRYLOG.", fontsize=9
    )
    rows = [("Fault kind", "Short logs", "Long logs"), ("Parse fault", "12%", "30%"),
            ("Timing fault", "41%", "55%"), ("Sensor fault", "47%", "15%")]  # fmt: skip
    for n, row in enumerate(rows):
        for x, text in zip((72, 260, 360), row, strict=True):
            page.insert_text((x, 208 + 12 * n), text, fontsize=9)
    doc.save(path)
    doc.close()
    return path


def test_a_table_about_one_dataset_does_not_answer_for_another(error_table: Library) -> None:
    other = error_table.ask("What share of timing faults did the probe programs have on SLATELOG?")
    assert other.refused, other.answer
    named = error_table.ask("What share of timing faults did the probe programs have on QUARRYLOG?")
    assert not named.refused and "41%" in named.answer
    # the paper's own name need not be in its table
    own = error_table.ask("What share of timing faults did GRANOLA probe programs have?")
    assert not own.refused and "41%" in own.answer
