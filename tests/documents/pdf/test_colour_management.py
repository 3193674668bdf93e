"""Parse workers read text with MuPDF's colour management off (documents/pdf/ocr.py
`without_colour_management`): text comes out as with it on, and a page rendered for OCR
is rendered with it on, pixel for pixel as anywhere else. Each reading runs in a fresh
process: colour management is a setting of the whole process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pymupdf

# prints: the OCR rendering's pixels (hashed), a rendering outside it, the page's text
READ = """
import hashlib, sys, pymupdf
from citewise.documents.pdf import ocr
def gray(page):
    return hashlib.sha256(page.get_pixmap(dpi=72, colorspace=pymupdf.csGRAY).samples).hexdigest()
if sys.argv[2] == "off":
    ocr.without_colour_management()
with pymupdf.open(sys.argv[1]) as doc:
    with ocr._colour_management():
        print(gray(doc[0]))
    print(gray(doc[0]))
    print(doc[0].get_text("text").strip())
"""


def _read(path: Path, colour: str) -> list[str]:
    command = [sys.executable, "-c", READ, str(path), colour]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)
    return done.stdout.splitlines()


def test_a_worker_reads_text_and_renders_for_ocr_as_with_colour_management(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cmyk.pdf"
    with pymupdf.open() as doc:  # CMYK text and a CMYK fill (a picture's colours)
        page = doc.new_page(width=300, height=200)
        page.draw_rect(pymupdf.Rect(20, 20, 280, 90), color=None, fill=(0.7, 0.1, 0.4, 0.2))
        page.insert_text((30, 140), "Cyan body text in process colour", color=(1, 0, 0, 0))
        doc.save(path)
    managed, worker = _read(path, "on"), _read(path, "off")
    assert worker[0] == managed[0]  # the rendering for OCR: the same pixels
    assert worker[2:] == managed[2:] == ["Cyan body text in process colour"]
    # outside the OCR rendering the worker's setting is real: the fill's grey differs
    assert worker[1] != managed[1]
    assert managed[1] == managed[0]
