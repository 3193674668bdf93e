"""read_pdf on PDFs the tests write: exact expectations for layout, structure and errors."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pymupdf
import pytest

from citewise.documents import read_document
from citewise.documents.model import Block, Document
from citewise.documents.pdf.reader import read_pdf
from citewise.errors import BadDocumentError
from tests.documents.conftest import (
    HEADER,
    LEFT,
    REFERENCES,
    TITLE,
    write_garbled,
    write_lines,
    write_turned_table,
)


@pytest.fixture
def doc(granite_pdf: Path) -> Document:
    return read_pdf(granite_pdf)


def find(doc: Document, needle: str) -> Block:
    hits = [b for b in doc.blocks if needle in b.text]
    assert len(hits) == 1, f"{needle!r} found in {len(hits)} blocks"
    return hits[0]


def test_document_carries_hash_page_count_and_consecutive_ordinals(granite_pdf: Path) -> None:
    doc = read_pdf(granite_pdf)
    assert doc.kind == "pdf"
    assert doc.pages == 3
    assert doc.sha256 == hashlib.sha256(granite_pdf.read_bytes()).hexdigest()
    assert [b.ordinal for b in doc.blocks] == list(range(len(doc.blocks)))
    assert [b.page for b in doc.blocks] == sorted(b.page for b in doc.blocks)
    for b in doc.blocks:
        x0, y0, x1, y1 = b.bbox
        assert 0 <= x0 < x1 <= 595 and 0 <= y0 < y1 <= 842
        assert b.text == b.text.strip() and b.trusted


def test_left_column_is_read_before_right_column(doc: Document) -> None:
    intro = find(doc, "Granite blocks differ in grain")
    method = find(doc, "The probe taps each block forty times")
    training = find(doc, "Training used 1,284 labelled blocks")
    assert intro.ordinal < method.ordinal < training.ordinal
    # the abstract spans both columns and comes first
    assert find(doc, "Quarries lose money").ordinal < intro.ordinal
    assert intro.bbox[2] < 320 and method.bbox[0] > 300


def test_paragraph_lines_are_joined_into_one_block(doc: Document) -> None:
    block = find(doc, "The probe taps each block forty times")
    assert block.kind == "paragraph"
    assert block.text == (
        "The probe taps each block forty times and records the echo spectrum with a sampling "
        "rate of 48 kHz. A gradient boosted classifier labels the block from the spectrum and "
        "a short list of derived features."
    )
    assert block.font_size == 10.0 and not block.bold and block.font_name


def test_headings_from_bold_numbered_lines_build_section_paths(doc: Document) -> None:
    headings = [(b.text, b.section_path) for b in doc.blocks if b.kind == "heading"]
    assert headings == [
        ("Abstract", "Abstract"),
        ("1 Introduction", "1 Introduction"),
        ("2 Method", "2 Method"),
        ("2.1 Training", "2 Method > 2.1 Training"),
        ("3 Results", "3 Results"),
        ("4 Limitations", "4 Limitations"),
        ("5 Conclusion", "5 Conclusion"),
        ("References", "References"),
    ]
    assert find(doc, "Training used").section_path == "2 Method > 2.1 Training"
    assert find(doc, "Wet blocks dampen").section_path == "4 Limitations"
    assert all(b.bold for b in doc.blocks if b.kind == "heading")


def test_running_header_and_page_numbers_are_removed(doc: Document) -> None:
    assert not [b for b in doc.blocks if "Rock Acoustics 12" in b.text]
    assert not [b for b in doc.blocks if b.text.strip() in {"1", "2", "3"}]
    # the same words inside a reference entry are content, not a header
    assert HEADER not in " ".join(b.text for b in doc.blocks)
    assert find(doc, "Echoes in hard rock").kind == "reference"


def test_hyphenation_at_line_ends_is_repaired_and_real_hyphens_kept(doc: Document) -> None:
    text = find(doc, "Granite blocks differ").text
    assert "Our implementation taps each block" in text
    assert "implemen-" not in text
    assert "is state-of-the-art for this task" in text


def test_table_rows_stay_lines_and_take_the_caption_label(doc: Document) -> None:
    caption = find(doc, "Table 1: Accuracy on the held-out test set.")
    assert (caption.kind, caption.label) == ("caption", "Table 1")
    table = find(doc, "Baseline 81.2 79.5")
    assert table.kind == "table"
    assert table.label == "Table 1"
    assert table.text == "Model Accuracy F1\nBaseline 81.2 79.5\nProbes 93.4 92.1"
    assert table.data is not None
    assert table.data["rows"] == [
        ["Model", "Accuracy", "F1"],
        ["Baseline", "81.2", "79.5"],
        ["Probes", "93.4", "92.1"],
    ]
    assert table.data["caption"] == "Table 1: Accuracy on the held-out test set."
    assert (table.data["n_rows"], table.data["n_cols"], table.data["header_rows"]) == (3, 3, 1)
    assert table.data["row_labels"] == ["Baseline", "Probes"]
    assert table.section_path == "3 Results"
    # the prose that mentions Table 1 is not a caption
    assert find(doc, "Table 1 compares the probes").kind == "paragraph"


def test_small_print_at_page_bottom_is_a_footnote(doc: Document) -> None:
    note = find(doc, "Code is available at https://example.org/granite.")
    assert note.kind == "footnote"
    assert note.font_size == 7.0


def test_references_are_one_block_per_entry(doc: Document) -> None:
    refs = [b for b in doc.blocks if b.kind == "reference"]
    assert [r.text for r in refs] == [f"{a} {b}" for a, b in REFERENCES]
    assert all(r.section_path == "References" for r in refs)


def test_first_page_metadata(doc: Document) -> None:
    assert doc.title == TITLE
    assert doc.authors == ["Ada Quarry", "Ben Stone"]
    assert doc.doi == "10.5555/cw.2024.001"
    assert doc.year == 2024
    assert doc.abstract.startswith("Quarries lose money when mixed granite reaches the crusher")
    assert doc.abstract.endswith("while adding no cutting delay.")
    # the title names the paper; it is not a section
    title = find(doc, TITLE)
    assert (title.kind, title.section_path, title.bold) == ("paragraph", "", True)
    assert doc.sections[0] == ("Abstract", 1)


def test_equation_number_becomes_the_label(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    page = pdf.new_page(width=595, height=842)
    y = write_lines(page, LEFT, 80, ["The energy of a block follows from its mass:"])
    page.insert_text((200, y + 6), "E = m c^2", fontsize=10, fontname="helv")
    page.insert_text((500, y + 6), "(3)", fontsize=10, fontname="helv")
    write_lines(page, LEFT, y + 30, ["where c is the speed of sound in granite."])
    pdf.save(tmp_path / "eq.pdf")
    eq = find(read_pdf(tmp_path / "eq.pdf"), "E = m c^2")
    assert (eq.kind, eq.label) == ("equation", "Eq. (3)")


def test_garbled_text_layer_is_flagged_and_untrusted(tmp_path: Path) -> None:
    doc = read_pdf(write_garbled(tmp_path / "garbled.pdf"))
    assert doc.flagged_pages == {2: "garbled text layer"}
    assert {b.page for b in doc.blocks if not b.trusted} == {2}
    assert all(b.trusted for b in doc.blocks if b.page == 1)


def test_page_with_only_an_image_is_flagged_for_ocr(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    write_lines(pdf.new_page(width=595, height=842), LEFT, 80, ["A page with real text."])
    scan = pdf.new_page(width=595, height=842)
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(200)
    scan.insert_image(pymupdf.Rect(72, 72, 472, 472), pixmap=pix)
    pdf.save(tmp_path / "scan.pdf")
    doc = read_pdf(tmp_path / "scan.pdf")
    assert doc.flagged_pages == {2: "no text layer"}
    assert [b.page for b in doc.blocks] == [1]


def test_turned_landscape_table_reads_rows_left_to_right(tmp_path: Path) -> None:
    doc = read_pdf(write_turned_table(tmp_path / "turned.pdf"))
    (table,) = doc.blocks
    assert table.kind == "table"
    assert table.text == "Sample Mass Echo\nGranite A 12.5 0.81\nGranite B 13.1 0.77"
    # the box stays in real page coordinates: a tall, narrow strip
    x0, y0, x1, y1 = table.bbox
    assert y1 - y0 > 200 and x1 - x0 < 60


# --- bad input --------------------------------------------------------------------------


def _reason(path: Path) -> str:
    with pytest.raises(BadDocumentError) as info:
        read_document(path)
    assert info.value.code == "BAD_DOCUMENT" and info.value.hint
    # the caller (ingest) names the file; the message says what is wrong with it
    return info.value.message


def test_zero_byte_file_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert "empty file (0 bytes)" in _reason(path)


def test_text_file_named_pdf_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("These are my notes, not a PDF.\n")
    assert "not a PDF (looks like plain text)" in _reason(path)


def test_truncated_pdf_is_rejected(
    granite_pdf: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    data = granite_pdf.read_bytes()
    path = tmp_path / "half.pdf"
    path.write_bytes(data[: len(data) // 2])
    assert _reason(path) == "corrupt or truncated PDF: file is cut short"
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # MuPDF's own complaints stay quiet


def test_pdf_missing_only_its_trailer_is_repaired(granite_pdf: Path, tmp_path: Path) -> None:
    data = granite_pdf.read_bytes()
    path = tmp_path / "no-trailer.pdf"
    path.write_bytes(data[: data.rindex(b"startxref")])
    assert read_pdf(path).blocks == read_pdf(granite_pdf).blocks


def test_garbage_bytes_with_pdf_header_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 4)
    assert "corrupt or truncated PDF" in _reason(path)


def test_encrypted_pdf_is_rejected(granite_pdf: Path, tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    pdf = pymupdf.open(granite_pdf)
    pdf.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="x", owner_pw="y")
    assert "encrypted PDF (password required)" in _reason(path)


def test_pdf_with_owner_password_only_is_read(granite_pdf: Path, tmp_path: Path) -> None:
    path = tmp_path / "restricted.pdf"
    pymupdf.open(granite_pdf).save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="y")
    assert read_pdf(path).title == TITLE


def test_pdf_without_pages_is_rejected(tmp_path: Path) -> None:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, obj)
    xref = len(out)
    out += b"xref\n0 3\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    path = tmp_path / "blank.pdf"
    path.write_bytes(bytes(out))
    assert "PDF has no pages" in _reason(path)


def test_missing_file_is_rejected(tmp_path: Path) -> None:
    assert "cannot read" in _reason(tmp_path / "gone.pdf")
