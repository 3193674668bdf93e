"""OCR fallback: pages without a usable text layer are read by tesseract, word boxes kept."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citewise.documents.pdf.ocr import OcrWord, parse_tsv, tesseract_command, words_to_dict
from citewise.documents.pdf.reader import read_pdf
from tests.documents.conftest import LEFT, caesar, write_lines

needs_tesseract = pytest.mark.skipif(tesseract_command() is None, reason="tesseract not installed")

SCANNED = [
    "Granite blocks ring when struck by the probe.",
    "Wet blocks dampen the echo after heavy rain.",
]


def _scan(path: Path, hidden_text: list[str] | None = None) -> Path:
    """A page that is only a picture of text (a scan), optionally under a text layer."""
    printed = pymupdf.open()
    page = printed.new_page(width=595, height=842)
    write_lines(page, LEFT, 120, SCANNED, size=14, lead=24)
    picture = page.get_pixmap(dpi=150)
    doc = pymupdf.open()
    scan = doc.new_page(width=595, height=842)
    scan.insert_image(scan.rect, pixmap=picture)
    if hidden_text:
        # an invisible text layer, as scanners with bad OCR or broken fonts leave behind
        for i, line in enumerate(hidden_text):
            scan.insert_text((LEFT, 120 + 24 * i), line, fontsize=14, render_mode=3)
    doc.save(path)
    return path


@needs_tesseract
def test_scanned_page_is_read_by_ocr_with_word_boxes(tmp_path: Path) -> None:
    doc = read_pdf(_scan(tmp_path / "scan.pdf"))
    assert doc.flagged_pages == {}
    assert doc.warnings == []
    text = " ".join(b.text for b in doc.blocks)
    assert SCANNED[0] in text and SCANNED[1] in text
    (block,) = [b for b in doc.blocks if SCANNED[0] in b.text]
    assert block.trusted
    assert block.data == {"ocr": "OCR (no text layer)"}
    # the box is where the words were printed: first baseline at y=120, 14 pt type
    x0, y0, x1, y1 = block.bbox
    assert abs(x0 - LEFT) < 4 and 100 < y0 < 112 and 140 < y1 < 152 and x1 > 300


@needs_tesseract
def test_garbled_text_layer_is_replaced_by_ocr(tmp_path: Path) -> None:
    lines = SCANNED * 12  # enough words for the garbage test to judge
    doc = read_pdf(_scan(tmp_path / "garbled.pdf", hidden_text=[caesar(t) for t in lines]))
    assert doc.flagged_pages == {}
    text = " ".join(b.text for b in doc.blocks)
    assert SCANNED[0] in text
    assert "Hqzmhsd" not in text  # the cipher text is gone
    assert all(b.data and b.data["ocr"] == "OCR (garbled text layer)" for b in doc.blocks)


def test_without_tesseract_pages_stay_excluded_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITEWISE_TESSERACT", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no tesseract on this PATH
    lines = SCANNED * 12
    doc = read_pdf(_scan(tmp_path / "garbled.pdf", hidden_text=[caesar(t) for t in lines]))
    assert doc.flagged_pages == {1: "garbled text layer"}
    assert doc.blocks and not any(b.trusted for b in doc.blocks)
    (warning,) = doc.warnings
    assert warning.startswith("OCR unavailable: page(s) 1 have no usable text layer")
    assert "install tesseract" in warning


def test_ocr_can_be_skipped(tmp_path: Path) -> None:
    doc = read_pdf(_scan(tmp_path / "scan.pdf"), ocr=False)
    assert doc.flagged_pages == {1: "no text layer"}
    assert doc.blocks == []


TSV = (
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
    "1\t1\t0\t0\t0\t0\t0\t0\t1240\t1754\t-1\t\n"
    "5\t1\t1\t1\t1\t1\t200\t300\t100\t30\t96.5\tLeft\n"
    "5\t1\t1\t1\t1\t2\t310\t300\t120\t30\t95.1\tcolumn\n"
    "5\t1\t1\t1\t1\t3\t700\t300\t100\t30\t93.0\tRight\n"
    "5\t1\t1\t1\t1\t4\t820\t305\t8\t8\t12.0\t.\n"
)


def test_tsv_words_become_lines_cut_at_the_gutter() -> None:
    words = parse_tsv(TSV, 72 / 200)
    assert [w.text for w in words] == ["Left", "column", "Right"]  # the low-confidence speck goes
    assert words[0].x0 == pytest.approx(72.0) and words[0].y1 == pytest.approx(118.8)
    page = words_to_dict(words)
    lines = [line["spans"][0]["text"] for block in page["blocks"] for line in block["lines"]]
    assert lines == ["Left column", "Right"]
    assert len(page["blocks"]) == 2  # the far piece is another column
    assert page["blocks"][0]["lines"][0]["spans"][0]["size"] == 11.5


def test_an_indented_line_after_a_finished_sentence_starts_a_paragraph() -> None:
    def word(x0: float, y0: float, text: str, line: int) -> OcrWord:
        return OcrWord(x0, y0, x0 + 6 * len(text), y0 + 9.5, text, (1, 1, line), 95.0)

    words = [
        word(72, 100, "Granite", 1), word(120, 100, "rings.", 1),
        word(84, 113, "Marble", 2), word(130, 113, "hums", 2),
        word(72, 126, "softly", 3),
    ]  # fmt: skip
    page = words_to_dict(words)
    texts = [[line["spans"][0]["text"] for line in b["lines"]] for b in page["blocks"]]
    assert texts == [["Granite rings."], ["Marble hums", "softly"]]
