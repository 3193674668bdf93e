"""Word (.docx) reader: headings, paragraphs, lists, captions and tables in body order.

Read with python-docx (the `[docx]` extra). A .docx file has no fixed pages, so each block
gets a page proxy: the page breaks Word recorded when it last laid the file out
(`w:lastRenderedPageBreak`) and hard page breaks, when the file has any; otherwise one page
per WORDS_PER_PAGE words, about a printed page of prose. Blocks have no box.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citewise.documents.model import Block, Document
from citewise.documents.pdf.captions import caption_label
from citewise.documents.tables.grid import grid_from_rows, title_rows
from citewise.errors import BadDocumentError

WORDS_PER_PAGE = 500
NO_BOX = (0.0, 0.0, 0.0, 0.0)
HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@dataclass
class _Pages:
    """The page proxy: Word's own page breaks when the file carries them, else word counts."""

    breaks: bool
    page: int = 1
    words: int = 0

    def at(self, element: Any, text: str) -> int:
        """The page a block starts on: breaks before its first text move it on, breaks
        after its first text move the next block on."""
        if not self.breaks:
            start = 1 + self.words // WORDS_PER_PAGE
            self.words += len(text.split())
            return start
        before, after = _breaks_around_text(element)
        self.page += before
        start = self.page
        self.page += after
        return start


@dataclass
class _Body:
    blocks: list[Block] = field(default_factory=list)
    stack: list[tuple[int, str]] = field(default_factory=list)
    title: str = ""

    def section(self) -> str:
        return " > ".join(t for _, t in self.stack)

    def add(self, kind: str, page: int, text: str, **extra: Any) -> Block:
        block = Block(
            len(self.blocks), kind, page, NO_BOX, text, section_path=self.section(), **extra
        )
        self.blocks.append(block)
        return block


def _is_break(node: Any) -> bool:
    if node.tag == f"{W}lastRenderedPageBreak":
        return True
    return bool(node.tag == f"{W}br" and node.get(f"{W}type") == "page")


def _breaks_around_text(element: Any) -> tuple[int, int]:
    """Page breaks in `element` before its first visible text, and after it."""
    before = after = 0
    seen_text = False
    for node in element.iter():
        if node.tag == f"{W}t" and (node.text or "").strip():
            seen_text = True
        elif _is_break(node):
            if seen_text:
                after += 1
            else:
                before += 1
    return before, after


def _has_breaks(element: Any) -> bool:
    return any(_is_break(node) for node in element.iter())


def _open(path: Path) -> Any:
    try:
        import docx
    except ImportError as exc:
        raise BadDocumentError(
            "reading .docx files needs python-docx", "pip install 'citewise[docx]'"
        ) from exc
    try:
        return docx.Document(str(path))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise BadDocumentError(
            "not a readable Word .docx file (damaged, or another format renamed)",
            "open it in Word or LibreOffice and save it as .docx again",
        ) from exc
    except Exception as exc:  # python-docx's PackageNotFoundError and XML errors
        raise BadDocumentError(
            f"not a readable Word .docx file: {type(exc).__name__}",
            "open it in Word or LibreOffice and save it as .docx again",
        ) from exc


def _kind(style: str) -> tuple[str, int]:
    """(block kind, heading level) from a paragraph style name."""
    lowered = style.lower()
    heading = HEADING_STYLE.match(style)
    if heading:
        return "heading", int(heading.group(1))
    if lowered == "title":
        return "title", 0
    if lowered.startswith("list"):
        return "list", 0
    if lowered == "caption":
        return "caption", 0
    return "paragraph", 0


def _rows(table: Any) -> list[list[str]]:
    """Cell texts per row; a cell merged across columns counts once."""
    rows = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            if cell._tc is previous:
                continue
            previous = cell._tc
            cells.append(" ".join(cell.text.split()))
        if any(cells):
            rows.append(cells)
    return rows


def _paragraph(body: _Body, pages: _Pages, paragraph: Any) -> None:
    text = " ".join(paragraph.text.split())
    page = pages.at(paragraph._p, text)
    if not text:
        return
    style = paragraph.style.name if paragraph.style is not None else ""
    kind, level = _kind(style or "")
    if kind == "title":
        body.title = body.title or text
        body.add("heading", page, text)
        return
    if kind == "heading":
        while body.stack and body.stack[-1][0] >= level:
            body.stack.pop()
        body.stack.append((level, text))
        body.add("heading", page, text)
        return
    label = caption_label(text) if kind in ("caption", "paragraph") else None
    if label and kind == "paragraph" and not re.match(r"^\S+\.?\s*\S+\s*[:.]", text):
        label = None  # "Table 2 shows ..." is a mention, not a caption
    body.add("caption" if label else kind, page, text, label=label)


def _table(body: _Body, pages: _Pages, table: Any) -> None:
    rows = _rows(table)
    text = "\n".join(" ".join(r) for r in rows)
    page = pages.at(table._tbl, text)
    if not rows:
        return
    header_rows = 1 if len(rows) > 1 else 0
    # A "Table N" caption right above the table names it (Word puts captions above tables).
    before = body.blocks[-1] if body.blocks else None
    label = before.label if before and (before.label or "").startswith("Table") else None
    data = {"rows": rows, **grid_from_rows(rows, title_rows(rows, header_rows))}
    body.add("table", page, text, label=label, data=data)


def _content(document: Any) -> Iterator[Any]:
    yield from document.iter_inner_content()


def read_docx(path: Path) -> Document:
    """Parse a .docx file into blocks with section paths and a page proxy."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror}", "check the path") from exc
    if not data:
        raise BadDocumentError("empty file (0 bytes)", "add text or remove the file")
    document = _open(path)
    pages = _Pages(breaks=_has_breaks(document.element.body))
    body = _Body()
    for item in _content(document):
        if hasattr(item, "rows"):
            _table(body, pages, item)
        else:
            _paragraph(body, pages, item)
    if not body.blocks:
        raise BadDocumentError("no text in the Word file", "add text or remove the file")
    core = document.core_properties
    heading = next((b.text for b in body.blocks if b.kind == "heading"), "")
    authors = [a.strip() for a in re.split(r"[;\n]", core.author or "") if a.strip()]
    return Document(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        kind="docx",
        pages=max(b.page for b in body.blocks),
        blocks=body.blocks,
        title=(core.title or "").strip() or body.title or heading or path.stem,
        authors=authors,
    )
