"""Tables: fusing table-like units on a page and reading them as rows of cells."""

from __future__ import annotations

import re

from citewise.documents.pdf import columns, layout
from citewise.documents.pdf.hyphenation import clean, join_rows
from citewise.documents.pdf.layout import Seg, Unit, group_rows
from citewise.documents.tables.grid import Cell as GridCell

NUMERIC_CELL = re.compile(r"^[-−+±~<>=%$.,()\d\s×*/]+[a-zA-Z%]{0,2}$")
Cell = tuple[float, float, str]  # x0, x1, text


def merge_tables(units: list[Unit], body: Seg) -> list[Unit]:
    """Fuse consecutive table-like units (rows, cells side by side, a header) into one table."""
    side = _side_by_side(units)
    cand = [u.kind == "table" or i in side for i, u in enumerate(units)]
    boxes = [u.bbox for u in units]  # once each: a box is a pass over the unit's segments
    for i, u in enumerate(units):
        # a header row with one gap counts when it touches a table
        if not cand[i] and u.kind == "paragraph" and len(u.rows) <= 2 and _has_gap(u):
            near = [j for j in (i - 1, i + 1) if 0 <= j < len(units) and cand[j]]
            cand[i] = any(_close(boxes[min(i, j)], boxes[max(i, j)], body) for j in near)
    out: list[Unit] = []
    box: layout.Box = (0.0, 0.0, 0.0, 0.0)  # the last unit out, grown with what it absorbs
    for i, unit in enumerate(units):
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.kind == "table"
            and (
                (cand[i] and _close(box, boxes[i], body))
                or _wrapped_cell(box, unit, boxes[i], body)
            )
        ):
            prev.rows.extend(unit.rows)
            box = layout.union([box, boxes[i]])
            continue
        if cand[i]:
            unit = Unit(list(unit.rows), col=unit.col, kind="table")
        out.append(unit)
        box = boxes[i]
    out = _absorb_fragments(out)
    for unit in out:
        if unit.kind == "table":
            cells = table_cells(unit.segs, NUMERIC_CELL)
            unit.data["cells"] = cells
            unit.data["rows"] = [[c.text for c in row] for row in cells]
            if len(cells) < 2:
                unit.kind = "paragraph"
    return out


def _has_gap(unit: Unit) -> bool:
    """A gap of at least one character's width between segments of a row."""
    size = unit.style.size  # once per unit: it weighs every segment
    return any(g >= 1.0 * size for r in unit.rows for g in r.gaps())


def _wrapped_cell(table: layout.Box, unit: Unit, box: layout.Box, body: Seg) -> bool:
    """Short lines (`unit`, at `box`) beside or just under a table's box, within reach:
    wrapped cells of its rows."""
    if unit.kind not in ("paragraph", "footnote") or not columns.is_cell_like(unit):
        return False
    tx0, ty0, tx1, ty1 = table
    ux0, uy0, ux1, uy1 = box
    beside = uy0 < ty1 and ux0 - tx1 < 3 * body.size
    # prose after a table starts at its left edge; a wrapped cell sits in a later column
    inner = tx0 + 2 * body.size < ux0 and ux1 <= tx1 + 2
    below = 0 <= uy0 - ty1 < 2.5 * body.size and inner
    return beside or below


def _absorb_fragments(units: list[Unit]) -> list[Unit]:
    """Text lying inside a table's box is a piece of it (cells PyMuPDF split off)."""
    tables = [(u, [u.bbox]) for u in units if u.kind == "table"]  # box kept as it grows
    rest = [(u, u.bbox) for u in units if u.kind in ("paragraph", "footnote", "list")]
    eaten: set[int] = set()
    grew = True
    while grew:
        grew = False
        for unit, box in rest:
            if id(unit) in eaten:
                continue
            for table, grown in tables:
                if table.col == unit.col and _overlap(grown[0], box):
                    table.rows.extend(unit.rows)
                    grown[0] = layout.union([grown[0], box])
                    eaten.add(id(unit))
                    grew = True
                    break
    return [u for u in units if id(u) not in eaten]


