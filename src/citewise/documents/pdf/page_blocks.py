"""Blocks of one PDF page: its ordered units split around headings, classified (caption,
equation, code, list, table, footnote), tables and formulas gathered, broken paragraphs
rejoined, and each unit turned into a Block (reader.py runs this page by page)."""

from __future__ import annotations

import re
from collections import Counter

from citewise.documents.math.equations import (
    attach_numbers,
    ends_in_equation_number,
    equation_number,
    equation_text,
    image_only,
    looks_like_display_math,
)
from citewise.documents.math.formula_layout import gather_formulas
from citewise.documents.model import Block
from citewise.documents.pdf import columns, layout
from citewise.documents.pdf.captions import (
    caption_label,
    caption_like,
    demote_mentions,
    label_tables,
)
from citewise.documents.pdf.headings import split_unit, unit_is_heading
from citewise.documents.pdf.hyphenation import join_rows
from citewise.documents.pdf.layout import BULLET, Seg, Unit
from citewise.documents.pdf.segments import round_size
from citewise.documents.tables.fusion import NUMERIC_CELL, merge_tables, tables_from_captions
from citewise.documents.tables.grid import Cell, build_grid
from citewise.documents.tables.table_header import header_count

# --- blocks on one page -----------------------------------------------------------------


def body_style(pages: list[list[Seg]]) -> Seg:
    """The document's running-text font: most characters by (size, font)."""
    exact: dict[tuple[float, str, bool], int] = {}  # a plain dict: Counter's += is slower
    get = exact.get
    for segs in pages:
        for s in segs:
            key = (s.size, s.font, s.bold)
            exact[key] = get(key, 0) + len(s.text)
    weight: Counter[tuple[float, str, bool]] = Counter()  # sizes to the half point
    for (size, font, bold), chars in exact.items():  # in order of first appearance
        weight[(round(size * 2) / 2, font, bold)] += chars
    if not weight:
        return Seg(0, 0, 0, 0, "", 10.0, "", False, -1)
    top = weight.most_common(1)[0][1]
    # reference lists in small print can outweigh a short paper's body text: among the
    # heavy styles take the largest plain one (a bold title can be heavy in a short file)
    heavy = [k for k, w in weight.items() if w >= 0.4 * top]
    size, font, bold = max(heavy, key=lambda k: (not k[2], k[0]))
    return Seg(0, 0, 0, 0, "", size, font, bold, -1)


def page_structure(units: list[Unit], body: Seg, height: float) -> list[Unit]:
    """Split, classify and merge one page's ordered units into final blocks."""
    pieces = [p for u in units for p in split_unit(u, body)]
    for unit in pieces:
        classify(unit, body, height)
    pieces = merge_tables(gather_formulas(attach_numbers(pieces), body.size), body)
    pieces = merge_paragraphs(pieces, body)
    for unit in pieces:
        if unit.kind == "paragraph" and unit_is_heading(unit, body):
            unit.kind = "heading"
    label_tables(pieces)
    pieces = tables_from_captions(demote_mentions(pieces, body), body)
    return join_drop_caps(pieces, body)


def join_drop_caps(units: list[Unit], body: Seg) -> list[Unit]:
    """A large initial ('O' of 'Over') set apart joins the paragraph it begins."""
    out = list(units)
    for cap in units:
        if len(cap.rows) != 1:
            continue
        text = cap.text
        if not (text.isalpha() and text.isupper() and len(text) <= 2):
            continue
        if cap.style.size < 1.8 * body.size:
            continue
        x0, y0, x1, y1 = cap.bbox
        nxt = [
            u
            for u in out
            if u.kind == "paragraph"
            and u is not cap
            and 0 <= u.rows[0].x0 - x1 < 2 * body.size
            and y0 - body.size <= u.bbox[1] <= y1
            and u.rows[0].text[:1].islower()
        ]
        if nxt:
            first = nxt[0].rows[0].segs[0]
            first.text = text + first.text
            nxt[0].rows[0].forget()  # the row's text and the paragraph's changed
            nxt[0].forget()
            out.remove(cap)
    return out


def classify(unit: Unit, body: Seg, height: float) -> None:
    """Decide kind and label from the unit's own text and style."""
    text = unit.text
    style = unit.style
    rows = unit.rows
    label = caption_label(text)
    if label and (caption_like(text) or style.bold or abs(style.size - body.size) > 0.4):
        unit.kind, unit.label = "caption", label
        return
    # a display equation ends in its number at the right margin: "(3)"
    segs = unit._segs()  # read only
    if len(rows) <= 4 and len(segs) > 1:
        last = max(segs, key=lambda s: s.x1)
        if ends_in_equation_number(unit, last.text):
            unit.kind, unit.label = "equation", "Eq. " + re.sub(r"\s", "", last.text)
            return
    if layout.is_mono(style.font):
        unit.kind = "code"
        return
    if looks_like_display_math(unit):
        unit.kind = "equation"
        return
    if BULLET.match(text):
        unit.kind = "list"
        return
    if columns.has_cells(unit, NUMERIC_CELL):
        unit.kind = "table"
        return
    small = style.size <= body.size - 1.2
    if small and unit.bbox[1] > 0.6 * height and not unit.data.get("heading_row"):
        unit.kind = "footnote"


