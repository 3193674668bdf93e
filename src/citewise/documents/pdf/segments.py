"""The reader's page model: segments, rows and units, with what is worked out from them
once (a row's text, style and extent; a unit's boxes, style and text).

Vocabulary: a `Seg` is one PyMuPDF line (a run of spans on one baseline), a `Row` is the
segments sharing a visual baseline, a `Unit` is a stack of rows that belongs together
(a PyMuPDF block, later split into paragraphs, headings, table rows). They are made in
layout.py and columns.py; `layout` re-exports them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from citewise.documents.pdf.hyphenation import clean, join_rows

Box = tuple[float, float, float, float]


@dataclass(slots=True)  # made by the thousand, read millions of times
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


@dataclass(slots=True)  # made by the thousand, read millions of times
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
            if len(self.segs) > 1:  # one segment (most rows): no gap
                for g in self.gaps():
                    if g > wide:
                        wide = g
            self._widest = wide
        return wide


@dataclass(slots=True)  # made by the thousand, read millions of times
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
    # worked out from the rows while their number is `_seen` (see `_check`)
    _seen: int = field(default=-1, init=False, repr=False, compare=False)
    _bbox: Box | None = field(default=None, init=False, repr=False, compare=False)
    _page_bbox: Box | None = field(default=None, init=False, repr=False, compare=False)
    _seg_list: list[Seg] | None = field(default=None, init=False, repr=False, compare=False)
    _style: Seg | None = field(default=None, init=False, repr=False, compare=False)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def forget(self) -> None:
        """Drop what was worked out from the rows (a row's text changed)."""
        self._seen = -1

    def _check(self) -> None:
        """Forget what was worked out when rows were added since (or `forget` was called)."""
        if self._seen != len(self.rows):
            self._bbox = self._page_bbox = self._seg_list = self._style = self._text = None
            self._seen = len(self.rows)

    @property
    def bbox(self) -> Box:
        box = self._bbox
        if box is None or self._seen != len(self.rows):
            self._check()
            rows = self.rows
            try:  # a row keeps its segments' extent: the rows' extents are theirs
                box = rows[0]._extent() if len(rows) == 1 else union([r._extent() for r in rows])
            except (IndexError, ValueError):  # no rows, or a row without segments
                box = union([(s.x0, s.y0, s.x1, s.y1) for s in self._segs()])
            self._bbox = box
        return box

    @property
    def page_bbox(self) -> Box:
        """The box in real page coordinates (differs from bbox on rotated pages)."""
        box = self._page_bbox
        if box is None or self._seen != len(self.rows):
            self._check()
            box = self._page_bbox = union([s.orig for s in self._segs()])
        return box

    def _segs(self) -> list[Seg]:
        """The rows' segments in order (the memo's own list: not to be changed)."""
        segs = self._seg_list
        if segs is None or self._seen != len(self.rows):
            self._check()
            rows = self.rows
            segs = list(rows[0].segs) if len(rows) == 1 else [s for r in rows for s in r.segs]
            self._seg_list = segs
        return segs

    @property
    def segs(self) -> list[Seg]:
        return list(self._segs())

    @property
    def style(self) -> Seg:
        """Dominant segment style weighted by characters."""
        style = self._style
        if style is None or self._seen != len(self.rows):
            self._check()
            segs = self._segs()
            # one segment (a heading, a caption, a table row), or all set alike (most
            # paragraphs): the first segment's style, with no characters to weigh
            if segs and _alike(segs):
                one = segs[0]
                style = self._style = Seg(
                    0, 0, 0, 0, "", round_size(one.size, 1), one.font, one.bold, -1
                )
                return style
            weight: dict[tuple[float, str, bool], int] = {}
            get = weight.get
            for s in segs:
                key = (round_size(s.size, 1), s.font, s.bold)
                weight[key] = get(key, 0) + len(s.text.strip())
            # the first key with the most characters (as Counter.most_common(1) picks)
            size, font, bold = max(weight, key=weight.__getitem__)
            style = self._style = Seg(0, 0, 0, 0, "", size, font, bold, -1)
        return style

    @property
    def text(self) -> str:
        text = self._text
        if text is None or self._seen != len(self.rows):
            self._check()
            text = self._text = join_rows([r.text for r in self.rows], collapsed=True)
        return text


def _alike(segs: list[Seg]) -> bool:
    """Every segment set in the first one's size, font and weight."""
    one = segs[0]
    size, font, bold = one.size, one.font, one.bold
    return all(s.size == size and s.font == font and s.bold == bold for s in segs)


# --- sizes and geometry ---------------------------------------------------------------

# round(size, digits) by digits: a document sets few distinct sizes, and round() with digits
# goes through a decimal string (~10x a dict look-up); bounded against hostile files
_ROUNDED: dict[int, dict[float, float]] = {1: {}, 2: {}}
ROUNDED_LIMIT = 4096


def round_size(size: float, digits: int) -> float:
    """round(size, digits) (digits 1 or 2), each distinct float size rounded once."""
    if type(size) is not float:  # an int rounds to an int: not mixed with equal floats
        return round(size, digits)
    memo = _ROUNDED[digits]
    done = memo.get(size)
    if done is None:
        done = round(size, digits)
        if size and len(memo) < ROUNDED_LIMIT:  # 0.0 and -0.0 are one key: neither kept
            memo[size] = done
    return done


def union(boxes: list[Box]) -> Box:
    if len(boxes) == 1:
        x0, y0, x1, y1 = boxes[0]
        return x0, y0, x1, y1
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)  # no boxes: ValueError, as min([]) gives
    return min(x0s), min(y0s), max(x1s), max(y1s)
