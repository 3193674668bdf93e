"""Running heads of pages read by OCR: the same head read differently page to page, the
page number on either side, found and dropped; body lines at the top of a page kept."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pymupdf
import pytest

from citewise.documents.pdf.layout import Seg
from citewise.documents.pdf.ocr import tesseract_command
from citewise.documents.pdf.ocr_heads import running_heads
from citewise.documents.pdf.reader import read_pdf

needs_tesseract = pytest.mark.skipif(tesseract_command() is None, reason="tesseract not installed")

HEIGHT = 842.0
HEAD_Y = 88.0  # a scan's head sits lower than a tenth of the page (84.2)


def seg(x0: float, y0: float, text: str, font: str = "OCR", size: float = 10.0) -> Seg:
    x1 = x0 + 5.0 * len(text)
    return Seg(x0, y0, x1, y0 + size, text, size, font, False, 0, (x0, y0, x1, y0 + size))


# one head as OCR read it on four pages: spaces and stops vary, the number changes sides
READINGS = [
    ("ROCK -ECHOES.", "165", "right"),
    ("ROCK -ECHOES .", "166", "left"),
    ("ROCK-ECHOES.", "167", "right"),
    ("ROCK-ECHOS .", "168", "left"),  # a letter lost as well
]
BODY = [
    "The quarry face is cut in benches and the loose stone gathers below them.",
    "Granite blocks ring when struck by the probe and the echo is recorded.",
    "Wet blocks dampen the echo after heavy rain at the Bergen quarry site.",
    "Dry storage for one day restores the full accuracy of the probe again.",
]


def _page(n: int, font: str = "OCR") -> list[Seg]:
    head, number, side = READINGS[n]
    at = (300.0, 72.0) if side == "right" else (72.0, 300.0)
    return [
        seg(150, HEAD_Y, head, font),
        seg(at[0] + 150 if side == "right" else at[0], HEAD_Y + 1, number, font),
        seg(72, 120, BODY[n], font),
        seg(72, 134, "and a second line that the page goes on with", font),
    ]


def test_an_ocr_head_read_differently_on_every_page_is_dropped_with_its_number() -> None:
    pages = [_page(n) for n in range(4)]
    assert running_heads(pages, [HEIGHT] * 4) == [{0, 1}] * 4


def test_the_invisible_ocr_layer_of_a_scan_counts_as_ocr() -> None:
    pages = [_page(n, font="GlyphLessFont") for n in range(4)]
    assert running_heads(pages, [HEIGHT] * 4) == [{0, 1}] * 4


def test_pages_with_a_text_layer_are_left_to_the_exact_rule() -> None:
    pages = [_page(n, font="Helvetica") for n in range(4)]
    assert running_heads(pages, [HEIGHT] * 4) == [set()] * 4


def test_a_page_number_alone_that_runs_on_from_the_next_page_is_a_head() -> None:
    # two pages only, each head read unlike the other: the running numbers decide
    pages = [
        [seg(72, HEAD_Y, "SOME HEAD"), seg(400, HEAD_Y, "21"), seg(72, 120, BODY[0])],
        [seg(72, HEAD_Y, "22"), seg(200, HEAD_Y, "OTHER WORDS"), seg(72, 120, BODY[1])],
    ]
    assert running_heads(pages, [HEIGHT] * 2) == [{0, 1}, {0, 1}]


def test_top_lines_of_body_text_are_kept() -> None:
    # each page starts with a line of its own; a list item's number is not a page number,
    # and a number that does not run on from the next page's is none either
    pages = [
        [seg(72, HEAD_Y, "12. The probe taps each block forty times"), seg(72, 120, BODY[0])],
        [seg(72, HEAD_Y, "13. The echo is recorded with a microphone"), seg(72, 120, BODY[1])],
        [seg(72, HEAD_Y, "Results on the wet blocks"), seg(400, HEAD_Y, "7"), seg(72, 120, "x")],
        [seg(72, HEAD_Y, "Dry storage helps the probe"), seg(400, HEAD_Y, "40")],
    ]
    assert running_heads(pages, [HEIGHT] * 4) == [set()] * 4


def test_a_line_repeated_in_the_middle_of_pages_is_not_a_head() -> None:
    line = "ROCK-ECHOES OF THE QUARRY"
    pages = [[seg(72, 120, BODY[n]), seg(72, 400, line), seg(72, 420, BODY[n])] for n in range(4)]
    assert running_heads(pages, [HEIGHT] * 4) == [set()] * 4


# --- end to end: a scan read by tesseract ------------------------------------------------

Line = tuple[float, float, float, str]  # x, baseline y, size, text as printed
TITLE = [
    (80.0, 150.0, 14.0, "ON THE ROCK-ECHOES OF THE BERGEN QUARRY AND"),
    (150.0, 172.0, 16.0, "SOME LOUD TAPS AT NIGHT."),  # set larger than the line above
]
TEXT = [
    "The quarry face is cut in benches, and the loose stone gathers below the",
    "lowest bench. Granite blocks ring when they are struck by the probe, and",
    "the echo tells a sound block from a cracked one. Wet blocks dampen the",
    "echo after heavy rain, so the probe is used on dry days only. Dry storage",
    "for a single day restores the full accuracy of the probe on every block.",
]
# the head as printed on three pages (a scan's head sits below a tenth of the page), the
# page number on the outer side; OCR reads each a little differently
HEADS = [
    [(250.0, 95.0, 9.0, "ROCK-ECHOES."), (500.0, 95.0, 9.0, "11")],
    [(72.0, 95.0, 9.0, "12"), (250.0, 95.0, 9.0, "ROCK -ECHOES .")],
    [(250.0, 95.0, 9.0, "ROCK - ECHOES."), (500.0, 95.0, 9.0, "13")],
]


def _body(top: float) -> list[Line]:
    return [(72.0, top + 16 * k, 11.0, line) for k, line in enumerate(TEXT)]


def write_scan(path: Path, pages: list[list[Line]], layer: bool = False) -> Path:
    """Pages that are pictures of the lines given; with `layer`, each under the invisible
    text tesseract's PDF renderer lays over a scan (as OCRmyPDF does), else bare."""
    doc = pymupdf.open()
    for lines in pages:
        printed = pymupdf.open()
        page = printed.new_page(width=595, height=842)
        for x, y, size, text in lines:
            page.insert_text((x, y), text, fontsize=size, fontname="tiro")
        picture = page.get_pixmap(dpi=150)
        if layer:
            command = [str(tesseract_command()), "stdin", "stdout", "--dpi", "150", "pdf"]
            made = subprocess.run(command, input=picture.tobytes("png"), capture_output=True)
            doc.insert_pdf(pymupdf.open("pdf", made.stdout))
        else:
            scan = doc.new_page(width=595, height=842)
            scan.insert_image(scan.rect, pixmap=picture)
    doc.save(path)
    return path