# --- paragraphs and blocks --------------------------------------------------------------


def merge_paragraphs(units: list[Unit], body: Seg) -> list[Unit]:
    """Rejoin a paragraph PyMuPDF cut in two (superscripts, inline math change spacing)."""
    out: list[Unit] = []
    for unit in units:
        prev = out[-1] if out else None
        if prev is not None and _continues(prev, unit, body):
            prev.rows.extend(unit.rows)
            prev.label = prev.label or unit.label
            continue
        out.append(unit)
    return out


def _continues(a: Unit, b: Unit, body: Seg) -> bool:
    if a.kind == b.kind == "equation" and a.col == b.col:
        # fractions and equation numbers sit on their own baselines
        return b.bbox[1] - a.bbox[3] < 0.5 * body.size and not (a.label and b.label)
    if a.kind != b.kind or a.kind not in ("paragraph", "list", "footnote") or a.col != b.col:
        return False
    sa, sb = a.style, b.style
    if sa.size >= body.size + 2 and (sa.size, sa.font) == (sb.size, sb.font):
        # a display title set in two blocks
        return 0 <= b.bbox[1] - a.bbox[3] < 0.8 * sa.size
    if a.data.get("heading_row") or b.data.get("heading_row"):
        return False
    ax0, _, ax1, ay1 = a.bbox
    bx0, by0, bx1, _ = b.bbox
    size = a.style.size
    if by0 - ay1 > 0.8 * size or by0 < ay1 - 2 or abs(size - b.style.size) > 0.6:
        return False
    if BULLET.match(b.rows[0].text) or caption_label(b.rows[0].text):
        return False
    last_full = a.rows[-1].x1 >= max(ax1, bx1) - 1.5 * size
    first_flush = b.rows[0].x0 <= min(ax0, bx0) + 0.5 * size
    lower = b.rows[0].text[:1].islower()
    return last_full and (first_flush or lower)


def to_block(unit: Unit, page: int, trusted: bool, vocab: frozenset[str]) -> Block:
    style = unit.style
    # Unit.data holds what layout and tables put there: "rows" (cell texts per row),
    # "cells" (Cell per row) and "grid" (the built grid); mypy sees only `object`.
    rows: list[list[str]] = unit.data.get("rows", [])  # type: ignore[assignment]
    data: dict[str, object] | None = None
    if unit.kind == "table":
        # the Cell rows tables/fusion.py stored (Unit.data is typed `object`, as above)
        cells: list[list[Cell]] = unit.data.get("cells", [])  # type: ignore[assignment]
        rules: list[float] | None = unit.data.get("rules")  # type: ignore[assignment]
        grid = unit.data.get("grid") or build_grid(cells, header_count(cells, rules))
        # a grid (ruled.ruled_grid or grid.build_grid) is a dict of its fields
        data = {"rows": rows, "caption": unit.data.get("caption", ""), **grid}  # type: ignore[dict-item]
        text = "\n".join(" ".join(cells) for cells in rows)
    elif unit.kind == "code":
        text = "\n".join(r.text for r in unit.rows)
    elif any(r.text.endswith(("-", "\u00ad")) for r in unit.rows[:-1]):
        text = join_rows([r.text for r in unit.rows], vocab, collapsed=True)
    else:  # no line ends in a hyphen: the vocabulary decides nothing, the unit's own text
        text = unit.text
    if unit.kind == "equation":
        eq_text = equation_text(unit)
        data = {"number": equation_number(unit.label), "text": eq_text}
        if image_only(eq_text):
            data["image_only"] = True  # the crop shows it; the text would mislead
        elif unit.label:
            text = f"{eq_text} {unit.label.removeprefix('Eq. ')}"  # read as written
        else:
            text = eq_text
    segs = unit._segs()  # read only
    marks = [m for s in segs if s.marks for m in s.marks]
    if marks:
        data = {**(data or {}), "marks": marks}
    if unit.data.get("run_in"):
        data = {**(data or {}), "run_in": True}
    labels = [s.note for s in segs if s.note]
    if labels:
        data = {**(data or {}), "labels": labels}
    x0, y0, x1, y1 = unit.page_bbox
    return Block(
        ordinal=0,
        kind=unit.kind,
        page=page,
        bbox=(round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)),
        text=text,
        label=unit.label,
        font_size=round_size(style.size, 2),
        font_name=style.font,
        bold=style.bold,
        trusted=trusted,
        data=data,
    )
