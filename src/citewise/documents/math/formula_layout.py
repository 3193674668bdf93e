"""A display formula's pieces gathered into one unit, and read left to right.

PyMuPDF returns a typeset formula as several lines: a fraction's numerator and
denominator, a sum's limits, big delimiters built from glyph pieces. The layout pass
classifies each piece on its own (some as short paragraphs or one-row tables), so a
numbered equation ends up as ", (5)" beside its fragments. Here the fragments next to a
numbered equation join it, and the formula's text is read as it is written: stacks of
pieces that share horizontal space go left to right; inside a stack a big operator comes
first, then what sits below it, then above (TeX's `\\sum_{i=1}^{k}`), and a fraction reads
numerator then denominator.
"""

from __future__ import annotations

import functools
import re

from citewise.documents.pdf.layout import Row, Seg, Unit, union

BIG_OPERATOR = set("∑∏∫∮⋃⋂⨁⨂")
# Adobe Symbol's private-use pieces of tall delimiters. An opening delimiter is read at
# its top piece (it comes before what it encloses), a closing one at its bottom piece
# (which sits on the formula's last line, before what follows); the rest add nothing.
DELIMITER_PIECES = {
    "\uf8eb": "(", "\uf8ee": "[", "\uf8f1": "{", "\uf8f8": ")", "\uf8fb": "]", "\uf8fe": "}",
    "\uf8ec": "", "\uf8ed": "", "\uf8f6": "", "\uf8f7": "", "\uf8ef": "", "\uf8f0": "",
    "\uf8f9": "", "\uf8fa": "", "\uf8f2": "", "\uf8f3": "", "\uf8f4": "", "\uf8fc": "",
    "\uf8fd": "", "\uf8f5": "",
}  # fmt: skip
# TeX (cm*, ms*), MathTime (MT2MIT, MTSY), Times/Palatino math (tx*, px*), OpenType math
MATH_FONT = re.compile(
    r"cmmi|cmsy|cmex|msbm|msam|math|symbol|stix|^MT2|^MT(?:MI|SY|EX)|txmi|txsy|txex|"
    r"pxmi|pxsy|pxex|eufm|rsfs|euclid|esint|wasy",
    re.I,
)
_DELIMITERS = str.maketrans(DELIMITER_PIECES)
PRIVATE_USE = re.compile(r"[\ue000-\uf8ff]")
MATH_MARK = re.compile(
    r"[=<>≤≥≈∝∼±∓×·∗⋆◦∑∏∫√∂∇∞∈∉⊂⊆∪∩→←↔⇒⇔⊤⊥^_−+/]|[\u0370-\u03ff]|[\uf8e0-\uf8ff]|\ufffd"
)
PROSE = re.compile(r"[A-Za-z][a-z]{2,}[.,;:]?")
FUNCTIONS = {"exp", "log", "min", "max", "sin", "cos", "tan", "det", "lim", "sup", "inf"}


def map_delimiters(text: str) -> str:
    """Tall-delimiter glyph pieces as the delimiter they build; other private-use glyphs
    (no Unicode meaning) dropped."""
    return PRIVATE_USE.sub("", text.translate(_DELIMITERS))


def math_share(unit: Unit) -> float:
    """Share of the unit's characters set in a math font."""
    segs = unit.segs
    total = sum(len(s.text) for s in segs) or 1
    return sum(len(s.text) for s in segs if is_math_font(s.font)) / total


@functools.lru_cache(maxsize=1024)
def is_math_font(font: str) -> bool:
    """A math font by its name (a document has a handful: each is read once)."""
    return bool(MATH_FONT.search(font))


def _piece(unit: Unit) -> bool:
    """A fragment of a formula: an unlabelled equation, or a short unit without prose
    (PyMuPDF's lines of a display come classified one by one). Prose is whole words of
    letters; identifiers glued to symbols or digits ("vec(Ψsuper)", "X1super") are not."""
    if unit.label:
        return False
    if unit.kind == "equation":
        return True
    if unit.kind not in ("paragraph", "table", "footnote") or len(unit.rows) > 3:
        return False
    text = unit.text
    prose = [
        t for t in text.split() if PROSE.fullmatch(t) and t.lower().strip(".,;:") not in FUNCTIONS
    ]
    if not prose and len(text) <= 40:
        return True  # a limit, an index, an entry: "n", "i=1", "X1super", "..."
    if math_share(unit) > 0.5:
        return True
    return bool(MATH_MARK.search(text)) and len(prose) <= 2


def _near(unit: Unit, band: tuple[float, float, float, float], gap: float) -> bool:
    x0, y0, x1, y1 = unit.bbox
    bx0, by0, bx1, by1 = band
    vertical = y0 <= by1 + gap and y1 >= by0 - gap
    horizontal = x0 <= bx1 + gap and x1 >= bx0 - 2 * gap
    return vertical and horizontal


