"""PDFs the document tests write themselves, so every expectation is exact.

Text is placed line by line with `insert_text`, so line breaks (and the hyphenated
words that cross them) are where the test says they are.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.conftest import SHARED

CORPUS = SHARED / "corpus"
DEV_QA = CORPUS.parent / "qa" / "dev.yaml"

TITLE = "Sorting Granite with Acoustic Probes"
HEADER = "Journal of Rock Acoustics 12 (2024)"
LEFT, RIGHT, GUTTER = 72.0, 523.0, 297.5
BODY = 10.0
LEAD = 12.5

ABSTRACT = [
    "Quarries lose money when mixed granite reaches the crusher, and manual inspection is slow.",
    "We describe acoustic probes that classify each block before it is cut and report results.",
    "The probes reach an accuracy of 93.4% on held-out blocks while adding no cutting delay.",
]
INTRO = [
    "Granite blocks differ in grain and in hidden cracks",
    "that only show once a saw has cut through them. Our",
    "implemen-",
    "tation taps each block and listens to the echo with",
    "a contact microphone placed on the upper surface.",
    "The resulting classifier is state-of-the-",
    "art for this task and needs no training on site.",
]
METHOD = [
    "The probe taps each block forty times and records",
    "the echo spectrum with a sampling rate of 48 kHz.",
    "A gradient boosted classifier labels the block from",
    "the spectrum and a short list of derived features.",
]
TRAINING = [
    "Training used 1,284 labelled blocks collected at the",
    "Bergen quarry over six months by two field teams.",
    "Labels came from cutting every block after it was",
    "probed and photographing the fresh surfaces.",
]
RESULTS = [
    "Table 1 compares the probes with a visual baseline",
    "that relies on the surface colour of every block.",
    "The probes are better on every block type we tried",
    "and the gain is largest for blocks with hidden cracks.",
    "Wet blocks remain the hardest case for both methods.",
]
LIMITS = [
    "Wet blocks dampen the echo, so accuracy drops to",
    "78.0% after heavy rain at the Bergen quarry site.",
    "Dry storage for one day restores the full accuracy",
    "but slows the flow of blocks through the quarry.",
    "A heated probe head is the obvious next step here.",
]
CONCLUSION = [
    "Acoustic probes sort granite blocks quickly and well,",
    "and they pay for themselves within a single season.",
]
REFERENCES = [
    ("Stone, B. and Quarry, A. 2021. Echoes in hard rock.", "Journal of Rock Acoustics 9:1-12."),
    ("Miller, C. 2019. Saw blades and hidden cracks.", "Quarry Engineering 4:33-41."),
    ("Olsen, D. 2022. Spectral features for stone.", "Proceedings of StoneConf, 88-95."),
]
TABLE_ROWS = [("Model", "Accuracy", "F1"), ("Baseline", "81.2", "79.5"), ("Probes", "93.4", "92.1")]


def write_lines(
    page: pymupdf.Page,
    x: float,
    y: float,
    lines: list[str],
    size: float = BODY,
    font: str = "helv",
    lead: float = LEAD,
) -> float:
    """Write lines top-down from baseline y; return the baseline after the last line."""
    for line in lines:
        page.insert_text((x, y), line, fontsize=size, fontname=font)
        y += lead
    return y


def _furniture(page: pymupdf.Page, number: int) -> None:
    """Running header and page number, as journals print them."""
    page.insert_text((LEFT, 40), HEADER, fontsize=8, fontname="helv")
    page.insert_text((GUTTER - 3, 810), str(number), fontsize=9, fontname="helv")


def write_paper(path: Path) -> Path:
    """Three pages: title block, two columns, headings, table, footnote, references."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    _furniture(page, 1)
    page.insert_text((LEFT + 60, 80), TITLE, fontsize=20, fontname="hebo")
    page.insert_text((LEFT + 60, 104), "Ada Quarry and Ben Stone", fontsize=11, fontname="helv")
    page.insert_text((LEFT + 60, 118), "Bergen Institute of Geology", fontsize=9, fontname="helv")
    page.insert_text(
        (LEFT + 60, 130),
        "doi:10.5555/cw.2024.001   © 2024 The Authors",
        fontsize=9,
        fontname="helv",
    )
    page.insert_text((LEFT, 160), "Abstract", fontsize=12, fontname="hebo")
    write_lines(page, LEFT, 178, ABSTRACT)
    page.insert_text((LEFT, 240), "1 Introduction", fontsize=12, fontname="hebo")
    write_lines(page, LEFT, 258, INTRO)
    page.insert_text(
        (LEFT, 760),
        "1 Code is available at https://example.org/granite.",
        fontsize=7,
        fontname="helv",
    )
    x = GUTTER + 8
    page.insert_text((x, 240), "2 Method", fontsize=12, fontname="hebo")
    y = write_lines(page, x, 258, METHOD)
    page.insert_text((x, y + 8), "2.1 Training", fontsize=11, fontname="hebo")
    write_lines(page, x, y + 26, TRAINING)

    page = doc.new_page(width=595, height=842)
    _furniture(page, 2)
    page.insert_text((LEFT, 80), "3 Results", fontsize=12, fontname="hebo")
    y = write_lines(page, LEFT, 98, RESULTS)
    page.insert_text(
        (LEFT, y + 14), "Table 1: Accuracy on the held-out test set.", fontsize=9, fontname="helv"
    )
    y += 34
    for row in TABLE_ROWS:
        for cx, cell in zip((LEFT, LEFT + 100, LEFT + 160), row, strict=True):
            page.insert_text((cx, y), cell, fontsize=9, fontname="helv")
        y += 12
    page.insert_text((GUTTER + 8, 80), "4 Limitations", fontsize=12, fontname="hebo")
    write_lines(page, GUTTER + 8, 98, LIMITS)

    page = doc.new_page(width=595, height=842)
    _furniture(page, 3)
    page.insert_text((LEFT, 80), "5 Conclusion", fontsize=12, fontname="hebo")
    y = write_lines(page, LEFT, 98, CONCLUSION)
    page.insert_text((LEFT, y + 14), "References", fontsize=12, fontname="hebo")
    y += 32
    for first, second in REFERENCES:
        page.insert_text((LEFT, y), first, fontsize=9, fontname="helv")
        page.insert_text((LEFT + 10, y + 11), second, fontsize=9, fontname="helv")
        y += 28
    doc.set_metadata({"title": TITLE, "creationDate": "D:20240301000000Z"})
    doc.save(path)
    doc.close()
    return path


