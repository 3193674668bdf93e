"""Page geometry and text helpers for the PDF reader.

Text joining and hyphenation, lines from PyMuPDF, running heads, columns and reading
order, table rows, heading and caption patterns. Pure functions over PyMuPDF's
`get_text("dict")` output; nothing here opens files.

Vocabulary: a `Seg` is one PyMuPDF line (a run of spans on one baseline), a `Row` is the
segments sharing a visual baseline, a `Unit` is a stack of rows that belongs together
(a PyMuPDF block, later split into paragraphs, headings, table rows).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field

BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|medi|\.B$|-B$|bd\b|cmbx|cmb\d", re.I)
MONO_NAME = re.compile(r"mono|courier|cmtt|consol|typewriter|\btt|inconsolata|menlo", re.I)
PAGE_NUMBER = re.compile(r"^(page\s*)?[\divxlc]{1,5}(\s*(of|/)\s*\d{1,5})?$", re.I)
SPACING_ACCENTS = {"¨": "\u0308", "´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "˜": "\u0303"}
HEADER_ZONE = 0.1  # fraction of page height at top and bottom where running heads live
Box = tuple[float, float, float, float]
Cell = tuple[float, float, str]  # x0, x1, text


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

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass
class Row:
    """Segments sharing a visual baseline, left to right."""

    segs: list[Seg]

    @property
    def x0(self) -> float:
        return min(s.x0 for s in self.segs)

    @property
    def x1(self) -> float:
        return max(s.x1 for s in self.segs)

    @property
    def y0(self) -> float:
        return min(s.y0 for s in self.segs)

    @property
    def y1(self) -> float:
        return max(s.y1 for s in self.segs)

    @property
    def text(self) -> str:
        out = ""
        prev: Seg | None = None
        for s in self.segs:
            # kerning splits words into segments; only a visible gap is a space
            sep = "" if prev is None or s.x0 - prev.x1 < 0.12 * s.size else " "
            out += sep + s.text
            prev = s
        return clean(out)

    @property
    def style(self) -> Seg:
        """The segment carrying most characters: it stands for the row's font."""
        return max(self.segs, key=lambda s: len(s.text.strip()))

    def gaps(self) -> list[float]:
        return [b.x0 - a.x1 for a, b in zip(self.segs, self.segs[1:], strict=False)]


@dataclass
class Unit:
    """Rows that belong together; `col` is L, R or F (full width) on the page."""

    rows: list[Row]
    col: str = "F"
    kind: str = "paragraph"
    label: str | None = None
    data: dict[str, object] = field(default_factory=dict)

    @property
    def bbox(self) -> Box:
        return union([(s.x0, s.y0, s.x1, s.y1) for s in self.segs])

    @property
    def page_bbox(self) -> Box:
        """The box in real page coordinates (differs from bbox on rotated pages)."""
        return union([s.orig for s in self.segs])

    @property
    def segs(self) -> list[Seg]:
        return [s for r in self.rows for s in r.segs]

    @property
    def style(self) -> Seg:
        """Dominant segment style weighted by characters."""
        weight: Counter[tuple[float, str, bool]] = Counter()
        for s in self.segs:
            weight[(round(s.size, 1), s.font, s.bold)] += len(s.text.strip())
        (size, font, bold), _ = weight.most_common(1)[0]
        return Seg(0, 0, 0, 0, "", size, font, bold, -1)

    @property
    def text(self) -> str:
        return join_rows([r.text for r in self.rows])


# --- text -------------------------------------------------------------------------------


def union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def clean(text: str) -> str:
    """Collapse whitespace and fold spacing accents (F¨arber -> Färber)."""
    if any(a in text for a in SPACING_ACCENTS):
        text = re.sub(
            r"([¨´`ˆ˜])\s?([A-Za-z])", lambda m: m.group(2) + SPACING_ACCENTS[m.group(1)], text
        )
        text = unicodedata.normalize("NFC", text)
    return re.sub(r"\s+", " ", text).strip()


def join_rows(lines: list[str], vocab: frozenset[str] = frozenset()) -> str:
    """Join line texts with spaces, repairing words hyphenated at line ends."""
    out = ""
    for line in lines:
        line = " ".join(line.split())
        if not line:
            continue
        out = join_hyphenated(out, line, vocab) if out else line
    return out


def join_hyphenated(left: str, right: str, vocab: frozenset[str] = frozenset()) -> str:
    """'implemen-' + 'tation' -> 'implementation'; 'state-of-the-' + 'art' keeps hyphens.

    `vocab` holds the document's own words (lower-case): when the joined word occurs
    elsewhere unbroken ('MrBayes') the hyphen goes, when it occurs hyphenated it stays.
    """
    if left.endswith("\u00ad"):
        return left[:-1] + right
    if not left.endswith("-") or left.endswith((" -", "--")):
        return f"{left} {right}"
    fragment = re.split(r"[\s/(\[]", left[:-1])[-1]
    head = re.match(r"[^\W_]+", right)
    if fragment and head and fragment.replace("-", "").isalnum():
        whole = (fragment + head.group(0)).lower()
        hyphenated = (fragment + "-" + head.group(0)).lower()
        if whole in vocab and hyphenated not in vocab:
            return left[:-1] + right
        if hyphenated in vocab:
            return left + right
    # otherwise drop the hyphen only for a plain word broken by the typesetter
    if fragment.isalpha() and right[:1].islower():
        return left[:-1] + right
    return left + right


