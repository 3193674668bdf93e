"""Finding a numbered equation by the ID a user types, and what to show with it: its
variables and the sentences around it. (Its LaTeX is only ever the file's own source, read
by the parser: a PDF's glyphs transliterated into TeX commands are no LaTeX a tool accepts.)"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from citewise.documents.math.equations import EQ_ID
from citewise.documents.model import Equation
from citewise.errors import FormulaNotFoundError, InvalidEquationIdError

ACCEPTED_FORMS = "3, 3a, 3.2, A.1, eq3, eq3.2, (3.2), 'Eq. (3.2)', 'equation 3.2'"
_WANTED = re.compile(
    rf"^(?:(?i:eq(?:uation|n)?)\.?\s*)?(?:\(\s*(?P<a>{EQ_ID})\s*\)|(?P<b>{EQ_ID}))$"
)


def parse_equation_id(wanted: str) -> str:
    """'eq3.2' -> '3.2'; anything else than the accepted forms is INVALID_EQ_ID."""
    m = _WANTED.match(wanted.strip())
    if not m:
        raise InvalidEquationIdError(
            f"'{wanted}' is not an equation ID", hint=f"accepted forms: {ACCEPTED_FORMS}"
        )
    return m.group("a") or m.group("b")


def lookup_equation(found: Sequence[Equation], wanted: str, doc_id: str = "") -> Equation:
    """The equation numbered `wanted`, or FORMULA_NOT_FOUND naming the numbers there are."""
    number = parse_equation_id(wanted)
    hit = next((e for e in found if e.number == number), None)
    if hit is None:
        known = ", ".join(e.number for e in found if e.number) or "none"
        where = f" in {doc_id}" if doc_id else ""
        raise FormulaNotFoundError(f"no equation '{wanted}'{where}", hint=f"numbered: {known}")
    return hit


_LETTERS = re.compile(r"[A-Za-z\u0370-\u03ff]+(?:_\w+|\d+)?")
_GREEK = re.compile(r"[\u0370-\u03ff]")


def variables(text: str) -> list[str]:
    """Single-letter (Latin or Greek) symbols of the equation, in order of appearance:
    'αm' is two symbols, 'exp' and 'Minimize' are words, not variables."""
    found: list[str] = []
    for m in _LETTERS.finditer(text):
        token = m.group(0)
        letters = re.match(r"[A-Za-z\u0370-\u03ff]+", token)
        run = letters.group(0) if letters else token
        if len(run) == 1:
            found.append(token)
        elif _GREEK.search(run):
            found.extend(c for c in run)
    return list(dict.fromkeys(found))


class TextBlock(Protocol):
    @property
    def ordinal(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...


def context(blocks: Sequence[TextBlock], ordinal: int) -> tuple[str, str]:
    """(the sentence that leads into the equation, the one after it: often 'where ...')."""
    prose = [b for b in blocks if b.kind in ("paragraph", "list")]
    before = [b for b in prose if b.ordinal < ordinal]
    after = [b for b in prose if b.ordinal > ordinal]
    lead = _sentences(before[-1].text)[-1] if before else ""
    follow = _sentences(after[0].text)[0] if after else ""
    return lead, follow


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-Z])", " ".join(text.split())) or [""]
