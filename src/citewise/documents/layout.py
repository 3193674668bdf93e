"""Page geometry for the PDF reader: PyMuPDF lines, running heads, visual rows. Columns and
reading order are in columns.py."""

# Vocabulary: a `Seg` is one PyMuPDF line (a run of spans on one baseline), a `Row` is the
# segments sharing a visual baseline, a `Unit` is a stack of rows that belongs together
# (a PyMuPDF block, later split into paragraphs, headings, table rows). Pure functions over
# PyMuPDF's `get_text("dict")` output; nothing here opens files.

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from citewise.documents.footnotes import SMALLER, line_text
from citewise.documents.hyphenation import clean, join_rows
from citewise.documents.scripts import SCRIPT, level, stack_scripts

BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|medi|\.B$|-B$|bd\b|cmbx|cmb\d", re.I)
MONO_NAME = re.compile(r"mono|courier|cmtt|consol|typewriter|\btt|inconsolata|menlo", re.I)
PAGE_NUMBER = re.compile(r"^(page\s*)?[\divxlc]{1,5}(\s*(of|/)\s*\d{1,5})?$", re.I)
BULLET = re.compile(r"^[•◦▪‣∙●○■□➢►–—]\s*\S")
HEADER_ZONE = 0.1  # fraction of page height at top and bottom where running heads live
Box = tuple[float, float, float, float]
RIGHTWARDS = (1.0, 0.0)  # a line's direction when it runs left to right
# a `level` line (no span below SCRIPT of the largest) has no mark (below SMALLER of its main)
NO_MARK_WHEN_LEVEL = SMALLER <= SCRIPT


@dataclass
class Seg:
    """One PyMuPDF line: text on one baseline with its dominant font."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    font: str
    bold: bool
    block: int
    orig: Box = (0.0, 0.0, 0.0, 0.0)  # box on the real page (differs on turned pages)
    marks: list[str] = field(default_factory=list)  # footnote marks taken out of the text
    note: str | None = None  # the label a footnote line opens with ('10')

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass
class Row:
    """Segments sharing a visual baseline, left to right.

    Its text, style and extent are worked out once (the parser asks for them many times):
    a row's segments never change after it is made, except a drop cap joining the first
    one (page_blocks.join_drop_caps), which calls `forget`.
    """

    segs: list[Seg]
    _text: str | None = field(default=None, init=False, repr=False, compare=False)
    _style: Seg | None = field(default=None, init=False, repr=False, compare=False)
    _box: Box | None = field(default=None, init=False, repr=False, compare=False)
    _gaps: list[float] | None = field(default=None, init=False, repr=False, compare=False)
    _widest: float | None = field(default=None, init=False, repr=False, compare=False)

    def forget(self) -> None:
        """Drop what was worked out from the segments (one of their texts changed)."""
        self._text = self._style = None

    def _extent(self) -> Box:
        box = self._box
        if box is None:
            segs = self.segs
            if len(segs) == 1:
                s = segs[0]
                box = (s.x0, s.y0, s.x1, s.y1)
            else:
                box = (
                    min([s.x0 for s in segs]),
                    min([s.y0 for s in segs]),
                    max([s.x1 for s in segs]),
                    max([s.y1 for s in segs]),
                )
            self._box = box
        return box

    @property
    def x0(self) -> float:
        return (self._box or self._extent())[0]

    @property
    def x1(self) -> float:
        return (self._box or self._extent())[2]

    @property
    def y0(self) -> float:
        return (self._box or self._extent())[1]

    @property
    def y1(self) -> float:
        return (self._box or self._extent())[3]

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            segs = self.segs
            if len(segs) == 1:
                text = clean(segs[0].text)
            else:
                parts: list[str] = []
                prev: Seg | None = None
                for s in segs:
                    # kerning splits words into segments; only a visible gap is a space
                    sep = "" if prev is None or s.x0 - prev.x1 < 0.12 * s.size else " "
                    parts += (sep, s.text)
                    prev = s
                text = clean("".join(parts))
            self._text = text
        return text

    @property
    def style(self) -> Seg:
        """The segment carrying most characters: it stands for the row's font."""
        style = self._style
        if style is None:
            segs = self.segs
            style = segs[0] if len(segs) == 1 else max(segs, key=lambda s: len(s.text.strip()))
            self._style = style
        return style

    def gaps(self) -> list[float]:
        """Horizontal gaps between neighbouring segments (the list is kept: not to be changed)."""
        gaps = self._gaps
        if gaps is None:
            segs = self.segs
            gaps = self._gaps = [b.x0 - a.x1 for a, b in zip(segs, segs[1:], strict=False)]
        return gaps

    def widest(self) -> float:
        """The widest gap (-inf for one segment): `any(g >= t for g in gaps())` is
        `widest() >= t`."""
        wide = self._widest
        if wide is None:
            wide = -math.inf
            for g in self.gaps():
                if g > wide:
                    wide = g
            self._widest = wide
        return wide


