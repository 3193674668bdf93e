"""The one shape every reader produces: a Document made of Blocks.

Readers (pdf/reader.py, formats/text.py, ...) turn a file into a Document; the store persists
it as is. Nothing here touches SQLite or the file system.
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
class TableCell:
    """One cell of a table grid; a spanning cell covers rowspan x colspan grid slots."""

    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1
    header: bool = False
    # the cell's box on the page (x0, y0, x1, y1, PDF points), for highlighting the cell an
    # answer reads; None in libraries ingested before cells had boxes
    bbox: list[float] | None = field(default=None, compare=False)


@dataclass
class Table:
    """A table block read as a grid (from the block's `data`)."""

    label: str | None
    page: int
    caption: str
    rows: int
    cols: int
    header_rows: int
    cells: list[TableCell]
    block: int  # ordinal of the table block

    def grid(self) -> list[list[str]]:
        """Rows x cols of text; a spanning cell's text sits in its first slot only."""
        out = [["" for _ in range(self.cols)] for _ in range(self.rows)]
        for c in self.cells:
            out[c.row][c.col] = c.text
        return out


@dataclass
class Equation:
    """A display equation: its printed number (None when unnumbered), text and place."""

    number: str | None
    page: int
    text: str
    bbox: BBox
    block: int


@dataclass
class Section:
    """A heading in the section tree: '2.1' / 'Related Work' at depth `level`."""

    number: str | None
    title: str
    level: int
    page: int
    block: int


@dataclass
class Reference:
    """One bibliography entry, parsed."""

    ordinal: int
    raw: str
    authors: list[str] = field(default_factory=list)
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    block: int | None = None  # ordinal of the reference block
    marker: str | None = None  # the entry's own label: "12" for "[12]", None for author-year


@dataclass
class Citation:
    """An in-text citation marker in a block, linked to a bibliography entry."""

    block: int
    reference: int  # Reference.ordinal
    marker: str


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
    references: list[Reference] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    venue: str | None = None
    arxiv_id: str | None = None
    # extra metadata from a manifest or Zotero: collections, tags, notes (stored as CSL)
    extra: dict[str, object] = field(default_factory=dict)
    # problems worth telling the user that did not stop the parse ("OCR unavailable ...")
    warnings: list[str] = field(default_factory=list)
    # what ParseOptions.analyse made of the document in its parse worker, under the file's
    # budget (an ingest: its keyword postings); None when nothing was asked
    analysed: object | None = field(default=None, compare=False, repr=False)

    @property
    def sections(self) -> list[tuple[str, int]]:
        """Headings in order, as (heading text, page)."""
        return [(b.text, b.page) for b in self.blocks if b.kind == "heading"]


def block_id(sha256: str, ordinal: int) -> str:
    """Stable block ID: the same file always yields the same IDs."""
    return f"{sha256[:12]}-{ordinal:05d}"
