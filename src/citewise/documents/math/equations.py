"""Display equations: math fonts, a trailing '(n)' at the right margin, a text rendering."""

from __future__ import annotations

import re

from citewise.documents.math.formula_layout import linear_text, math_share
from citewise.documents.pdf.layout import Unit, union

# "(3)", "(3a)", section-numbered "(3.2)", appendix "(A.1)" / "(A1)"
EQ_ID = r"(?:[1-9]\d{0,2}(?:\.[1-9]\d{0,2})?[a-z]?|[A-Z]\.?[1-9]\d{0,2}[a-z]?)"
EQ_NUMBER = re.compile(rf"^\(\s*({EQ_ID})\s*\)$")
PRIVATE_USE = re.compile(r"[\ue000-\uf8ff]")  # bracket pieces of big delimiters


def looks_like_display_math(unit: Unit) -> bool:
    """Mostly math, or a short math-heavy line that does not read as a sentence."""
    share = math_share(unit)
    if share > 0.5:
        return True
    text = unit.text
    return share >= 0.2 and len(unit.rows) <= 3 and not text.rstrip().endswith(".")


def ends_in_equation_number(unit: Unit, last: str) -> bool:
    """The unit's rightmost piece is an equation number; a dotted one ('(3.2)') only
    beside math, since tables print deviations the same way."""
    m = EQ_NUMBER.match(last)
    if not m:
        return False
    return "." not in m.group(1) or math_share(unit) > 0 or "=" in unit.text


def attach_numbers(units: list[Unit]) -> list[Unit]:
    """An equation number set apart ('(3)' alone at the right margin) joins the formula
    on its left, whose pieces (a matrix's brackets, stacked fractions) become one unit."""
    out = list(units)
    for num in [u for u in units if len(u.rows) == 1 and EQ_NUMBER.match(u.text)]:
        mid = (num.bbox[1] + num.bbox[3]) / 2
        parts = [
            u
            for u in out
            if u is not num
            and u.bbox[2] <= num.bbox[0] + 2
            and u.bbox[1] - 2 <= mid <= u.bbox[3] + 2
            and u.col == num.col
            and (u.kind == "equation" or (len(u.rows) <= 6 and u.kind in ("paragraph", "table")))
        ]
        if not parts or not any(u.kind == "equation" or math_share(u) > 0 for u in parts):
            continue
        top = min(u.bbox[1] for u in parts)
        bottom = max(u.bbox[3] for u in parts)
        # bracket glyphs and sub-lines of the same formula sit in its band
        parts += [
            u
            for u in out
            if u not in parts
            and u is not num
            and u.kind == "equation"
            and not u.label
            and u.bbox[1] >= top - 2
            and u.bbox[3] <= bottom + 2
        ]
        formula = Unit(
            [r for u in sorted(parts, key=lambda u: u.bbox[1]) for r in u.rows] + num.rows,
            col=num.col,
            kind="equation",
            label="Eq. " + re.sub(r"\s", "", num.text),
        )
        at = min(out.index(u) for u in parts)
        out = [u for u in out if u is not num and all(u is not p for p in parts)]
        out.insert(at, formula)
    return out


def equation_number(label: str | None) -> str | None:
    """'Eq. (3)' -> '3'."""
    m = re.match(r"^Eq\. \((.+)\)$", label or "")
    return m.group(1) if m else None


def equation_text(unit: Unit) -> str:
    """The formula as text, read left to right (documents/math/formula_layout.py), without its
    number; tall-delimiter pieces as the delimiter."""
    return linear_text(unit.rows, EQ_NUMBER)


def bbox_of(unit: Unit) -> tuple[float, float, float, float]:
    return union([s.orig for s in unit.segs])


def image_only(text: str) -> bool:
    """Text that cannot stand for the equation (',' 'l' '� −1 �'): show its crop instead.

    Usable text has at least four letters, digits or math symbols, an operator or a
    relation among them, and few replacement characters (glyphs without a Unicode map).
    """
    inked = [c for c in text if not c.isspace() and c not in ",.;:()[]{}"]
    if len(inked) < 4 or text.count("\ufffd") * 4 >= len(inked):
        return True
    return not re.search(r"[=<>≤≥≈∝∼+\-−×·/∗⋆◦∑∏∫]", text)
