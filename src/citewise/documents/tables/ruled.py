"""Ruled tables: PyMuPDF's line-based table finder, run only where a caption says a table is.

The finder is slow on whole pages and blind to booktabs tables (horizontal rules only),
so it is asked about one table's region at a time, and its answer is kept only when it
sees a real grid of ruled cells. Cell boxes give exact row and column spans; the text in
each box comes from the reader's own lines, which keep spacing and decimal points intact.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any, NamedTuple

import pymupdf

from citewise.documents.model import TableCell
from citewise.documents.pdf.hyphenation import clean
from citewise.documents.pdf.layout import Box, Seg
from citewise.documents.tables.grid import cell_dict, row_labels
from citewise.documents.tables.table_header import choose

# find_tables would print a hint to install PyMuPDF's layout package on stdout (where the
# CLI writes --json) when that package is absent; citewise does not use it.
getattr(pymupdf, "no_recommend_layout", lambda: None)()

PAD = (24.0, 12.0)  # rules sit outside the text, by the cell padding


class Drawn(NamedTuple):
    """What a page's vector drawings say about ruled tables."""

    rules: list[Box]  # straight rules: stroked lines and the sides of rectangles
    xs: list[float]  # every x a vertical edge of the line finder can stand at (`_edge_xs`)
    slants: list[tuple[float, float]]  # x ranges of lines drawn neither upright nor level


