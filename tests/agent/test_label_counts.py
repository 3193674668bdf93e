""" "How many figures are in the document": its numbered figure captions, counted only when
they run 1..N (a gap means one was missed, and then no count is given)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.api import Library


def _paper(path: Path, numbers: list[int]) -> Path:
    doc = pymupdf.open()
    for n in numbers:
        page = doc.new_page(width=595, height=842)
        page.insert_textbox(
            pymupdf.Rect(72, 72, 523, 160),
            f"Section {n} studies the slabs of quarry {n} and their grading errors in detail.",
            fontsize=10,
        )
        page.draw_rect(pymupdf.Rect(120, 200, 470, 380), color=(0, 0, 1), width=2)
        page.insert_textbox(
            pymupdf.Rect(72, 390, 523, 430), f"Figure {n}: Grading error at quarry {n}.", fontsize=9
        )
    doc.save(path)
    doc.close()
    return path


def test_the_figures_of_a_document_are_counted_from_its_captions(tmp_path: Path) -> None:
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([_paper(tmp_path / "quarries.pdf", [1, 2, 3])])
    doc = lib.documents()[0].id
    answer = lib.ask("How many figures are available in the entire document?", [doc])
    assert answer.answer == "3 figures (numbered Figure 1 to Figure 3)."
    pages = sorted(e.page for e in answer.evidence)
    assert pages == [1, 3] and answer.evidence[0].quote.startswith("Figure 1:")


def test_a_gap_in_the_numbering_gives_no_count(tmp_path: Path) -> None:
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([_paper(tmp_path / "gap.pdf", [1, 3])])
    doc = lib.documents()[0].id
    answer = lib.ask("How many figures are available in the entire document?", [doc])
    assert not answer.answer.startswith(("2 figures", "3 figures")), answer.answer
