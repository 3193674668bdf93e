"""Stacked scripts read in TeX's order: base, subscript, superscript (ζ_n^{ψ(g)}).

The PDF is written with PyMuPDF: the superscript on the base's line (as TeX sets it,
PyMuPDF returns it in the base's line), the subscript lower and on a line of its own.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.documents.pdf.reader import read_pdf

LEAD = "Each term of the sum below is a root of unity raised to a power."
TAIL = "The terms are summed in the order of the group elements."


def _write(path: Path, sub_x: float) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), LEAD, fontsize=12)
    font = pymupdf.Font("helv")
    writer = pymupdf.TextWriter(page.rect)
    writer.append((72, 100), "The sum is", font=font, fontsize=12)
    writer.append((140, 100), "ζ", font=font, fontsize=12)
    writer.append((147, 95), "ψ(g)", font=font, fontsize=8)
    writer.append((175, 100), "over all pairs of the group.", font=font, fontsize=12)
    writer.write_text(page)
    page.insert_text((sub_x, 103), "n", fontsize=8)  # the subscript, a line of its own
    page.insert_text((72, 120), TAIL, fontsize=12)
    doc.save(path)
    doc.close()
    return path


def _text(path: Path) -> str:
    return " ".join(b.text for b in read_pdf(path, ocr=False).blocks)


def test_stacked_subscript_comes_before_the_superscript(tmp_path: Path) -> None:
    text = _text(_write(tmp_path / "s.pdf", sub_x=147))
    assert "ζnψ(g)" in text.replace(" ", "")
    assert "over all pairs" in text and " n " not in text


def test_a_small_line_not_under_the_superscript_is_left_alone(tmp_path: Path) -> None:
    text = _text(_write(tmp_path / "s.pdf", sub_x=300))  # far from the superscript's start
    assert "ζnψ(g)" not in text.replace(" ", "")
    assert "ψ(g)" in text
