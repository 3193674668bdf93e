"""Table grids: rows of positioned cells -> columns, header rows, row labels and spans.

Input is what the PDF reader sees: per table row, the cells left to right with their
horizontal extent. Output is the JSON stored in a table block's `data`. Pure functions.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from citewise.documents.model import Table, TableCell

NUMERIC = re.compile(r"^[-−–+±~<>=≤≥%$.,()\[\]\d\s×*/†‡∗]+[a-zA-Z%]{0,2}[*†‡∗]*$")


@dataclass(frozen=True)
class Cell:
    """A cell as printed: its left and right edge on the page and its text."""

    x0: float
    x1: float
    text: str
    # its box on the real page (x0, y0, x1, y1), when the reader knows it
    box: tuple[float, float, float, float] | None = None
    bold: bool = False  # set in a bold face

    @property
    def mid(self) -> float:
        return (self.x0 + self.x1) / 2


def is_numeric(text: str) -> bool:
    return bool(text) and bool(NUMERIC.match(text.strip()))


def columns(rows: list[list[Cell]]) -> list[tuple[float, float]]:
    """Column extents: x ranges that the cells of multi-cell rows cover, split where no
    cell covers the axis. When a stray wide cell bridges two columns, the rows with the
    most common cell count decide instead (their k-th cell is in column k)."""
    multi = [r for r in rows if len(r) >= 2]
    if not multi:
        cells = [c for r in rows for c in r]
        return [(min(c.x0 for c in cells), max(c.x1 for c in cells))] if cells else []
    # one stray cell in eight rows may cross a gap between two columns
    covered = _covered([(c.x0, c.x1) for r in multi for c in r], len(multi) // 8)
    counts = Counter(len(r) for r in multi)
    n = max(counts, key=lambda k: (counts[k], k))
    if len(covered) >= n:
        return covered
    anchors = [r for r in multi if len(r) == n]
    return [(min(r[k].x0 for r in anchors), max(r[k].x1 for r in anchors)) for k in range(n)]


def _covered(spans: list[tuple[float, float]], allowance: int) -> list[tuple[float, float]]:
    """Maximal x ranges covered by more than `allowance` spans (a sweep over the edges)."""
    edges = sorted([(x0, 1) for x0, _ in spans] + [(x1, -1) for _, x1 in spans])
    out: list[tuple[float, float]] = []
    depth = 0
    start = 0.0
    for x, step in edges:
        before = depth
        depth += step
        if before <= allowance < depth:
            start = x
        elif depth <= allowance < before and x > start:
            out.append((start, x))
    return out


def _overlapped(
    cell: Cell, cols: list[tuple[float, float]], ends: list[float] | None = None
) -> list[int]:
    """Columns a cell overlaps well; the nearest one when it sits in a gap. `ends`: the
    columns' right edges when the columns run left to right without overlapping (`_ends`):
    a cell of some width then overlaps only those from the first ending right of it."""
    x0, x1 = cell.x0, cell.x1
    width = x1 - x0
    hits = []
    # a positive share of a positive width asks for a real overlap: columns ending at or
    # left of x0 have none (nor, sorted, any before them)
    start = bisect_right(ends, x0) if ends is not None and width > 0 else -1
    for k in range(max(start, 0), len(cols)):
        c0, c1 = cols[k]  # min() and max() spelled out below: a hot loop
        if start >= 0 and c0 >= x1:
            break  # this column and all right of it start past the cell
        span = c1 - c0
        if (x1 if x1 < c1 else c1) - (x0 if x0 > c0 else c0) > 0.3 * (
            width if width < span else span
        ):
            hits.append(k)
    if hits:
        return hits
    return [min(range(len(cols)), key=lambda k: abs((cols[k][0] + cols[k][1]) / 2 - cell.mid))]


def _ends(cols: list[tuple[float, float]]) -> list[float] | None:
    """The columns' right edges when each has a positive width and starts at or right of
    where the one before it ends (what `_covered` gives), else None."""
    ends = [c1 for _, c1 in cols]
    if all(c0 < c1 for c0, c1 in cols) and all(
        a[1] <= b[0] for a, b in zip(cols, cols[1:], strict=False)
    ):
        return ends
    return None


Box = tuple[float, float, float, float]
# one grid row: first column -> (last column, texts, the boxes of the cells placed there)
Placed = dict[int, tuple[int, list[str], list[Box]]]


def _group_header(
    row: list[Cell], below: list[Cell], cols: list[tuple[float, float]]
) -> list[list[int]]:
    """Columns under each cell of an upper header row. A cell that two or more cells of
    the next header row touch heads a group ('CS' over 'prec.' and 'yield'): it spans
    their columns. Other cells sit in the column they overlap."""
    out = []
    for cell in row:
        under = _under(cell, below)
        if len(under) >= 2:
            ks = sorted({k for c in under for k in _overlapped(c, cols)})
            out.append(list(range(ks[0], ks[-1] + 1)))
        else:
            out.append(_overlapped(cell, cols))
    return out


def _title(row: list[Cell], cols: list[tuple[float, float]]) -> list[list[int]] | None:
    """A lone cell centred over the header rows below it titles the whole table
    ('S4 classes defined by TIMP' over 'class | represents'): it spans every column."""
    if len(row) != 1 or len(cols) < 2:
        return None
    left, right = cols[0][0], cols[-1][1]
    if abs(row[0].mid - (left + right) / 2) > 0.05 * (right - left):
        return None
    return [list(range(len(cols)))]


def _under(cell: Cell, below: list[Cell]) -> list[Cell]:
    return [c for c in below if min(c.x1, cell.x1 + 3) > max(c.x0, cell.x0 - 3)]


def _groups(row: list[Cell], below: list[Cell]) -> bool:
    return len(row) < len(below) and any(len(_under(c, below)) >= 2 for c in row)


def header_row_count(texts: list[list[str]]) -> int:
    """Leading rows before the first row holding a number outside its first column."""
    data = [any(is_numeric(t) for t in row[1:]) for row in texts]
    if not any(data):
        return 1 if len(texts) >= 2 else 0
    return data.index(True)


def _place(row: list[Cell], owned: list[list[int]]) -> Placed:
    placed: list[tuple[int, int, list[str], list[Box]]] = []
    for cell, ks in zip(row, owned, strict=True):
        first, last = min(ks), max(ks)
        box = [cell.box] if cell.box else []
        if placed and first <= placed[-1][1]:  # lands in the previous cell's columns
            s0, e0, texts, boxes = placed[-1]
            placed[-1] = (s0, max(e0, last), texts + [cell.text], boxes + box)
        else:
            placed.append((first, last, [cell.text], box))
    return {s0: (e0, texts, boxes) for s0, e0, texts, boxes in placed}


def _fold_header(rows: list[Placed], header: int) -> tuple[list[Placed], int]:
    """Header text wrapped over several lines ('Papers w/' / 'body text') is one header
    row; lines holding a group cell that spans columns stay a level of their own."""
    out: list[Placed] = []
    for row in rows[:header]:
        flat = all(last == k for k, (last, _, _) in row.items())
        prev = out[-1] if out else None
        if prev is not None and flat and all(last == k for k, (last, _, _) in prev.items()):
            for k, (last, texts, boxes) in row.items():
                _, above, above_boxes = prev.get(k, (k, [], []))
                prev[k] = (last, above + texts, above_boxes + boxes)
            continue
        out.append(dict(row))
    return out + rows[header:], len(out)


def build_grid(rows: list[list[Cell]], header: int | None = None) -> dict[str, object]:
    """The stored form of a table: grid size, header rows, row labels, cells with spans.
    `header`: the leading header rows (table_header.header_count); by default the rows
    before the first numeric row."""
    rows = [r for r in rows if r]
    if header is None:
        header = header_row_count([[c.text for c in r] for r in rows])
    if header == 1 and len(rows) >= 3 and _groups(rows[0], rows[1]):
        header = 2  # a text table under group headings: the level below is header too
    cols = columns(rows[header:] if len(rows) - header >= 2 else rows)
    if not cols:
        return {"n_rows": 0, "n_cols": 0, "header_rows": 0, "cells": [], "row_labels": []}
    ends = _ends(cols)
    placed = [
        _place(
            row,
            _title(row, cols) or _group_header(row, rows[i + 1], cols)
            if i < header - 1
            else [_overlapped(c, cols, ends) for c in row],
        )
        for i, row in enumerate(rows)
    ]
    placed, header = _fold_header(placed, header)
    cells, first = _grid_cells(placed, header)
    labels = [first.get(i, "") for i in range(header, len(placed))]
    return {
        "n_rows": len(placed),
        "n_cols": len(cols),
        "header_rows": header,
        "row_labels": row_labels(labels, len(cols)),
        "cells": cells,
    }


def _grid_cells(
    placed: list[Placed], header: int
) -> tuple[list[dict[str, object]], dict[int, str]]:
    """The cells of placed rows, as cell_dict stores them, with spans; and each row's
    first-column text."""
    cells: list[dict[str, object]] = []
    covered: set[tuple[int, int]] = set()  # slots of the rows below a spanning cell takes
    first: dict[int, str] = {}  # each row's first-column text (the first such cell)
    for i, row in enumerate(placed):
        for k, (last, texts, boxes) in sorted(row.items()):
            if (i, k) in covered:
                continue
            colspan = last - k + 1
            rowspan = 1
            # a header cell with nothing under it spans the header rows below ("Approach")
            while i + rowspan < header and not any(
                c in placed[i + rowspan] for c in range(k, k + colspan)
            ):
                rowspan += 1
            for r in range(i + 1, i + rowspan):  # a row's own cells never overlap
                covered.update((r, c) for c in range(k, k + colspan))
            text = " ".join(texts)
            cell: dict[str, object] = {
                "row": i,
                "col": k,
                "text": text,
                "rowspan": rowspan,
                "colspan": colspan,
                "header": i < header,
            }
            box = _union(boxes)
            if box is not None:
                cell["bbox"] = box
            cells.append(cell)
            if k == 0:
                first.setdefault(i, text)
    return cells, first


def _union(boxes: list[Box]) -> list[float] | None:
    if not boxes:
        return None
    if len(boxes) == 1:  # most cells: one line
        b = boxes[0]
        return [round(b[0], 1), round(b[1], 1), round(b[2], 1), round(b[3], 1)]
    return [
        round(min(b[0] for b in boxes), 1),
        round(min(b[1] for b in boxes), 1),
        round(max(b[2] for b in boxes), 1),
        round(max(b[3] for b in boxes), 1),
    ]


def cell_dict(cell: TableCell) -> dict[str, object]:
    """A cell as stored; `bbox` only when known (older grids and HTML tables have none)."""
    out: dict[str, object] = {
        "row": cell.row,
        "col": cell.col,
        "text": cell.text,
        "rowspan": cell.rowspan,
        "colspan": cell.colspan,
        "header": cell.header,
    }
    if cell.bbox is not None:
        out["bbox"] = cell.bbox
    return out


def row_labels(first_column: list[str], n_cols: int) -> list[str]:
    """The body rows' first cells when they name the rows (mostly words, not numbers)."""
    named = sum(bool(t) and not is_numeric(t) for t in first_column)
    return first_column if n_cols >= 2 and named > 0.5 * max(1, len(first_column)) else []