@dataclass
class Unit:
    """Rows that belong together; `col` is L, R or F (full width) on the page.

    Rows are only ever added (merges extend `rows`), so what is worked out from them
    (segments, boxes, style, text) is kept until their number changes, or `forget`.
    """

    rows: list[Row]
    col: str = "F"
    kind: str = "paragraph"
    label: str | None = None
    data: dict[str, object] = field(default_factory=dict)
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    _memo_rows: int = field(default=-1, init=False, repr=False, compare=False)

    def forget(self) -> None:
        """Drop what was worked out from the rows (a row's text changed)."""
        self._memo_rows = -1

    def _known(self) -> dict[str, Any]:
        memo = self._memo
        if self._memo_rows != len(self.rows):
            memo = self._memo = {}
            self._memo_rows = len(self.rows)
        return memo

    @property
    def bbox(self) -> Box:
        memo = self._known()
        box: Box | None = memo.get("bbox")
        if box is None:
            rows = self.rows
            try:  # a row keeps its segments' extent: the rows' extents are theirs
                box = rows[0]._extent() if len(rows) == 1 else union([r._extent() for r in rows])
            except (IndexError, ValueError):  # no rows, or a row without segments
                box = union([(s.x0, s.y0, s.x1, s.y1) for s in self._segs()])
            memo["bbox"] = box
        return box

    @property
    def page_bbox(self) -> Box:
        """The box in real page coordinates (differs from bbox on rotated pages)."""
        memo = self._known()
        box: Box | None = memo.get("page_bbox")
        if box is None:
            box = memo["page_bbox"] = union([s.orig for s in self._segs()])
        return box

    def _segs(self) -> list[Seg]:
        """The rows' segments in order (the memo's own list: not to be changed)."""
        memo = self._known()
        segs: list[Seg] | None = memo.get("segs")
        if segs is None:
            rows = self.rows
            segs = list(rows[0].segs) if len(rows) == 1 else [s for r in rows for s in r.segs]
            memo["segs"] = segs
        return segs

    @property
    def segs(self) -> list[Seg]:
        return list(self._segs())

    @property
    def style(self) -> Seg:
        """Dominant segment style weighted by characters."""
        memo = self._known()
        style: Seg | None = memo.get("style")
        if style is None:
            weight: dict[tuple[float, str, bool], int] = {}
            for s in self._segs():
                key = (round(s.size, 1), s.font, s.bold)
                weight[key] = weight.get(key, 0) + len(s.text.strip())
            # the first key with the most characters (as Counter.most_common(1) picks)
            size, font, bold = max(weight, key=weight.__getitem__)
            style = memo["style"] = Seg(0, 0, 0, 0, "", size, font, bold, -1)
        return style

    @property
    def text(self) -> str:
        memo = self._known()
        text: str | None = memo.get("text")
        if text is None:
            text = memo["text"] = join_rows([r.text for r in self.rows])
        return text


# --- geometry -------------------------------------------------------------------------


