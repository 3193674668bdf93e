"""read_pdf pauses the cyclic garbage collector while it parses: a parse must leave no
reference cycles behind (reference counting frees all it makes), and the collector is
left as it was found, also when the parse fails."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from citewise.documents.pdf.reader import read_pdf
from citewise.errors import BadDocumentError
from tests.documents.conftest import CORPUS


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector off around the test, so only the parse's own garbage is counted."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _paper(path: Path) -> Path:
    """Two pages with what the reader works hardest on: a heading, prose with a
    footnote mark and a hyphenated line end, a ruled table under its caption, a note."""
    doc = pymupdf.open()
    for number in range(2):
        page = doc.new_page()
        page.insert_text((72, 72), f"{number + 1} Results", fontsize=14, fontname="Times-Bold")
        lines = [
            "The probes classify every block before it is cut and the",
            "classifier reaches high accuracy on the held-out implemen-",
            "tation set collected over six months at the quarry site.",
        ]
        for i, line in enumerate(lines):
            page.insert_text((72, 100 + 12 * i), line, fontsize=10, fontname="Times-Roman")
        page.insert_text((330, 122), "1", fontsize=6, fontname="Times-Roman")
        page.insert_text((72, 160), "Table 1: Accuracy by block type.", fontsize=9)
        for r, row in enumerate([("type", "probe", "visual"), ("dry", "93.4", "81.0")]):
            for c, cell in enumerate(row):
                page.insert_text((80 + 100 * c, 190 + 16 * r), cell, fontsize=9)
        for y in (178, 196, 214):
            page.draw_line((72, y), (372, y))
        for x in (72, 172, 272, 372):
            page.draw_line((x, 178), (x, 214))
        page.insert_text((72, 760), "1 Measured in 2024.", fontsize=7, fontname="Times-Roman")
    doc.save(path)
    return path


def test_a_parse_leaves_no_reference_cycles(tmp_path: Path, collector_off: None) -> None:
    document = read_pdf(_paper(tmp_path / "paper.pdf"), ocr=False)
    assert document.pages == 2 and any(b.kind == "table" for b in document.blocks)
    assert gc.collect() == 0
    assert not gc.isenabled()  # read_pdf leaves the collector as it found it


@pytest.mark.skipif(not (CORPUS / "N18-3011.pdf").exists(), reason="shared corpus absent")
def test_a_paper_of_the_corpus_leaves_no_reference_cycles(collector_off: None) -> None:
    document = read_pdf(CORPUS / "N18-3011.pdf", ocr=False)
    assert len(document.blocks) > 100
    assert gc.collect() == 0


def test_the_collector_runs_again_after_a_parse_and_after_a_failure(tmp_path: Path) -> None:
    assert gc.isenabled()
    read_pdf(_paper(tmp_path / "paper.pdf"), ocr=False)
    assert gc.isenabled()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    with pytest.raises(BadDocumentError):
        read_pdf(broken, ocr=False)
    assert gc.isenabled()