def caesar(text: str, shift: int = -1) -> str:
    """The broken-font effect: every letter moved by one ('of the' -> 'ne sgd')."""
    out = []
    for ch in text:
        if ch.isalpha() and ch.isascii():
            base = ord("a") if ch.islower() else ord("A")
            out.append(chr(base + (ord(ch) - base + shift) % 26))
        else:
            out.append(ch)
    return "".join(out)


def write_garbled(path: Path) -> Path:
    """Page 1 readable, page 2 with a cipher-like text layer."""
    doc = pymupdf.open()
    lines = ABSTRACT + INTRO + METHOD + TRAINING
    write_lines(doc.new_page(width=595, height=842), LEFT, 80, lines)
    write_lines(doc.new_page(width=595, height=842), LEFT, 80, [caesar(t) for t in lines])
    doc.save(path)
    doc.close()
    return path


def write_turned_table(path: Path) -> Path:
    """A landscape table set on a portrait page: text runs bottom to top."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    rows = [
        ("Sample", "Mass", "Echo"),
        ("Granite A", "12.5", "0.81"),
        ("Granite B", "13.1", "0.77"),
    ]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            page.insert_text((100 + 14 * i, 700 - 120 * j), cell, fontsize=10, rotate=90)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def granite_pdf(tmp_path: Path) -> Path:
    return write_paper(tmp_path / "granite.pdf")


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("shared corpus not available")
    return CORPUS