def union(boxes: list[Box]) -> Box:
    if len(boxes) == 1:
        x0, y0, x1, y1 = boxes[0]
        return x0, y0, x1, y1
    return (
        min([b[0] for b in boxes]),
        min([b[1] for b in boxes]),
        max([b[2] for b in boxes]),
        max([b[3] for b in boxes]),
    )


# --- lines from PyMuPDF -----------------------------------------------------------------


# a document uses a handful of fonts over thousands of lines: each name is read once
@functools.lru_cache(maxsize=1024)
def is_bold(font: str, flags: int) -> bool:
    return bool(flags & 16) or bool(BOLD_NAME.search(font))


@functools.lru_cache(maxsize=1024)
def is_mono(font: str) -> bool:
    return bool(MONO_NAME.search(font))


@functools.lru_cache(maxsize=1024)
def font_family(font: str) -> str:
    """Drop subset prefixes and encoding suffixes: 'ABCDEF+Times+20' -> 'Times'."""
    return re.sub(r"\+\d+$", "", re.sub(r"^[A-Z]{6}\+", "", font))


def _turn(box: Box, way: tuple[int, int], w: float, h: float) -> Box:
    """Map a box into the frame where the text runs left to right."""
    x0, y0, x1, y1 = box
    if way == (0, -1):  # runs upwards: the page was turned left
        return h - y1, x0, h - y0, x1
    if way == (0, 1):
        return y0, w - x1, y1, w - x0
    if way == (-1, 0):
        return w - x1, h - y1, w - x0, h - y0
    return box


def page_segments(
    raw: dict[str, Any], width: float, height: float
) -> tuple[list[Seg], float, float]:
    """Text lines of one page (from get_text('dict')) running in the page's main direction.

    Landscape tables are often set on a turned page: lines are rotated into a
    left-to-right frame, whose (width, height) is returned; `Seg.orig` keeps the real box.
    """
    found: list[tuple[int, dict[str, Any]]] = []
    uneven: list[int] = []  # lines with a span set smaller: scripts and marks are looked for
    for bno, block in enumerate(raw.get("blocks", [])):
        if block.get("type") == 0:
            for line in block["lines"]:
                spans = line["spans"]
                if spans and not level(spans):
                    uneven.append(len(found))
                found.append((bno, line))
    merged = stack_scripts([line for _, line in found], uneven)  # x_i^2: base, sub, sup
    marked = set(uneven) if NO_MARK_WHEN_LEVEL else set(range(len(found)))
    lines = []
    weight: Counter[tuple[int, int]] = Counter()
    for k, ((bno, _), line) in enumerate(zip(found, merged, strict=True)):
        if line is None:
            continue
        spans = line["spans"]
        if len(spans) == 1:  # most lines of a filing
            text = spans[0]["text"]
            stripped = len(text.strip())
            if not stripped:
                continue
            inked, ink, chars = spans, [stripped], len(text)
        else:
            inked, ink, chars = [], [], 0  # spans with ink, stripped lengths, characters
            for s in spans:
                text = s["text"]
                stripped = len(text.strip())
                if stripped:
                    inked.append(s)
                    ink.append(stripped)
                    chars += len(text)
            if not inked:
                continue
        d = line.get("dir", RIGHTWARDS)
        if d == RIGHTWARDS:
            way = (1, 0)
        else:
            dx, dy = d
            way = (round(dx), round(dy)) if max(abs(dx), abs(dy)) > 0.95 else (9, 9)
        lines.append((bno, line, inked, ink, way, k not in marked))
        weight[way] += chars
    main = weight.most_common(1)[0][0] if weight else (1, 0)
    if main == (9, 9):
        main = (1, 0)
    upright = main not in ((0, -1), (0, 1), (-1, 0))  # _turn leaves the boxes as they are
    segs: list[Seg] = []
    for bno, line, inked, ink, way, even in lines:
        if way != main:  # margin stamps and axis labels run across the text
            continue
        whole = line["spans"]
        for part in _run_in_parts(whole, inked):
            if part is whole:  # the whole line (a run-in lead is rare)
                text, marks, note = line_text(part, inked, even)
                top = inked[0] if len(inked) == 1 else inked[ink.index(max(ink))]
                box = tuple(line["bbox"])
            else:
                live = [s for s in part if s["text"].strip()]
                text, marks, note = line_text(part, live, even)
                top = max(live, key=lambda s: len(s["text"].strip()))
                box = union([tuple(s["bbox"]) for s in live])  # the space is a gap
            x0, y0, x1, y1 = box if upright else _turn(box, main, width, height)
            font = font_family(top["font"])
            bold = is_bold(font, top["flags"])
            seg = Seg(x0, y0, x1, y1, text, top["size"], font, bold, bno, box, marks, note)
            segs.append(seg)
    turned = main in ((0, 1), (0, -1))
    return segs, (height if turned else width), (width if turned else height)


