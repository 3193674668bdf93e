"""The one shape every reader produces: a Document made of Blocks.

Readers (pdf.py, text.py, ...) turn a file into a Document; the store persists it as is.
Nothing here touches SQLite or the file system.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

BLOCK_KINDS = (
    "heading",
    "paragraph",
    "list",
    "table",
    "equation",
    "caption",
    "footnote",
    "reference",
    "code",
    "cell",
)

BBox = tuple[float, float, float, float]


@dataclass
class Block:
    """A unit of text with an address: page (1-based) and bbox in PDF points."""

    ordinal: int
    kind: str
    page: int
    bbox: BBox
    text: str
    section_path: str = ""
    label: str | None = None  # "Table 2", "Figure 1", "Eq. (3)"
    font_size: float = 0.0
    font_name: str = ""
    bold: bool = False
    trusted: bool = True  # False when the page's text layer is garbage (never cited)
    data: dict[str, object] | None = None


@dataclass
class Document:
    """A parsed file: metadata plus blocks in reading order."""

    path: Path
    sha256: str
    kind: str  # "pdf", "text", "markdown"
    pages: int
    blocks: list[Block] = field(default_factory=list)
    title: str = ""
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    doi: str | None = None
    abstract: str = ""
    # page number -> reason the page's text is not trusted (e.g. "garbled text layer")
    flagged_pages: dict[int, str] = field(default_factory=dict)

    @property
    def sections(self) -> list[tuple[str, int]]:
        """Headings in order, as (heading text, page)."""
        return [(b.text, b.page) for b in self.blocks if b.kind == "heading"]


def block_id(sha256: str, ordinal: int) -> str:
    """Stable block ID: the same file always yields the same IDs."""
    return f"{sha256[:12]}-{ordinal:05d}"