def gather_formulas(units: list[Unit], line: float) -> list[Unit]:
    """Each display equation takes in the formula fragments within `line` (about a body
    line height) of it, repeatedly, so a fraction or a sum's limits join their formula."""
    out = list(units)
    # numbered equations first, then unnumbered displays by their amount of text
    seeds = [u for u in units if u.kind == "equation"]
    seeds.sort(key=lambda u: (not u.label, -len(u.text)))
    for formula in seeds:
        if all(formula is not u for u in out):
            continue
        parts = [formula]
        grown = True
        while grown:
            band = union([p.bbox for p in parts])
            more = [
                u
                for u in out
                if all(u is not p for p in parts)
                and (u.col == formula.col or formula.col == "F")
                and _near(u, band, line)  # the box first: reading the text costs more
                and _piece(u)
            ]
            parts += more
            grown = bool(more)
        if len(parts) == 1:
            continue
        rows = sorted((r for p in parts for r in p.rows), key=lambda r: (r.y0, r.x0))
        merged = Unit(rows, col=formula.col, kind="equation", label=formula.label)
        merged.data.update(formula.data)
        at = min(out.index(p) for p in parts)
        out = [u for u in out if all(u is not p for p in parts)]
        out.insert(at, merged)
    return out


def _stacks(segs: list[Seg]) -> list[list[Seg]]:
    """Pieces grouped where they share horizontal space (each group left to right)."""
    groups: list[list[Seg]] = []
    for seg in sorted(segs, key=lambda s: s.x0):
        if groups:
            last = groups[-1]
            right = max(s.x1 for s in last)
            overlap = right - seg.x0
            narrow = min(seg.x1 - seg.x0, right - min(s.x0 for s in last)) or 1.0
            stacked = any(s.y1 <= seg.y0 + 1 or seg.y1 <= s.y0 + 1 for s in last)
            if overlap > 0.3 * narrow and stacked:
                last.append(seg)
                continue
        groups.append([seg])
    return groups


def _lines(stack: list[Seg]) -> set[int]:
    return {round((s.y0 + s.y1) / 4) for s in stack}  # line centres in 2 pt steps


def _matrices(stacks: list[list[Seg]]) -> list[list[Seg]]:
    """Neighbouring stacks of three or more lines on the same baselines are a matrix's
    columns: one group, read row by row."""
    out: list[list[Seg]] = []
    for stack in stacks:
        prev = out[-1] if out else None
        tall = len(_lines(stack)) >= 3
        if prev is not None and tall and len(_lines(prev)) >= 3:
            shared = len(_lines(prev) & _lines(stack))
            if shared >= 0.6 * min(len(_lines(prev)), len(_lines(stack))):
                out[-1] = prev + stack
                continue
        out.append(stack)
    return out


def _row_major(segs: list[Seg]) -> list[Seg]:
    """Top to bottom by lines (centres within 2 pt), each line left to right: a matrix
    reads row by row."""
    out: list[Seg] = []
    line: list[Seg] = []
    for seg in sorted(segs, key=lambda s: (s.y0 + s.y1) / 2):
        if line and (seg.y0 + seg.y1) / 2 - (line[0].y0 + line[0].y1) / 2 > 2:
            out += sorted(line, key=lambda s: s.x0)
            line = []
        line.append(seg)
    return out + sorted(line, key=lambda s: s.x0)


def _read_stack(stack: list[Seg], baseline: float, after_operator: bool = False) -> list[Seg]:
    """One stack in reading order; `after_operator`: it follows a line piece ending in a big
    operator, so what it holds above and below are that operator's limits."""
    if len(stack) == 1:
        return stack
    operator = next((s for s in stack if any(ch in BIG_OPERATOR for ch in s.text)), None)
    if operator is not None:  # \sum_{below}^{above}, wherever the main line runs
        baseline = (operator.y0 + operator.y1) / 2
        after_operator = True
    on_line = [s for s in stack if s.y0 - 1 <= baseline <= s.y1 + 1]
    below = _row_major([s for s in stack if s not in on_line and s.y0 > baseline])
    above = _row_major([s for s in stack if s not in on_line and s.y1 < baseline])
    ordered = sorted(on_line, key=lambda s: s.x0)
    if after_operator:
        return ordered + below + above
    if len(_lines(stack)) >= 3:
        return _row_major(stack)  # a matrix, a vector, a stacked array: row by row
    return ordered + above + below  # a fraction: numerator, then denominator


def linear_text(rows: list[Row], number: re.Pattern[str]) -> str:
    """The formula read left to right by stacks (see the module note)."""
    segs = [s for r in rows for s in r.segs if not number.match(s.text.strip())]
    if not segs:
        return ""
    # the main line: where the relation signs are, else the widest row
    main = max(rows, key=lambda r: ("=" in r.text, r.x1 - r.x0))
    baseline = (main.y0 + main.y1) / 2
    pieces: list[Seg] = []
    for stack in _matrices(_stacks(segs)):
        ends = pieces[-1].text.rstrip()[-1:] if pieces else ""
        pieces += _read_stack(stack, baseline, ends in BIG_OPERATOR and bool(ends))
    text = " ".join(map_delimiters(s.text).strip() for s in pieces)
    return " ".join(text.split())
