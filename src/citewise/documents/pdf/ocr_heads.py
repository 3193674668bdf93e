"""Running heads and feet of pages read by OCR, where the noise varies them page to page.

`layout.running_heads` knows a head by its exact text (digits masked) in the top or bottom
tenth of the page. A scan read by OCR defeats both: the same head reads "166 BRECCIA
-GASHES ." on one page and "BRECCIA-GASHES. 167" on the next (spaces, stops, the page
number on the outer side), and a scan's margins push it past the tenth. Here each page
read by OCR offers its outermost row at the top and at the bottom (within a fifth of the
page), and the row is a running head when
- a page number stands apart at one end of it (a segment of its own) and runs on from the
  one on the page before or after (166 then 167, on whichever side), the rest of the row
  a few words; or
- its letters, case, spaces and punctuation ignored, read nearly the same as the same
  edge's row on enough pages (as `layout.running_heads` counts: 2, or 40% of them).
Pages with a text layer of their own are left to `layout.running_heads`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from citewise.documents.pdf.layout import Seg, group_rows

# citewise's own OCR (ocr.words_to_dict), and the invisible font tesseract and OCRmyPDF
# lay over a scan
OCR_FONTS = frozenset({"OCR", "GlyphLessFont"})
EDGE = 0.2  # fraction of the page height at top and bottom where a scan's head may sit
FOLIO = re.compile(r"^\W*(\d{1,4})\W*$")  # OCR puts stops and dashes around page numbers
LETTERS = re.compile(r"[\W\d_]+")
MAX_WORDS = 8  # a head is a short title, an author or a journal, beside its page number
MIN_LETTERS, MAX_LETTERS = 4, 60
SIMILAR = 0.8  # difflib ratio of two readings of one head (one or two letters misread)


@dataclass(frozen=True)
class EdgeRow:
    """A page's outermost row at the top or the bottom."""

    segments: frozenset[int]  # their indices on the page
    folio: int | None  # a page number standing apart at one end
    key: str  # the rest's letters, lower-cased
    words: int  # the rest's words


def read_by_ocr(segs: list[Seg]) -> bool:
    """Every line of the page came from OCR."""
    return bool(segs) and all(s.font in OCR_FONTS for s in segs)


def running_heads(pages: list[list[Seg]], heights: list[float]) -> list[set[int]]:
    """Indices per page of the segments that are running heads or feet of pages read by
    OCR (empty sets for every other page)."""
    drop: list[set[int]] = [set() for _ in pages]
    scanned = [n for n, segs in enumerate(pages) if read_by_ocr(segs)]
    if len(scanned) < 2:
        return drop
    need = max(2.0, 0.4 * len(scanned))
    for top in (True, False):
        rows = {}
        for n in scanned:
            row = _edge_row(pages[n], heights[n], top)
            if row is not None:
                rows[n] = row
        recurring = _recurring([r for r in rows.values() if _head_sized(r)], need)
        for n, row in rows.items():
            if _runs_on(n, row, rows) or (_head_sized(row) and row.key in recurring):
                drop[n] |= row.segments
    return drop


def _edge_row(segs: list[Seg], height: float, top: bool) -> EdgeRow | None:
    """The outermost row with two letters or digits, when it lies within EDGE of the edge."""
    index = {id(s): i for i, s in enumerate(segs)}
    rows = [r for r in group_rows(segs) if sum(c.isalnum() for c in r.text) >= 2]
    if not rows or (len(rows) == 1 and not top):  # a lone row is the page's top one
        return None
    row = rows[0] if top else rows[-1]
    middle = (row.y0 + row.y1) / 2
    if (middle > EDGE * height) if top else (middle < (1 - EDGE) * height):
        return None
    segments = row.segs
    folio = None
    for end in (segments[0], segments[-1]) if len(segments) > 1 else (segments[0],):
        number = FOLIO.match(end.text)
        if number:
            folio = int(number.group(1))
            segments = [s for s in segments if s is not end]
            break
    rest = " ".join(s.text for s in segments)
    key = LETTERS.sub("", rest.lower())
    return EdgeRow(frozenset(index[id(s)] for s in row.segs), folio, key, len(rest.split()))


def _runs_on(n: int, row: EdgeRow, rows: dict[int, EdgeRow]) -> bool:
    """The row's page number follows the one on the page before or after it."""
    if row.folio is None or row.words > MAX_WORDS or len(row.key) > MAX_LETTERS:
        return False
    for m in (n - 1, n + 1):
        other = rows.get(m)
        if other is not None and other.folio is not None and other.folio - row.folio == m - n:
            return True
    return False


def _head_sized(row: EdgeRow) -> bool:
    return MIN_LETTERS <= len(row.key) <= MAX_LETTERS and row.words <= MAX_WORDS


def _recurring(rows: list[EdgeRow], need: float) -> set[str]:
    """The keys that read nearly the same (letters only) on `need` rows, their own
    included; each distinct reading is compared once."""
    counts = Counter(row.key for row in rows)
    found = set()
    for key in counts:
        alike = sum(n for other, n in counts.items() if other == key or _similar(other, key))
        if alike >= need:
            found.add(key)
    return found


def _similar(a: str, b: str) -> bool:
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.real_quick_ratio() >= SIMILAR and matcher.ratio() >= SIMILAR