def _overlap(a: layout.Box, b: layout.Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 2


def _side_by_side(units: list[Unit]) -> set[int]:
    """Small units sharing a line with another small unit in the same column: cells.

    One sweep down the page: each unit is checked only against the units of its column
    still open at its top edge (those whose bottom lies more than 2 pt below it), so a
    table of r lines and c cells a line costs about r·c², not (r·c)²."""
    small = sorted(
        (
            (i, u.bbox)
            for i, u in enumerate(units)
            if u.kind in ("paragraph", "table") and columns.is_cell_like(u)
        ),
        key=lambda item: item[1][1],
    )
    out: set[int] = set()
    open_units: dict[str, list[tuple[int, layout.Box]]] = {}
    for b, box in small:
        bx0, by0, bx1, by1 = box
        col = units[b].col
        live = [(a, abox) for a, abox in open_units.get(col, []) if abox[3] - 2 > by0]
        for a, (ax0, _, ax1, ay1) in live:
            if min(ay1, by1) - by0 > 2 and (bx0 > ax1 or ax0 > bx1):
                out.update((a, b))
        live.append((b, box))
        open_units[col] = live
    return out


def _close(a: layout.Box, b: layout.Box, body: Seg) -> bool:
    """Box b starts within reach under box a and overlaps it across."""
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    return by0 - ay1 < 2.5 * body.size and min(ax1, bx1) > max(ax0, bx0) and by1 > ay0


# --- rows of cells --------------------------------------------------------------------


def table_rows(segs: list[Seg], numeric: re.Pattern[str]) -> list[list[str]]:
    """Table text as rows of cells; lines continuing a wrapped cell join their row."""
    return [[c.text for c in row] for row in table_cells(segs, numeric)]


def table_cells(segs: list[Seg], numeric: re.Pattern[str]) -> list[list[GridCell]]:
    """Rows of positioned cells; lines continuing a wrapped cell join their row."""
    rows = [line for row in group_rows(segs) for line in unstack(row)]
    if not rows:
        return []
    left = min(r.x0 for r in rows)
    gaps = [b.y0 - a.y1 for a, b in zip(rows, rows[1:], strict=False)]
    # wrapped cells sit closer than rows do; only trust that when spacing is bimodal
    split = (min(gaps) + max(gaps)) / 2 if gaps and max(gaps) - min(gaps) > 2.5 else -1e9
    out: list[list[Cell]] = []
    boxes: list[list[layout.Box]] = []  # each cell's box on the real page (for highlights)
    bolds: list[list[bool]] = []  # whether each cell is set in bold (a header sign)
    for i, row in enumerate(rows):
        cells = [(s.x0, s.x1, clean(s.text)) for s in row.segs]
        under = _cells_under(cells, out[-1]) if out else None
        if (
            under is None
            or gaps[i - 1] >= split
            or row.x0 <= left + row.style.size  # a new row starts in the first column
            or any(numeric.match(c[2]) for c in cells)
        ):
            out.append(cells)
            boxes.append([s.orig for s in row.segs])
            bolds.append([s.bold for s in row.segs])
            continue
        above = out[-1]
        for (x0, x1, text), k, seg in zip(cells, under, row.segs, strict=True):
            a0, a1, atext = above[k]
            above[k] = (min(a0, x0), max(a1, x1), join_rows([atext, text]))
            boxes[-1][k] = layout.union([boxes[-1][k], seg.orig])
            bolds[-1][k] = bolds[-1][k] and seg.bold
    return [
        [
            GridCell(x0, x1, text, box, bold)
            for (x0, x1, text), box, bold in zip(cells, row_boxes, row_bold, strict=True)
        ]
        for cells, row_boxes, row_bold in zip(out, boxes, bolds, strict=True)
    ]


MAX_HEADER_CELLS = 60


def unstack(row: layout.Row) -> list[layout.Row]:
    """A visual row whose segments sit above one another is two header lines that a cell
    set between them ("Dataset", centred beside "ChatGPT" over "Standard CoT Logic-LM")
    bridged into one. Split it into the lines of its stacked segments; each other segment
    joins the nearest line, a bridging one midway the top line (the grid then spans it
    over the lines below)."""
    heights = sorted(s.height for s in row.segs)
    if len(row.segs) > MAX_HEADER_CELLS or row.y1 - row.y0 < 1.6 * heights[len(heights) // 2]:
        return [row]  # one line high (or no header): nothing stacked
    stacked = [
        s
        for s in row.segs
        if any(
            t is not s
            and min(s.x1, t.x1) - max(s.x0, t.x0) > 1
            and abs((t.y0 + t.y1) - (s.y0 + s.y1)) / 2 > 0.6 * min(s.height, t.height)
            for t in row.segs
        )
    ]
    lines = group_rows(stacked)
    if len(lines) < 2:
        return [row]
    placed: list[list[Seg]] = [list(line.segs) for line in lines]
    centres = [(line.y0 + line.y1) / 2 for line in lines]
    for seg in row.segs:
        if all(seg is not t for t in stacked):  # to the nearest line; midway: the top one
            mid = (seg.y0 + seg.y1) / 2
            k = min(range(len(lines)), key=lambda i: (round(abs(centres[i] - mid)), i))
            placed[k].append(seg)
    return [layout.Row(sorted(segs, key=lambda s: s.x0)) for segs in placed]


def _cells_under(cells: list[Cell], above: list[Cell]) -> list[int] | None:
    """For each cell, the one distinct cell above it that it overlaps well; else None."""
    picks: list[int] = []
    for x0, x1, _ in cells:
        best, k = 0.0, -1
        for j, (a0, a1, _) in enumerate(above):  # the largest overlap, the last of equals
            overlap = (x1 if x1 < a1 else a1) - (x0 if x0 > a0 else a0)
            if k < 0 or overlap >= best:
                best, k = overlap, j
        if best < 0.3 * min(x1 - x0, above[k][1] - above[k][0]) or k in picks:
            return None
        picks.append(k)
    return picks


# --- tables found from their caption ------------------------------------------------------

TABLEISH = ("paragraph", "footnote", "list", "table")
CONTINUED = re.compile(r"^\(?\s*continued\b", re.I)


def tables_from_captions(units: list[Unit], body: Seg) -> list[Unit]:
    """Grow each 'Table N' into everything its caption stacks against: pieces of the same
    table (a header set apart, wrapped header cells) and, for a caption with no table yet,
    the small-print lines beside it (text-only tables escape the cell tests)."""
    for cap in [u for u in units if u.kind == "caption" and (u.label or "").startswith("Table")]:
        sides = [_stack(cap, units, body, up=True), _stack(cap, units, body, up=False)]
        own = [u for u in units if u.kind == "table" and u.label == cap.label]
        if own:
            sides = [s for s in sides if any(u is own[0] for u in s)]
            if not sides or len(sides[0]) < 2:
                continue
        pick = max(sides, key=lambda s: sum(len(u.rows) for u in s))
        rows = [r for u in sorted(pick, key=lambda u: u.bbox[1]) for r in u.rows]
        if len(rows) < 2:
            continue
        table = Unit(rows, col=pick[0].col, kind="table", label=cap.label)
        cells = table_cells(table.segs, NUMERIC_CELL)
        if len(cells) < 2:
            continue
        table.data.update(cells=cells, rows=[[c.text for c in r] for r in cells], caption=cap.text)
        at = min(units.index(u) for u in pick)
        units = [u for u in units if all(u is not p for p in pick)]
        units.insert(min(at, len(units)), table)
    return units


def _stack(cap: Unit, units: list[Unit], body: Seg, up: bool) -> list[Unit]:
    """Table-like units stacked above (or below) a caption, nearest first, none skipped."""
    cx0, cy0, cx1, cy1 = cap.bbox
    side = [
        u
        for u in units
        if u is not cap and ((u.bbox[3] <= cy0 + 2) if up else (u.bbox[1] >= cy1 - 2))
    ]
    side.sort(key=lambda u: -u.bbox[3] if up else u.bbox[1])
    out: list[Unit] = []
    edge = cy0 if up else cy1
    for unit in side:
        ux0, uy0, ux1, uy1 = unit.bbox
        if min(ux1, cx1) - max(ux0, cx0) <= 0.3 * min(ux1 - ux0, cx1 - cx0):
            continue  # beside the table's column, not under it
        gap = edge - uy1 if up else uy0 - edge
        if gap > 2.5 * body.size or not _table_piece(unit, cap, body):
            break
        out.append(unit)
        edge = min(edge, uy0) if up else max(edge, uy1)
        cx0, cx1 = min(cx0, ux0), max(cx1, ux1)  # the table may be wider than its caption
    return out


def _table_piece(unit: Unit, cap: Unit, body: Seg) -> bool:
    """Part of a table: a table piece, small print, or short cells that are not prose."""
    if unit.kind == "table":
        return unit.label in (None, cap.label)
    if unit.kind == "heading":  # bold column heads in small print read as a heading
        small = unit.style.size <= body.size - 0.5
        return (
            small
            and len(unit.rows) == 1
            and any(g >= 2 * unit.style.size for g in unit.rows[0].gaps())
        )
    if unit.kind not in TABLEISH or unit.label or CONTINUED.match(unit.text):
        return False
    if unit.style.size <= body.size - 0.5:
        return True
    short = all(len(r.text) <= 30 for r in unit.rows) and not unit.text.endswith(".")
    return columns.has_cells(unit, NUMERIC_CELL) or (columns.is_cell_like(unit) and short)
