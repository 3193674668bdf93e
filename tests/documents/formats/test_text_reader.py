"""Plain text and Markdown readers, and the suffix dispatcher."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from citewise.documents import read_document
from citewise.documents.formats.text import read_text
from citewise.errors import BadDocumentError

MARKDOWN = """# Granite notes

Quarries lose money when mixed granite
reaches the crusher.

## Method

The probe taps each block forty times.

- first item
- second item

```python
print("echo")

print("twice")
```

### Training

Training used 1,284 labelled blocks.

## Results

| Model | Accuracy |
|-------|----------|
| Probes | 93.4 |
"""


def test_markdown_headings_drive_section_paths(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text(MARKDOWN)
    doc = read_document(path)
    assert (doc.kind, doc.pages, doc.title) == ("markdown", 1, "Granite notes")
    assert doc.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    summary = [(b.kind, b.text, b.section_path) for b in doc.blocks]
    assert summary == [
        ("heading", "Granite notes", "Granite notes"),
        (
            "paragraph",
            "Quarries lose money when mixed granite reaches the crusher.",
            "Granite notes",
        ),
        ("heading", "Method", "Granite notes > Method"),
        ("paragraph", "The probe taps each block forty times.", "Granite notes > Method"),
        ("list", "- first item - second item", "Granite notes > Method"),
        ("code", 'print("echo")\n\nprint("twice")', "Granite notes > Method"),
        ("heading", "Training", "Granite notes > Method > Training"),
        ("paragraph", "Training used 1,284 labelled blocks.", "Granite notes > Method > Training"),
        ("heading", "Results", "Granite notes > Results"),
        ("table", "| Model | Accuracy |\n| Probes | 93.4 |", "Granite notes > Results"),
    ]
    assert [b.ordinal for b in doc.blocks] == list(range(len(doc.blocks)))
    assert all(b.page == 1 and b.bbox == (0.0, 0.0, 0.0, 0.0) for b in doc.blocks)


def test_plain_text_splits_paragraphs_on_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Granite notes\n\nFirst paragraph\ncontinues here.\n\n\nSecond one.\n")
    doc = read_document(path)
    assert (doc.kind, doc.title) == ("text", "Granite notes")
    assert [b.text for b in doc.blocks] == [
        "Granite notes",
        "First paragraph continues here.",
        "Second one.",
    ]
    assert {b.kind for b in doc.blocks} == {"paragraph"}


def test_invalid_utf8_is_replaced_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("Caf\xe9 notes".encode("latin-1"))
    assert read_text(path).blocks[0].text == "Caf\ufffd notes"


@pytest.mark.parametrize("content", [b"", b"  \n\n\t\n"])
def test_empty_text_file_is_rejected(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.md"
    path.write_bytes(content)
    with pytest.raises(BadDocumentError, match="empty file"):
        read_document(path)


def test_unsupported_suffix_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "paper.odt"
    path.write_bytes(b"PK\x03\x04")
    with pytest.raises(BadDocumentError, match=r"unsupported file type '\.odt'"):
        read_document(path)


def test_dispatch_ignores_suffix_case(tmp_path: Path) -> None:
    path = tmp_path / "NOTES.MARKDOWN"
    path.write_text("# Title\n\nBody.\n")
    assert read_document(path).kind == "markdown"
