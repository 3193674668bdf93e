"""Page geometry for the PDF reader: PyMuPDF lines, running heads, visual rows. Columns and
reading order are in columns.py; the Seg, Row and Unit they are made of in segments.py
(re-exported here)."""

# Pure functions over PyMuPDF's `get_text("dict")` output; nothing here opens files.

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any

from citewise.documents.pdf.footnotes import SMALLER, line_text
from citewise.documents.pdf.scripts import SCRIPT, stack_scripts
from citewise.documents.pdf.segments import Box as Box
from citewise.documents.pdf.segments import Row as Row
from citewise.documents.pdf.segments import Seg as Seg
from citewise.documents.pdf.segments import Unit as Unit
from citewise.documents.pdf.segments import union as union

BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|medi|\.B$|-B$|bd\b|cmbx|cmb\d", re.I)
MONO_NAME = re.compile(r"mono|courier|cmtt|consol|typewriter|\btt|inconsolata|menlo", re.I)
PAGE_NUMBER = re.compile(r"^(page\s*)?[\divxlc]{1,5}(\s*(of|/)\s*\d{1,5})?$", re.I)
BULLET = re.compile(r"^[•◦▪‣∙●○■□➢►–—]\s*\S")
SUBSET_TAG = re.compile(r"^[A-Z]{6}\+")
SUFFIX_NUMBER = re.compile(r"\+\d+$")
DIGITS = re.compile(r"\d+")
SPACES = re.compile(r"\s+")
HEADER_ZONE = 0.1  # fraction of page height at top and bottom where running heads live
RIGHTWARDS = (1.0, 0.0)  # a line's direction when it runs left to right
# a `level` line (no span below SCRIPT of the largest) has no mark (below SMALLER of its main)
NO_MARK_WHEN_LEVEL = SMALLER <= SCRIPT


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
    return SUFFIX_NUMBER.sub("", SUBSET_TAG.sub("", font))


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
    found, uneven = _page_lines(raw)
    merged = stack_scripts([f[1] for f in found], uneven)  # x_i^2: base, sub, sup
    marked = set(uneven) if NO_MARK_WHEN_LEVEL else set(range(len(found)))
    lines, weight = _inked_lines(found, merged, marked)
    main = weight.most_common(1)[0][0] if weight else (1, 0)
    if main == (9, 9):
        main = (1, 0)
    upright = main not in ((0, -1), (0, 1), (-1, 0))  # _turn leaves the boxes as they are
    segs: list[Seg] = []
    for bno, line, inked, ink, way, even in lines:
        if way != main:  # margin stamps and axis labels run across the text
            continue
        whole = line["spans"]
        # a run-in lead needs two inked spans, the first bold (most lines: not asked)
        first = inked[0]
        runs_in = len(inked) > 1 and is_bold(first["font"], first["flags"])
        for part in _run_in_parts(whole, inked) if runs_in else (whole,):
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


Line = dict[str, Any]  # a line of get_text("dict")
Span = dict[str, Any]
# (block number, line, its inked spans, their stripped lengths, their characters)
Found = tuple[int, Line, list[Span], list[int], int]
# (block number, line, its inked spans, their stripped lengths, direction, even)
Inked = tuple[int, Line, list[Span], list[int], tuple[int, int], bool]


def _page_lines(raw: dict[str, Any]) -> tuple[list[Found], list[int]]:
    """The page's text lines, each with its block number and ink (`_ink`), and the indices
    of those that are not `level` (a span set smaller: scripts and marks are looked for
    there only)."""
    found: list[Found] = []
    uneven: list[int] = []
    for bno, block in enumerate(raw.get("blocks", [])):
        if block.get("type") == 0:
            for line in block["lines"]:
                inked, ink, chars, even = _ink(line["spans"])
                if not even:
                    uneven.append(len(found))
                found.append((bno, line, inked, ink, chars))
    return found, uneven


def _ink(spans: list[Span]) -> tuple[list[Span], list[int], int, bool]:
    """The spans with ink, their stripped lengths, their characters, and whether the line
    is `level` (scripts.level, worked out in the same pass)."""
    if len(spans) == 1:  # most lines of a filing
        span = spans[0]
        text = span["text"]
        stripped = len(text.strip())
        even = bool(span["size"] > 0)
        return (spans, [stripped], len(text), even) if stripped else ([], [], 0, even)
    inked: list[Span] = []
    ink: list[int] = []
    chars = 0
    least = most = spans[0]["size"] if spans else 1.0
    for s in spans:
        size = s["size"]
        if size < least:
            least = size
        elif size > most:
            most = size
        text = s["text"]
        stripped = len(text.strip())
        if stripped:
            inked.append(s)
            ink.append(stripped)
            chars += len(text)
    return inked, ink, chars, bool(least > 0 and least >= SCRIPT * most)


def _inked_lines(
    found: list[Found], merged: list[Line | None], marked: set[int]
) -> tuple[list[Inked], Counter[tuple[int, int]]]:
    """Lines with ink: (block, line, inked spans, their stripped lengths, direction, even),
    and the characters set in each direction."""
    lines: list[Inked] = []
    weight: Counter[tuple[int, int]] = Counter()
    for k, ((bno, first, inked, ink, chars), line) in enumerate(zip(found, merged, strict=True)):
        if line is None:
            continue
        if line is not first:  # a stacked subscript joined it
            inked, ink, chars, _ = _ink(line["spans"])
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
    return lines, weight


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
    return SPACES.sub(" ", DIGITS.sub("#", text.lower())).strip()


def running_heads(pages: list[list[Seg]], heights: list[float]) -> list[set[int]]:
    """Indices per page of segments that are running headers/footers or page numbers."""
    zones: list[list[tuple[int, str]]] = []
    counts: Counter[str] = Counter()
    for segs, height in zip(pages, heights, strict=True):
        keys = []
        top, foot = HEADER_ZONE * height, (1 - HEADER_ZONE) * height
        for i, s in enumerate(segs):
            mid = (s.y0 + s.y1) / 2
            if mid < top or mid > foot:
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