def vocabulary(texts: list[str]) -> frozenset[str]:
    """Lower-case words (hyphenated compounds too) seen in the document's lines."""
    words: set[str] = set()
    for text in texts:
        text = re.sub(r"\S+-$", "", text)  # a word broken at the line end is not a word
        words.update(w.lower() for w in re.findall(r"[^\W_][\w-]*[^\W_]", text))
    return frozenset(words)


# --- lines from PyMuPDF -----------------------------------------------------------------


def is_bold(font: str, flags: int) -> bool:
    return bool(flags & 16) or bool(BOLD_NAME.search(font))


def is_mono(font: str) -> bool:
    return bool(MONO_NAME.search(font))


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


def page_segments(raw: dict, width: float, height: float) -> tuple[list[Seg], float, float]:
    """Text lines of one page (from get_text('dict')) running in the page's main direction.

    Landscape tables are often set on a turned page: lines are rotated into a
    left-to-right frame, whose (width, height) is returned; `Seg.orig` keeps the real box.
    """
    lines = []
    weight: Counter[tuple[int, int]] = Counter()
    for bno, block in enumerate(raw.get("blocks", [])):
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            spans = [s for s in line["spans"] if s["text"].strip()]
            if spans:
                dx, dy = line.get("dir", (1.0, 0.0))
                way = (round(dx), round(dy)) if max(abs(dx), abs(dy)) > 0.95 else (9, 9)
                lines.append((bno, line, spans, way))
                weight[way] += sum(len(s["text"]) for s in spans)
    main = weight.most_common(1)[0][0] if weight else (1, 0)
    if main == (9, 9):
        main = (1, 0)
    segs: list[Seg] = []
    for bno, line, spans, way in lines:
        if way != main:  # margin stamps and axis labels run across the text
            continue
        text = "".join(s["text"] for s in line["spans"]).strip()
        top = max(spans, key=lambda s: len(s["text"].strip()))
        box = tuple(line["bbox"])
        x0, y0, x1, y1 = _turn(box, main, width, height)
        font = font_family(top["font"])
        seg = Seg(x0, y0, x1, y1, text, top["size"], font, is_bold(font, top["flags"]), bno, box)
        segs.append(seg)
    turned = main in ((0, 1), (0, -1))
    return segs, (height if turned else width), (width if turned else height)


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
    for s in sorted(segs, key=lambda s: (s.y0 + s.y1) / 2):
        if rows:
            last = rows[-1]
            top, bottom = min(t.y0 for t in last), max(t.y1 for t in last)
            overlap = min(bottom, s.y1) - max(top, s.y0)
            if overlap > 0.5 * min(s.height, bottom - top):
                last.append(s)
                continue
        rows.append([s])
    return [Row(sorted(r, key=lambda s: s.x0)) for r in rows]