def _paper() -> list[list[Line]]:
    first = HEADS[0] + TITLE + [(200.0, 205.0, 11.0, "By A. QUARRY")] + _body(240.0)
    return [first, HEADS[1] + _body(130.0), HEADS[2] + _body(130.0)]


def _heads_gone_body_whole(texts: list[str]) -> None:
    assert not any("ECHOES" in t and len(t) < 20 for t in texts), texts
    assert not any(t.strip(" .") in ("11", "12", "13") for t in texts), texts
    words = " ".join(texts).split()
    assert words.count("quarry") == 3 and words.count("restores") == 3  # the body is whole


@needs_tesseract
def test_heads_of_a_scan_read_by_ocr_are_dropped(tmp_path: Path) -> None:
    doc = read_pdf(write_scan(tmp_path / "scan.pdf", _paper()))
    assert doc.flagged_pages == {}
    assert all(b.data and b.data["ocr"] == "OCR (no text layer)" for b in doc.blocks)
    _heads_gone_body_whole([b.text for b in doc.blocks])


@needs_tesseract
def test_heads_of_a_scans_ocr_layer_are_dropped_and_its_title_runs_over_two_lines(
    tmp_path: Path,
) -> None:
    doc = read_pdf(write_scan(tmp_path / "scan.pdf", _paper(), layer=True))
    assert doc.flagged_pages == {} and not any(b.data for b in doc.blocks)  # no OCR of ours
    _heads_gone_body_whole([b.text for b in doc.blocks])
    # each OCR line is a block of its own: the title line runs on into the next one
    assert doc.title == "ON THE ROCK-ECHOES OF THE BERGEN QUARRY AND SOME LOUD TAPS AT NIGHT."
