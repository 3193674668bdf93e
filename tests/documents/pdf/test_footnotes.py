"""Footnote marks stay out of the running text and link to their notes."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pymupdf
import pytest

from citewise.documents.model import Document
from citewise.documents.pdf.footnotes import line_text, split_marks
from citewise.documents.pdf.reader import read_pdf
from tests.documents.conftest import CORPUS

PAPERS = ("2020.acl-main.447.pdf", "N18-3011.pdf")


def _span(text: str, size: float, y: float) -> dict:
    return {"text": text, "size": size, "origin": (0.0, y)}


def test_a_raised_small_number_after_a_word_is_a_mark_not_text() -> None:
    spans = [
        _span("using GROBID v0.5.5", 10.9, 100),
        _span("10", 8.0, 96),
        _span(" and", 10.9, 100),
    ]
    assert line_text(spans) == ("using GROBID v0.5.5 and", ["10"], None)
    glued = [_span("the PDF.", 10.9, 100), _span("11", 8.0, 96), _span("We", 10.9, 100)]
    assert line_text(glued)[0] == "the PDF. We"  # the next word never joins the one before


def test_powers_and_subscripts_stay_in_the_text() -> None:
    assert line_text([_span("x", 10, 100), _span("2", 7, 96), _span(" + 1", 10, 100)])[1] == []
    assert line_text([_span("|N", 10, 100), _span("1", 7, 102), _span("|", 10, 100)])[1] == []
    power = line_text([_span("about 10", 10, 100), _span("5", 7, 96), _span(" runs", 10, 100)])
    assert power == ("about 105 runs", [], None)


def test_a_note_line_opens_with_its_label() -> None:
    note = [_span("9", 6.0, 717.5), _span("https://github.com/allenai", 9.0, 721.3)]
    assert line_text(note) == ("9 https://github.com/allenai", [], "9")
    assert split_marks("1,2") == ["1", "2"] and split_marks("†‡") == ["†", "‡"]


def test_a_written_pdf_links_its_mark_to_the_footnote(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    page = pdf.new_page(width=595, height=842)
    words = "We parse every paper with the reader version 2.4.1<sup>7</sup> and keep the text"
    more = " of each page in reading order for the later indexing steps."
    page.insert_htmlbox(
        pymupdf.Rect(72, 90, 400, 200), f'<p style="font-size:10pt">{words}{more}</p>'
    )
    note = "<sup>7</sup>The reader is available from its project page online."
    page.insert_htmlbox(pymupdf.Rect(72, 770, 400, 800), f'<p style="font-size:8pt">{note}</p>')
    path = tmp_path / "note.pdf"
    pdf.save(path)
    doc = read_pdf(path)
    para = next(b for b in doc.blocks if "version" in b.text)
    assert "version 2.4.1 and" in para.text and "2.4.17" not in para.text
    assert para.data is not None and para.data["marks"] == ["7"]
    note = doc.blocks[para.data["footnotes"]["7"]]  # type: ignore[index]
    assert note.text.startswith("7 The reader is available")
    assert note.data is not None and note.data["cited_by"] == {"7": [para.ordinal]}


# --- the real papers -------------------------------------------------------------------


@cache
def _parsed(name: str) -> Document:
    return read_pdf(CORPUS / name)


def raised_marks(path: Path) -> list[tuple[int, str, str]]:
    """(page, word before, mark) for every small raised number after a word, from the spans."""
    out = []
    with pymupdf.open(path) as pdf:
        for number, page in enumerate(pdf, start=1):
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    spans = line["spans"]
                    size = max(s["size"] for s in spans)
                    base = next(s["origin"][1] for s in spans if s["size"] == size)
                    before = ""
                    for s in spans:
                        lifted = base - s["origin"][1] > 0.2 * size and s["size"] < 0.85 * size
                        word = before.split()[-1] if before.split() else ""
                        math = re.search(r"(^|\W)[^\W\d_]$", word)  # x², |N₁: not a note
                        digits = re.fullmatch(r"\d+", s["text"].strip())
                        if lifted and digits and re.search(r"\w", word) and not math:
                            out.append((number, word, s["text"].strip()))
                        before += "" if lifted else s["text"]
    return out


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
@pytest.mark.parametrize("name", PAPERS)
def test_no_footnote_mark_is_glued_into_the_quoted_text(name: str) -> None:
    marks = raised_marks(CORPUS / name)
    assert len(marks) >= 10, marks  # the papers carry many numbered notes
    doc = _parsed(name)
    text = "\n".join(b.text for b in doc.blocks)
    squashed = re.sub(r"\s+", "", text)
    glued = [(p, w, m) for p, w, m in marks if re.sub(r"\s+", "", w) + m in squashed]
    assert glued == [], glued
    for page, word, mark in marks:
        holders = [
            b for b in doc.blocks if b.page == page and mark in (b.data or {}).get("marks", [])
        ]
        assert holders, (page, word, mark)
        linked = [b for b in holders if mark in (b.data or {}).get("footnotes", {})]
        assert linked, (page, word, mark)  # the mark points at its note
        note = doc.blocks[linked[0].data["footnotes"][mark]]  # type: ignore[index]
        assert note.text.startswith(mark + " ") or f" {mark} " in note.text


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
def test_version_numbers_read_as_printed() -> None:
    text = " ".join(b.text for b in _parsed("2020.acl-main.447.pdf").blocks)
    assert "GROBID v0.5.5 " in text and "v0.5.510" not in text
    assert "SCIENCEPARSE v3.0.0 " in text and "v3.0.09" not in text