def _run_in_parts(
    spans: list[dict[str, Any]], live: list[dict[str, Any]]
) -> list[list[dict[str, Any]]]:
    """'**Papers.** We obtain…' in one PyMuPDF line: the bold lead-in becomes its own
    segment (headings.split_run_ins decides whether it is a heading). `live`: the spans
    with ink."""
    if len(live) < 2 or not is_bold(live[0]["font"], live[0]["flags"]):
        return [spans]
    cut = next(
        (
            i
            for i, s in enumerate(spans)
            if s["text"].strip() and not is_bold(s["font"], s["flags"])
        ),
        0,
    )
    lead = "".join(s["text"] for s in spans[:cut]).strip()
    rest = "".join(s["text"] for s in spans[cut:]).strip()
    if not cut or not lead.endswith(".") or len(lead) < 3 or not rest[:1].isupper():
        return [spans]
    return [spans[:cut], spans[cut:]]


# --- running heads, rows, columns, reading order -----------------------------------------


def mask(text: str) -> str:
    """Header key: lower-case, digits masked, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", text.lower())).strip()


def running_heads(pages: list[list[Seg]], heights: list[float]) -> list[set[int]]:
    """Indices per page of segments that are running headers/footers or page numbers."""
    zones: list[list[tuple[int, str]]] = []
    counts: Counter[str] = Counter()
    for segs, height in zip(pages, heights, strict=True):
        keys = []
        for i, s in enumerate(segs):
            mid = (s.y0 + s.y1) / 2
            if mid < HEADER_ZONE * height or mid > (1 - HEADER_ZONE) * height:
                keys.append((i, mask(s.text)))
        zones.append(keys)
        counts.update({k for _, k in keys})
    need = max(2.0, 0.4 * len(pages))
    drop: list[set[int]] = []
    for keys in zones:
        drop.append(
            {
                i
                for i, k in keys
                if (len(pages) > 1 and counts[k] >= need) or PAGE_NUMBER.match(k.replace("#", "1"))
            }
        )
    return drop


def group_rows(segs: list[Seg]) -> list[Row]:
    """Cluster segments into visual rows by vertical overlap, top to bottom."""
    rows: list[list[Seg]] = []
    top = bottom = 0.0  # extent of the last row, kept as it grows (not rescanned per segment)
    for s in sorted(segs, key=_middle):
        y0, y1 = s.y0, s.y1
        if rows:
            overlap = (bottom if bottom < y1 else y1) - (top if top > y0 else y0)
            tall = y1 - y0
            if overlap > 0.5 * (tall if tall < bottom - top else bottom - top):
                rows[-1].append(s)
                if y0 < top:
                    top = y0
                if y1 > bottom:
                    bottom = y1
                continue
        rows.append([s])
        top, bottom = y0, y1
    return [Row(r if len(r) == 1 else sorted(r, key=_left)) for r in rows]


def _middle(s: Seg) -> float:
    return (s.y0 + s.y1) / 2


def _left(s: Seg) -> float:
    return s.x0