def column_layout(segs: list[Seg], width: float) -> tuple[bool, float, float]:
    """(two_columns, gutter x, tolerance): two columns when column text sits on both sides."""
    if not segs:
        return False, width / 2, 0.0
    lo = min(s.x0 for s in segs)
    hi = max(s.x1 for s in segs)
    mid = (lo + hi) / 2
    left = right = 0
    for s in segs:
        wide = s.x1 - s.x0 > 0.25 * (hi - lo) and len(s.text) > 25
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
    wide = [r for r in rows if any(g >= 1.5 * size for g in r.gaps())]
    if numeric is not None:
        wide += [
            r
            for r in rows
            if r not in wide
            and any(g >= 0.8 * size for g in r.gaps())
            and any(numeric.match(s.text) for s in r.segs[1:])
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
    rows = min(len(group_rows(left)), len(group_rows(right)))
    sizes = abs(Unit(group_rows(left)).style.size - Unit(group_rows(right)).style.size)
    # table rows have cells on both sides of the gutter on every line
    if shared >= 0.6 * rows and sizes < 1.0:
        return [segs]
    return [left, right]


def _split_by_gap(rows: list[Row]) -> list[list[Row]]:
    """Split a block where rows are far apart vertically (a fused block)."""
    chunks: list[list[Row]] = [[rows[0]]]
    for prev, row in zip(rows, rows[1:], strict=False):
        if row.y0 - prev.y1 > 1.5 * max(prev.style.size, row.style.size):
            chunks.append([])
        chunks[-1].append(row)
    return chunks


def order_units(units: list[Unit]) -> list[Unit]:
    """Reading order: full-width units close a band; a band reads left column, then right."""
    out: list[Unit] = []
    left: list[Unit] = []
    right: list[Unit] = []
    full: list[Unit] = []
    for unit in sorted(units, key=lambda u: u.bbox[1]):
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
    ordered = sorted(units, key=lambda u: u.bbox[1])
    out: list[Unit] = []
    i = 0
    while i < len(ordered):
        j = i + 1
        first = ordered[i].rows[0]
        while j < len(ordered) and ordered[j].bbox[1] < first.y0 + 0.6 * first.style.size:
            j += 1
        out.extend(sorted(ordered[i:j], key=lambda u: u.bbox[0]))
        i = j
    return out


# --- tables -------------------------------------------------------------------------------


def table_rows(segs: list[Seg], numeric: re.Pattern[str]) -> list[list[str]]:
    """Table text as rows of cells; lines continuing a wrapped cell join their row."""
    rows = group_rows(segs)
    if not rows:
        return []
    left = min(r.x0 for r in rows)
    gaps = [b.y0 - a.y1 for a, b in zip(rows, rows[1:], strict=False)]
    # wrapped cells sit closer than rows do; only trust that when spacing is bimodal
    split = (min(gaps) + max(gaps)) / 2 if gaps and max(gaps) - min(gaps) > 2.5 else -1e9
    out: list[list[Cell]] = []
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
            continue
        above = out[-1]
        for (x0, x1, text), k in zip(cells, under, strict=True):
            a0, a1, atext = above[k]
            above[k] = (min(a0, x0), max(a1, x1), join_rows([atext, text]))
    return [[c[2] for c in cells] for cells in out]


def _cells_under(cells: list[Cell], above: list[Cell]) -> list[int] | None:
    """For each cell, the one distinct cell above it that it overlaps well; else None."""
    picks: list[int] = []
    for x0, x1, _ in cells:
        best, k = max(
            ((min(x1, a[1]) - max(x0, a[0]), j) for j, a in enumerate(above)), default=(0, -1)
        )
        if best < 0.3 * min(x1 - x0, above[k][1] - above[k][0]) or k in picks:
            return None
        picks.append(k)
    return picks


# --- headings and captions ----------------------------------------------------------------

NUMBERING = re.compile(r"^(?:(\d+(?:\.\d+)*)\.?|([A-Z](?:\.\d+)+)\.?|([A-Z])\.|([IVX]+)\.)\s+\S")
KNOWN_HEADINGS = {
    "abstract",
    "introduction",
    "references",
    "bibliography",
    "literature cited",
    "acknowledgments",
    "acknowledgements",
    "acknowledgment",
    "acknowledgement",
    "conclusion",
    "conclusions",
    "methods",
    "materials and methods",
    "methodology",
    "results",
    "discussion",
    "results and discussion",
    "background",
    "appendix",
    "appendices",
    "related work",
    "limitations",
    "future work",
    "evaluation",
    "experiments",
    "summary",
    "competing interests",
    "funding",
    "author contributions",
    "authors' contributions",
    "data availability",
    "ethics statement",
    "keywords",
    "conclusions and future work",
    "supplementary material",
    "declarations",
}
REFERENCE_HEADINGS = {"references", "bibliography", "literature cited", "works cited"}
CAPTION = re.compile(
    r"^(Table|TABLE|Tab\.|Figure|FIGURE|Fig\.|FIG\.|Supplementary (?:Table|Figure))"
    r"\s*(S?\d+[a-z]?|[IVX]+)\b"
)


def heading_name(text: str) -> str:
    """Heading text without numbering or trailing colon, lower-case."""
    name = re.sub(r"^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVX]+)\.?\s+", "", text.strip())
    return name.rstrip(":.").strip().lower().replace("’", "'")


def is_known_heading(text: str) -> bool:
    return heading_name(text) in KNOWN_HEADINGS or heading_name(text).startswith("appendix")


def is_reference_heading(text: str) -> bool:
    return heading_name(text) in REFERENCE_HEADINGS


def heading_candidate(text: str, continued: bool = False) -> bool:
    """Short, starts like a title (unless `continued`), does not end like a sentence."""
    text = text.strip()
    if not 2 <= len(text) <= 150 or len(text.split()) > 18:
        return False
    if text.endswith((",", ";", "-")) and not continued:
        return False
    if text.endswith((".", ":")) and not is_known_heading(text):
        return False
    if not re.search(r"[A-Za-z]{3}", text):  # a heading has at least one real word
        return False
    letters = sum(c.isalpha() for c in text)
    starts = continued or text[0].isupper() or text[0].isdigit()
    return starts and letters >= 0.5 * len(text.replace(" ", ""))


def heading_level(text: str) -> int | None:
    """Depth from numbering: '2' -> 1, '2.1' -> 2, 'A.1' -> 2; None when unnumbered."""
    m = NUMBERING.match(text.strip())
    if not m:
        return None
    if m.group(1):
        return m.group(1).count(".") + 1
    if m.group(2):
        return m.group(2).count(".") + 1
    return 1


def caption_label(text: str) -> str | None:
    """'Fig. 3: ...' -> 'Figure 3'; 'Table 2 ...' -> 'Table 2'; None for other text."""
    m = CAPTION.match(text.strip())
    if not m:
        return None
    kind = m.group(1).lower()
    word = "Figure" if kind.startswith("fig") else "Table"
    if kind.startswith("supplementary"):
        word = "Supplementary " + word
    return f"{word} {m.group(2)}"
