"""Word files the tests write with python-docx: headings, paragraphs, tables, page proxy."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.api import Library
from citewise.documents import read_document
from citewise.documents.formats.docx import WORDS_PER_PAGE
from citewise.errors import BadDocumentError

docx = pytest.importorskip("docx", reason="the [docx] extra (python-docx) is not installed")

RESULT = "The probe sorted 412 granite blocks with an accuracy of 91.7% in dry weather."


def write_draft(path: Path, page_breaks: bool = True) -> Path:
    document = docx.Document()
    document.core_properties.title = "Acoustic Sorting Draft"
    document.core_properties.author = "Ada Quarry; Ben Stone"
    document.add_heading("Acoustic Sorting Draft", level=0)
    document.add_heading("1 Introduction", level=1)
    document.add_paragraph("Quarries lose money when mixed granite reaches the crusher.")
    document.add_paragraph("Probes tap each block forty times.", style="List Bullet")
    if page_breaks:
        document.add_page_break()
    document.add_heading("2 Results", level=1)
    document.add_heading("2.1 Dry weather", level=2)
    document.add_paragraph(RESULT)
    document.add_paragraph("Table 1: Accuracy by weather.", style="Caption")
    table = document.add_table(rows=3, cols=3)
    for r, row in enumerate([["Weather", "Blocks", "Accuracy"], ["dry", "412", "91.7%"]]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    merged = table.cell(2, 0).merge(table.cell(2, 1))
    merged.text = "wet (after rain)"
    table.cell(2, 2).text = "78.0%"
    document.save(str(path))
    return path


def test_headings_paragraphs_and_tables_in_body_order(tmp_path: Path) -> None:
    doc = read_document(write_draft(tmp_path / "draft.docx"))
    assert doc.kind == "docx" and doc.title == "Acoustic Sorting Draft"
    assert doc.authors == ["Ada Quarry", "Ben Stone"]
    kinds = [(b.kind, b.text[:20]) for b in doc.blocks]
    assert kinds[:4] == [
        ("heading", "Acoustic Sorting Dra"),
        ("heading", "1 Introduction"),
        ("paragraph", "Quarries lose money "),
        ("list", "Probes tap each bloc"),
    ]
    result = next(b for b in doc.blocks if b.text == RESULT)
    assert result.section_path == "2 Results > 2.1 Dry weather"
    caption = next(b for b in doc.blocks if b.kind == "caption")
    table = next(b for b in doc.blocks if b.kind == "table")
    assert caption.label == "Table 1" and table.label == "Table 1"
    assert table.data is not None
    assert table.data["rows"] == [
        ["Weather", "Blocks", "Accuracy"],
        ["dry", "412", "91.7%"],
        ["wet (after rain)", "78.0%"],  # the merged cell counts once
    ]
    assert table.data["header_rows"] == 1
    assert [b.ordinal for b in doc.blocks] == list(range(len(doc.blocks)))


def test_page_breaks_number_the_pages(tmp_path: Path) -> None:
    doc = read_document(write_draft(tmp_path / "draft.docx"))
    pages = {b.text[:14]: b.page for b in doc.blocks}
    assert pages["1 Introduction"] == 1 and pages["2 Results"] == 2
    assert doc.pages == 2


def test_without_page_breaks_pages_are_a_word_count_proxy(tmp_path: Path) -> None:
    document = docx.Document()
    sentence = "Granite blocks ring clearly when they are dry and dull when wet. "
    per_paragraph = len(sentence.split()) * 10
    for _ in range(3 * WORDS_PER_PAGE // per_paragraph + 2):  # the last starts on page 4
        document.add_paragraph(sentence * 10)
    document.save(str(tmp_path / "long.docx"))
    doc = read_document(tmp_path / "long.docx")
    pages = [b.page for b in doc.blocks]
    assert pages[0] == 1 and pages == sorted(pages) and doc.pages == 4 == pages[-1]
    words_before = [i * per_paragraph for i in range(len(pages))]
    assert pages == [1 + w // WORDS_PER_PAGE for w in words_before]


def test_damaged_and_empty_word_files_are_rejected_with_a_reason(tmp_path: Path) -> None:
    fake = tmp_path / "notes.docx"
    fake.write_text("this is plain text, not a Word file")
    with pytest.raises(BadDocumentError) as info:
        read_document(fake)
    assert "not a readable Word .docx file" in info.value.message and info.value.hint
    empty = tmp_path / "blank.docx"
    docx.Document().save(str(empty))
    with pytest.raises(BadDocumentError, match="no text"):
        read_document(empty)


def test_a_word_draft_is_ingested_and_answers_with_a_citation(tmp_path: Path) -> None:
    folder = tmp_path / "drafts"
    folder.mkdir()
    write_draft(folder / "draft.docx")
    with Library(tmp_path / "library", embeddings=False) as lib:
        report = lib.ingest([folder])
        assert not report.failed and report.documents == 1
        answer = lib.ask("What accuracy did the probe reach in dry weather?")
    assert not answer.refused and "91.7%" in answer.answer
    cited = answer.evidence[0]
    assert cited.page == 2 and "2.1 Dry weather" in cited.section