def table_from_data(data: dict[str, object], label: str | None, page: int, block: int) -> Table:
    """The Table view of a stored table block's data."""
    raw_cells = data.get("cells") or []
    assert isinstance(raw_cells, list)
    cells = [TableCell(**c) for c in raw_cells]
    return Table(
        label=label,
        page=page,
        caption=str(data.get("caption") or ""),
        # `data` is the JSON object grid_data wrote; these are ints there.
        rows=int(data.get("n_rows") or 0),  # type: ignore[call-overload]
        cols=int(data.get("n_cols") or 0),  # type: ignore[call-overload]
        header_rows=int(data.get("header_rows") or 0),  # type: ignore[call-overload]
        cells=cells,
        block=block,
    )


# years and the short period names reports print ("FY19", "F18", "Q4", "H1")
_YEARS = re.compile(r"\b(?:19|20)\d\d\b|\bF[Yy]?\s?\d\d\b|\b[QH][1-4]\b")


# what a column's name may print besides years: a day of a month ("April 27"), a note mark
# ("(1)", "(a)")
_DAY = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", re.I
)
_NOTE = re.compile(r"\(\w\)|\*+")
_WORD = re.compile(r"[^\W\d_]{3,}")


def _names_column(text: str) -> bool:
    """A cell naming a column: no figure left once its periods, days and note marks are
    taken out ("April 27, 2019 (1)", "FY18"), or words around a span of years ("1-3 Years",
    "Less than 1 Year") that read as no amount."""
    bare = _NOTE.sub("", _DAY.sub("", _YEARS.sub("", text)))
    if not re.search(r"\d", bare):
        return True
    return not is_numeric(text) and bool(_WORD.search(bare))


