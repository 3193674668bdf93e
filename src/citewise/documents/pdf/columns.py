"""Columns and reading order of one page: which units sit in the left or right column or
span the page, table cells that belong to a full-width table, and the order a reader
takes them in (a full-width band closes the columns above it)."""

from __future__ import annotations

import re
from collections import defaultdict

from citewise.documents.pdf.layout import Row, Seg, Unit, group_rows


def column_layout(segs: list[Seg], width: float) -> tuple[bool, float, float]:
    """(two_columns, gutter x, tolerance): two columns when column text sits on both sides."""
    if not segs:
        return False, width / 2, 0.0
    lo = min([s.x0 for s in segs])
    hi = max([s.x1 for s in segs])
    mid = (lo + hi) / 2
    quarter = 0.25 * (hi - lo)
    left = right = 0
    for s in segs:
        wide = s.x1 - s.x0 > quarter and len(s.text) > 25
        if wide and s.x1 <= mid + 4:
            left += 1
        elif wide and s.x0 >= mid - 4:
            right += 1
    return left >= 5 and right >= 5, mid, 0.05 * (hi - lo)


def page_units(segs: list[Seg], width: float) -> list[Unit]:
    """Units of one page in reading order: full-width bands, left column, right column."""
    two_col, mid, tol = column_layout(segs, width)
    by_block: dict[int, list[Seg]] = defaultdict(list)
    for s in segs:
        by_block[s.block].append(s)
    units: list[Unit] = []
    for block_segs in by_block.values():
        for part in _split_by_column(block_segs, mid) if two_col else [block_segs]:
            for chunk in _split_by_gap(group_rows(part)):
                unit = Unit(chunk)
                x0, _, x1, _ = unit.bbox
                # a unit poking a little past the gutter still belongs to its column
                if two_col and x0 >= mid - tol:
                    unit.col = "R"
                elif two_col and x1 <= mid + tol:
                    unit.col = "L"
                units.append(unit)
    if two_col:
        _widen_tables(units)
    return order_units(units)


def is_cell_like(unit: Unit) -> bool:
    """Short lines of text: a table cell or header rather than a column paragraph."""
    rows = unit.rows
    return len(rows) <= 5 and sum(len(r.text) for r in rows) / len(rows) <= 40


def has_cells(unit: Unit, numeric: re.Pattern[str] | None = None) -> bool:
    """Rows made of cells: wide gaps between segments (or a numeric cell) on most rows."""
    rows = unit.rows
    size = unit.style.size
    wide = [r for r in rows if r.widest() >= 1.5 * size]
    if numeric is not None:
        picked = {id(r) for r in wide}  # `r not in wide` is true of those: skip them first
        wide += [
            r
            for r in rows
            if id(r) not in picked
            and r.widest() >= 0.8 * size
            and any(numeric.match(s.text) for s in r.segs[1:])
            and r not in wide
        ]
    if len(rows) == 1:
        return len(wide) == 1 and len(rows[0].segs) >= 3
    return len(wide) >= 0.5 * len(rows)


def _widen_tables(units: list[Unit]) -> None:
    """Cells near a full-width table belong to it, not to the column they sit over."""
    zones = [u.bbox for u in units if u.col == "F" and len(u.rows) >= 2 and has_cells(u)]
    cells = [(u, u.bbox, 2 * u.style.size) for u in units if u.col != "F" and is_cell_like(u)]
    changed = bool(zones)
    while changed:
        changed = False
        for unit, (_, y0, _, y1), pad in cells:
            if unit.col != "F" and any(y0 < z[3] + pad and y1 > z[1] - pad for z in zones):
                unit.col = "F"
                zones.append(unit.bbox)
                changed = True


def _split_by_column(segs: list[Seg], mid: float) -> list[list[Seg]]:
    """PyMuPDF sometimes fuses a left-column line with a right-column one."""
    left = [s for s in segs if s.x1 <= mid + 4]
    right = [s for s in segs if s.x0 >= mid - 4]
    if not left or not right or len(left) + len(right) != len(segs):
        return [segs]
    shared = sum(1 for r in group_rows(segs) if r.x0 < mid < r.x1)
    left_rows, right_rows = group_rows(left), group_rows(right)
    rows = min(len(left_rows), len(right_rows))
    sizes = abs(Unit(left_rows).style.size - Unit(right_rows).style.size)
    # table rows have cells on both sides of the gutter on every line
    if shared >= 0.6 * rows and sizes < 1.0:
        return [segs]
    return [left, right]


def _split_by_gap(rows: list[Row]) -> list[list[Row]]:
    """Split a block where rows are far apart vertically (a fused block)."""
    chunks: list[list[Row]] = [[rows[0]]]
    for prev, row in zip(rows, rows[1:], strict=False):
        gap = row._extent()[1] - prev._extent()[3]
        if gap > 1.5 * max(prev.style.size, row.style.size):
            chunks.append([])
        chunks[-1].append(row)
    return chunks


def order_units(units: list[Unit]) -> list[Unit]:
    """Reading order: full-width units close a band; a band reads left column, then right."""
    out: list[Unit] = []
    left: list[Unit] = []
    right: list[Unit] = []
    full: list[Unit] = []
    for unit in sorted(units, key=_top):
        if unit.col == "F":
            out.extend(_rows_first(left) + _rows_first(right))
            left.clear()
            right.clear()
            full.append(unit)
        else:
            out.extend(_rows_first(full))
            full.clear()
            (left if unit.col == "L" else right).append(unit)
    return out + _rows_first(full) + _rows_first(left) + _rows_first(right)


def _rows_first(units: list[Unit]) -> list[Unit]:
    """Top-to-bottom, and left-to-right for units starting on the same line."""
    if len(units) < 2:
        return list(units)
    ordered = sorted(units, key=_top)
    out: list[Unit] = []
    i = 0
    while i < len(ordered):
        j = i + 1
        first = ordered[i].rows[0]
        line = first.y0 + 0.6 * first.style.size
        while j < len(ordered) and ordered[j].bbox[1] < line:
            j += 1
        out.extend(sorted(ordered[i:j], key=_leftmost) if j > i + 1 else (ordered[i],))
        i = j
    return out


def _top(unit: Unit) -> float:
    return unit.bbox[1]


def _leftmost(unit: Unit) -> float:
    return unit.bbox[0]
