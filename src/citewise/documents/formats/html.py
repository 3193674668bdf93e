"""HTML pages: headings, paragraphs, lists, code and tables as blocks (stdlib parser).

Scripts, styles, navigation and page furniture (nav, header, footer, aside, form) are
skipped; `<h1>`-`<h6>` set section paths; a table's rows become one line each.
"""

from __future__ import annotations

import hashlib
from html.parser import HTMLParser
from pathlib import Path

from citewise.documents.formats.tabular import decode
from citewise.documents.model import Block, Document
from citewise.documents.tables.grid import grid_from_rows, title_rows
from citewise.errors import BadDocumentError

SKIP = {"script", "style", "nav", "header", "footer", "aside", "form", "noscript", "svg"}
BLOCKS = {"p", "li", "pre", "blockquote", "dd", "dt", "figcaption", "caption", "div", "td", "th"}
NO_BOX = (0.0, 0.0, 0.0, 0.0)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.stack: list[tuple[int, str]] = []
        self.skip = 0
        self.text: list[str] = []
        self.kind = "paragraph"
        self.table: list[list[str]] | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.pre = 0
        self.heads = 0
        self.header_rows = 0
        self.title = ""
        self.in_title = False

    # -- helpers -------------------------------------------------------------------------

    def section(self) -> str:
        return " > ".join(t for _, t in self.stack)

    def flush(self) -> None:
        raw = "".join(self.text)
        text = raw.strip("\n") if self.kind == "code" else " ".join(raw.split())
        self.text = []
        if text.strip():
            self.blocks.append(
                Block(len(self.blocks), self.kind, 1, NO_BOX, text, section_path=self.section())
            )
        self.kind = "paragraph"

    # -- parser callbacks ----------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP:
            self.skip += 1
        if self.skip:
            return
        if tag == "title":
            self.in_title = True
        elif tag == "table":
            self.flush()
            self.table = []
            self.header_rows = 0
        elif tag == "tr" and self.table is not None:
            self.row = []
            self.heads = 0
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
            self.heads += tag == "th"
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") or tag in BLOCKS:
            if self.cell is None:
                self.flush()
            if tag == "pre":
                self.pre += 1
                self.kind = "code"
            elif tag == "li":
                self.kind = "list"
        elif tag == "br":
            self._add("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP and self.skip:
            self.skip -= 1
            return
        if self.skip:
            return
        if tag == "title":
            self.in_title = False
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.table is not None:
            if any(self.row):
                # leading rows of <th> cells are the header
                if self.heads == len(self.row) and self.header_rows == len(self.table):
                    self.header_rows += 1
                self.table.append(self.row)
            self.row = None
        elif tag == "table" and self.table is not None:
            rows, self.table = self.table, None
            if rows:
                text = "\n".join(" ".join(r) for r in rows)
                self.blocks.append(
                    Block(
                        len(self.blocks),
                        "table",
                        1,
                        NO_BOX,
                        text,
                        section_path=self.section(),
                        data={
                            "rows": rows,
                            **grid_from_rows(rows, title_rows(rows, self.header_rows)),
                        },
                    )
                )
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self.cell is None:
            title = " ".join("".join(self.text).split())
            self.text = []
            if title:
                level = int(tag[1])
                while self.stack and self.stack[-1][0] >= level:
                    self.stack.pop()
                self.stack.append((level, title))
                self.blocks.append(
                    Block(
                        len(self.blocks), "heading", 1, NO_BOX, title, section_path=self.section()
                    )
                )
        elif tag in BLOCKS and self.cell is None:
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            self.flush()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.in_title:
            self.title += data
            return
        self._add(data)

    def _add(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        else:
            self.text.append(data)


def read_html(path: Path) -> Document:
    """Parse an .html / .htm file into blocks."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror}", "check the path") from exc
    reader = _Reader()
    reader.feed(decode(data))
    reader.close()
    reader.flush()
    if not reader.blocks:
        raise BadDocumentError("no readable text in the HTML page", "save the page as HTML again")
    heading = next((b.text for b in reader.blocks if b.kind == "heading"), "")
    return Document(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        kind="html",
        pages=1,
        blocks=reader.blocks,
        title=" ".join(reader.title.split()) or heading or path.stem,
    )