def _heads_columns(row: list[str]) -> bool:
    """A row whose value cells name columns, not amounts: years ("2019", "2019 and 2018",
    "December 31, 2019"), units ("$", "£m", "%") or words, at least one of them."""
    values = [t for t in row[1:] if t.strip()]
    return bool(values) and all(_names_column(t) for t in values)


def title_rows(rows: list[list[str]], header_rows: int) -> int:
    """The header rows, counting after the marked ones (HTML `<th>` rows) the leading rows
    that name columns, as long as a later row holds an amount (a table of words only has
    no such header to extend)."""
    n = header_rows
    while n < len(rows) - 1 and _heads_columns(rows[n]):
        n += 1
    later = any(is_numeric(t) and not _YEARS.fullmatch(t.strip()) for r in rows[n:] for t in r[1:])
    return n if later else header_rows


def grid_from_rows(rows: list[list[str]], header_rows: int) -> dict[str, object]:
    """The stored grid of a table that arrives as rows already (HTML): no spans to find."""
    width = max((len(r) for r in rows), default=0)
    cells = [
        TableCell(i, k, text, header=i < header_rows)
        for i, row in enumerate(rows)
        for k, text in enumerate(row)
    ]
    return {
        "n_rows": len(rows),
        "n_cols": width,
        "header_rows": header_rows,
        "row_labels": row_labels([r[0] if r else "" for r in rows[header_rows:]], width),
        "cells": [cell_dict(c) for c in cells],
    }


def to_csv_rows(table: Table) -> list[list[str]]:
    """The grid with a spanning cell's text repeated in every slot it covers (for CSV).
    (Here, not in documents/structure.py: a table answer reads cells without the equation
    and heading readers that module imports.)"""
    grid = [["" for _ in range(table.cols)] for _ in range(table.rows)]
    for c in table.cells:
        for r in range(c.row, min(c.row + c.rowspan, table.rows)):
            for k in range(c.col, min(c.col + c.colspan, table.cols)):
                grid[r][k] = c.text
    return grid
