"""What rows and units work out once (text, boxes, style) follows every change the reader
makes to them: rows added by a merge, a drop cap joining a paragraph's first line."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.documents.pdf.hyphenation import clean
from citewise.documents.pdf.layout import Row, Seg, Unit
from citewise.documents.pdf.reader import read_pdf


def seg(x0: float, y0: float, text: str, size: float = 10.0, font: str = "Times") -> Seg:
    x1 = x0 + 5.0 * len(text)
    return Seg(x0, y0, x1, y0 + size, text, size, font, False, 0, (x0, y0, x1, y0 + size))


def test_a_unit_reads_rows_added_after_it_was_first_read() -> None:
    unit = Unit([Row([seg(72, 100, "The first line of a para-")])])
    assert unit.text == "The first line of a para-"
    assert unit.bbox == (72, 100, 72 + 5.0 * 25, 110)
    assert unit.style.font == "Times"
    unit.rows.extend([Row([seg(60, 112, "graph, continued in larger type", 14.0, "Helvetica")])])
    assert unit.text == "The first line of a paragraph, continued in larger type"
    assert unit.bbox == (60, 100, 60 + 5.0 * 31, 126)
    assert unit.style.font == "Helvetica"  # now the most characters
    assert len(unit.segs) == 2


def test_a_row_forgets_its_text_when_told_a_segment_changed() -> None:
    first = seg(100, 100, "ver the years")
    row = Row([first, seg(170, 100, "we read")])
    assert row.text == "ver the years we read"
    first.text = "O" + first.text
    row.forget()
    assert row.text == "Over the years we read"
    assert row.style is first


def test_clean_collapses_every_kind_of_whitespace_and_folds_accents() -> None:
    assert clean("  a\u00a0\u2003b\t\nc\u3000 ") == "a b c"
    assert clean("F¨arber and Mina´c") == "Färber and Minać"
    assert clean("") == ""


def test_a_drop_cap_joins_the_paragraph_it_begins(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 112), "O", fontsize=34, fontname="Times-Roman")
    lines = [
        "ver the years the library grew from a shelf of papers to a",
        "collection of thousands of documents that nobody could read in",
        "one sitting, so the readers built an index of every page they had.",
    ]
    for i, line in enumerate(lines):
        page.insert_text((100, 90 + 12 * i), line, fontsize=10, fontname="Times-Roman")
    for i in range(12):
        body = "More body text follows here, so that this plain type is the body style."
        page.insert_text((72, 160 + 12 * i), body, fontsize=10, fontname="Times-Roman")
    path = tmp_path / "dropcap.pdf"
    doc.save(path)
    blocks = read_pdf(path, ocr=False).blocks
    assert blocks[0].text.startswith("Over the years the library grew")
    assert blocks[0].text.endswith("every page they had.")
    assert all(b.text != "O" for b in blocks)
