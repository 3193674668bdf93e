"""Perception: files -> Document. `read_document` picks the reader by file suffix."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from citewise.documents.docx import read_docx
from citewise.documents.html import read_html
from citewise.documents.model import Block, Document
from citewise.documents.notebook import read_notebook
from citewise.documents.options import ParseOptions
from citewise.documents.pdf import read_pdf
from citewise.documents.tabular import read_table_file
from citewise.documents.text import read_text
from citewise.errors import BadDocumentError

READERS: dict[str, Callable[[Path], Document]] = {
    ".pdf": read_pdf,
    ".txt": read_text,
    ".md": read_text,
    ".markdown": read_text,
    ".ipynb": read_notebook,
    ".csv": read_table_file,
    ".tsv": read_table_file,
    ".html": read_html,
    ".htm": read_html,
    ".docx": read_docx,
}

__all__ = ["Block", "Document", "read_document", "read_pdf", "read_text", "READERS"]


def read_document(path: Path, options: ParseOptions | None = None) -> Document:
    """Parse a file into a Document; BadDocumentError for unsupported or unreadable files.
    `options` reach the PDF reader (budget, OCR, password); the other readers need none."""
    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        supported = ", ".join(sorted(READERS))
        raise BadDocumentError(
            f"unsupported file type '{path.suffix or '(none)'}'",
            f"citewise reads {supported}",
        )
    if reader is read_pdf:
        return read_pdf(path, options=options)
    return reader(path)