def page_rules(page: pymupdf.Page) -> Drawn:
    """Straight rules drawn on the page (stroked lines and the sides of rectangles), and
    the x positions any drawn edge can have."""
    rules: list[Box] = []
    xs: list[float] = []
    slants: list[tuple[float, float]] = []
    for path in page.get_cdrawings():
        stroked = "s" in str(path.get("type", ""))  # shaded cells are fills, not borders
        xs += _edge_xs(path, slants)
        for item in path.get("items", []):
            if item[0] == "l":
                (ax, ay), (bx, by) = item[1], item[2]
                if abs(ax - bx) < 1 or abs(ay - by) < 1:
                    rules.append((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                if x1 - x0 < 2 or y1 - y0 < 2:  # a hairline drawn as a thin filled box
                    rules.append((x0, y0, x1, y1))
                elif stroked:
                    rules += [
                        (x0, y0, x0, y1),
                        (x1, y0, x1, y1),
                        (x0, y0, x1, y0),
                        (x0, y1, x1, y1),
                    ]
    return Drawn(rules, xs, slants)


def _edge_xs(path: dict[str, Any], slants: list[tuple[float, float]]) -> list[float]:
    """Every x a vertical edge of the line finder can stand at for this path, and more:
    its box's sides (the finder also frames groups of touching paths), every point of its
    lines and quads, a rectangle's sides and middle (a thin one stands for one line). The
    x ranges of its slanted lines and quad sides go to `slants` (cut at a region's side,
    such a line starts there)."""
    x0, _, x1, _ = path.get("rect", (0.0, 0.0, 0.0, 0.0))
    xs = [x0, x1]
    for item in path.get("items", []):
        if item[0] == "re":
            a, _, b, _ = item[1]
            xs += (a, b, (a + b) / 2, abs(a + b) / 2)
            continue
        if item[0] == "l":
            points = [item[1], item[2]]
        elif item[0] == "qu":
            points = list(item[1])
        else:
            continue
        xs += [p[0] for p in points]
        for (ax, ay), (bx, by) in combinations(points, 2):  # a quad's sides among them
            if ax != bx and ay != by:
                slants.append((min(ax, bx), max(ax, bx)))
    return xs


def columns_possible(drawn: Drawn, left: float, right: float) -> bool:
    """Whether drawn edges can bound a grid of two columns between `left` and `right`:
    that takes three vertical edges apart. The finder snaps edges within 3 pt of each other
    into one; positions more than 1 pt apart (picked greedily: the most such a set holds)
    can only be more, so False means the finder cannot find such a grid there."""
    inside = sorted(x for x in drawn.xs if left <= x <= right)
    if any(lo < left <= hi for lo, hi in drawn.slants):
        inside.insert(0, left)  # a slanted line cut at the region's left side starts there
    apart = 0
    last = -math.inf
    for x in inside:
        if x - last > 1.0:
            apart += 1
            last = x
    return apart >= 3


def ruled_grid(
    page: pymupdf.Page, region: Box, segs: list[Seg], rows: int, drawn: Drawn
) -> dict[str, Any] | None:
    """Grid data (the shape `grid.build_grid` returns) for a ruled table in `region`.

    Asked only when vertical rules cross the region: booktabs tables (horizontal rules
    only) keep their text-based grid. `rows` is how many text rows the reader found: a
    grid with far fewer rows is a frame around the table, not its cell borders.
    """
    x0, y0, x1, y1 = region
    rules = drawn.rules
    # horizontal rules over the text give the table's width, vertical ones inside it cells
    across = [
        r
        for r in rules
        if r[3] - r[1] < 2
        and y0 - PAD[1] <= r[1] <= y1 + PAD[1]
        and min(r[2], x1) - max(r[0], x0) > 0.5 * (x1 - x0)
    ]
    left = min([x0, *(r[0] for r in across)]) - 2
    right = max([x1, *(r[2] for r in across)]) + 2
    down = [
        r
        for r in rules
        if r[2] - r[0] < 2 and left <= r[0] <= right and min(r[3], y1) - max(r[1], y0) > 2
    ]
    if len(down) < 2:
        return None
    clip = pymupdf.Rect(
        left,
        min([y0, *(r[1] for r in down)]) - PAD[1],
        right,
        max([y1, *(r[3] for r in down)]) + PAD[1],
    )
    if not columns_possible(drawn, clip.x0, clip.x1):
        return None  # the drawings cannot bound two columns: the finder would find none
    try:
        found = page.find_tables(clip=clip, strategy="lines", use_layout=False).tables
    except (RuntimeError, ValueError):  # the finder gives up on odd vector graphics
        return None
    if not found:
        return None
    text = pymupdf.Rect(region)
    table = max(found, key=lambda t: abs(pymupdf.Rect(t.bbox) & text))
    if table.row_count < 2 or table.col_count < 2 or table.row_count < 0.7 * rows:
        return None
    frame = pymupdf.Rect(table.bbox) + (-1, -1, 1, 1)
    inside = sum(frame.contains(pymupdf.Rect(s.orig)) for s in segs)
    if inside < 0.9 * len(segs):  # the grid covers only part of the table
        return None
    boxes = [[tuple(c) if c is not None else None for c in r.cells] for r in table.rows]
    return grid_from_boxes(boxes, segs)


def grid_from_boxes(
    boxes: list[list[tuple[float, ...] | None]], segs: list[Seg]
) -> dict[str, Any] | None:
    """Cells with spans from ruled cell boxes (None marks a slot a spanning cell covers)."""
    xs = sorted({round(b[i], 1) for row in boxes for b in row if b is not None for i in (0, 2)})
    ys = sorted({round(b[i], 1) for row in boxes for b in row if b is not None for i in (1, 3)})
    placed: list[tuple[int, int, int, int, str, list[float]]] = []
    plain: set[int] = set()  # grid rows holding text not set in bold
    for row in boxes:
        for box in row:
            if box is None:
                continue
            bx0, by0, bx1, by1 = box[:4]
            r0, r1 = _index(ys, by0), _index(ys, by1)
            c0, c1 = _index(xs, bx0), _index(xs, bx1)
            if r1 <= r0 or c1 <= c0:
                continue
            inside = [s for s in segs if _centre_in(s.orig, (bx0, by0, bx1, by1))]
            inside.sort(key=lambda s: (round(s.orig[1]), s.orig[0]))
            text = clean(" ".join(s.text for s in inside))
            cell_box = [round(v, 1) for v in (bx0, by0, bx1, by1)]
            placed.append((r0, c0, r1 - r0, c1 - c0, text, cell_box))
            if inside and not all(s.bold for s in inside):
                plain.add(r0)
    if not placed:
        return None
    n_rows = max(r + h for r, _, h, _, _, _ in placed)
    n_cols = max(c + w for _, c, _, w, _, _ in placed)
    texts = [["" for _ in range(n_cols)] for _ in range(n_rows)]
    for r, c, _, _, text, _ in placed:
        texts[r][c] = text
    # every row is ruled off here: rules say nothing about the header, bold type may
    header = choose(texts, [r not in plain for r in range(n_rows)], None, framed=False)
    cells = [
        TableCell(r, c, text, rowspan=h, colspan=w, header=r < header, bbox=box)
        for r, c, h, w, text, box in sorted(placed)
    ]
    return {
        "n_rows": n_rows,
        "n_cols": n_cols,
        "header_rows": header,
        "row_labels": row_labels([texts[r][0] for r in range(header, n_rows)], n_cols),
        "cells": [cell_dict(c) for c in cells],
        "ruled": True,
    }


def _index(edges: list[float], value: float) -> int:
    return min(range(len(edges)), key=lambda i: abs(edges[i] - value))


def _centre_in(box: Box, cell: Box) -> bool:
    mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return cell[0] <= mx <= cell[2] and cell[1] <= my <= cell[3]
