"""A paper's structure from its blocks: the section tree, tables and numbered equations.

Works on any block-like object (the reader's Block, the store's blocks with their data),
so the same rules serve parsing, `citewise show` and `citewise table` / `formula`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Protocol

from citewise.documents.math.equations import equation_number
from citewise.documents.math.formulas import lookup_equation
from citewise.documents.model import Equation, Section, Table
from citewise.documents.pdf.headings import NUMBERING, heading_level
from citewise.documents.tables.grid import table_from_data
from citewise.documents.tables.grid import (
    to_csv_rows as to_csv_rows,  # (moved; still importable here)
)
from citewise.errors import CitewiseError

BBox = tuple[float, float, float, float]


class BlockLike(Protocol):
    @property
    def ordinal(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def bbox(self) -> BBox: ...
    @property
    def text(self) -> str: ...
    @property
    def section_path(self) -> str: ...
    @property
    def label(self) -> str | None: ...


def split_number(heading: str) -> tuple[str | None, str]:
    """'2.1 Node Types' -> ('2.1', 'Node Types'); 'A. Appendix' -> ('A', 'Appendix')."""
    text = heading.strip()
    m = NUMBERING.match(text)
    if not m:
        return None, text
    number = next(g for g in m.groups() if g)
    rest = text[m.end() - 1 :].strip()
    return number.rstrip("."), rest or text


def sections(blocks: Iterable[BlockLike]) -> list[Section]:
    """Headings in reading order with number, title, depth and page."""
    out = []
    for b in blocks:
        if b.kind != "heading":
            continue
        number, title = split_number(b.text)
        level = heading_level(b.text) or (b.section_path.count(" > ") + 1 if b.section_path else 1)
        out.append(Section(number, title, level, b.page, b.ordinal))
    return out


def tables(blocks: Iterable[tuple[BlockLike, dict[str, Any] | None]]) -> list[Table]:
    """Table blocks read as grids (blocks paired with their stored data)."""
    # CSV row chunks and other tables without a cell grid are text, not tables to show
    return [
        table_from_data(data, b.label, b.page, b.ordinal)
        for b, data in blocks
        if b.kind == "table" and data and data.get("cells")
    ]


def equations(blocks: Iterable[tuple[BlockLike, dict[str, Any] | None]]) -> list[Equation]:
    """Display equations with their printed number (None when unnumbered)."""
    out = []
    for b, data in blocks:
        if b.kind != "equation":
            continue
        data = data or {}
        number = data.get("number") or equation_number(b.label)
        text = str(data.get("text") or b.text)
        out.append(Equation(number, b.page, text, b.bbox, b.ordinal))
    return out


def find_table(found: list[Table], wanted: str) -> Table | None:
    """'Table 2', 'table 2', '2', 'T2' -> that table (the first part when it continues);
    in a document whose tables carry no label (HTML, Markdown and Word tables often have
    none), a bare number names its Nth table in reading order."""
    key = _key(wanted)
    hit = next((t for t in found if _key(t.label or "") == key), None)
    unlabelled = not any(t.label for t in found)
    if hit is None and unlabelled and wanted.strip().isdigit() and 1 <= int(wanted) <= len(found):
        hit = sorted(found, key=lambda t: t.block)[int(wanted) - 1]
    return hit


def find_equation(found: list[Equation], wanted: str) -> Equation | None:
    """'3', 'eq3', 'Eq. (3)', '(3.2)', 'equation A.1' -> that numbered equation, else None
    (documents/math/formulas.py says why: a malformed ID or a number the paper lacks)."""
    try:
        return lookup_equation(found, wanted)
    except CitewiseError:
        return None


def _key(label: str) -> str:
    m = re.search(r"(S?\d+[a-z]?|[IVX]+)\s*$", label.strip(), re.I)
    return m.group(1).upper() if m else label.strip().lower()


def to_markdown(table: Table) -> str:
    """A Markdown (GFM) table: header rows folded into one header line."""
    grid = to_csv_rows(table)
    if not grid:
        return ""
    header_rows = max(1, table.header_rows)
    head = [
        " ".join(
            dict.fromkeys(grid[r][k] for r in range(min(header_rows, len(grid))) if grid[r][k])
        )
        for k in range(table.cols)
    ]
    body = grid[header_rows:]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(head), "|" + "---|" * table.cols, *(line(r) for r in body)])
