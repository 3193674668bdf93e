"""Perception: files -> Document. `read_document` picks the reader by file suffix."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.errors import BadDocumentError

if TYPE_CHECKING:
    from citewise.documents.model import Block, Document
    from citewise.documents.options import ParseOptions

# suffix -> (module, reader): imported when a file of that kind is read, so importing
# documents.model (every store and agent module does) never loads PyMuPDF.
_READERS = {
    ".pdf": ("pdf.reader", "read_pdf"),
    ".txt": ("formats.text", "read_text"),
    ".md": ("formats.text", "read_text"),
    ".markdown": ("formats.text", "read_text"),
    ".ipynb": ("formats.notebook", "read_notebook"),
    ".csv": ("formats.tabular", "read_table_file"),
    ".tsv": ("formats.tabular", "read_table_file"),
    ".html": ("formats.html", "read_html"),
    ".htm": ("formats.html", "read_html"),
    ".docx": ("formats.docx", "read_docx"),
}
SUFFIXES = tuple(_READERS)
_LAZY = {
    "Block": "model",
    "Document": "model",
    "read_pdf": "pdf.reader",
    "read_text": "formats.text",
}


def _reader(suffix: str) -> Callable[[Path], Document]:
    module, name = _READERS[suffix]
    reader: Callable[[Path], Document] = getattr(
        importlib.import_module(f"citewise.documents.{module}"), name
    )
    return reader


def __getattr__(name: str) -> Any:
    if name == "READERS":
        return {suffix: _reader(suffix) for suffix in _READERS}
    if name in _LAZY:
        return getattr(importlib.import_module(f"citewise.documents.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'citewise.documents' has no attribute {name!r}")


__all__ = ["Block", "Document", "read_document", "read_pdf", "read_text", "READERS", "SUFFIXES"]


def read_document(
    path: Path,
    options: ParseOptions | None = None,
    on_pages: Callable[[int], None] | None = None,
    sha256: str | None = None,
) -> Document:
    """Parse a file into a Document; BadDocumentError for unsupported or unreadable files.
    `options` reach the PDF reader (budget, OCR, password); the other readers need none.
    `on_pages` hears a PDF's page count once it is open, before it is parsed. `sha256`:
    the file's digest when the caller has just hashed it (the PDF reader does not again)."""
    path = Path(path)
    if path.suffix.lower() not in _READERS:
        supported = ", ".join(sorted(_READERS))
        raise BadDocumentError(
            f"unsupported file type '{path.suffix or '(none)'}'",
            f"citewise reads {supported}",
        )
    if path.suffix.lower() == ".pdf":
        from citewise.documents.pdf.reader import read_pdf

        return read_pdf(path, options=options, on_pages=on_pages, sha256=sha256)
    return _reader(path.suffix.lower())(path)
