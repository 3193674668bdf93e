"""The text's own statement of a computed figure: a report that prints "increased 191%" or
"up $1.2 million" beside a table states, rounded, what the arithmetic on its cells gives.
Quoting that sentence after the computed one shows the reader where the report says it
(and in the report's own rounding and unit)."""

from __future__ import annotations

import re

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.numeric.quoted import Quoted
from citewise.agent.numeric.tables.locate import known, terms
from citewise.store.sqlite.library import StoredBlock

_STATED = re.compile(
    r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|percent|per cent|"
    r"million|billion|thousand)?(?![\w])",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")
_SCALES = {"thousands": 1e3, "millions": 1e6, "billions": 1e9, "": 1.0}
_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9}


def _matches(number: re.Match[str], result: float, percent: bool, scale: float) -> bool:
    """The number, with its own decimals and unit, is the result rounded."""
    whole, fraction, unit = number.group(1), number.group(2) or "", (number.group(3) or "").lower()
    value = float(whole.replace(",", "") + fraction)
    decimals = len(fraction) - 1 if fraction else 0
    if percent != (unit in ("%", "percent", "per cent")):
        return False
    target = abs(result) if percent else abs(result) * scale / _WORDS.get(unit, 1.0)
    if not percent and unit not in _WORDS:
        return False  # a bare amount: too easily another figure
    return value > 0 and abs(value - target) <= 0.5 * 10**-decimals + 1e-9


def stated(
    blocks: list[StoredBlock], row: str, result: float, percent: bool, scale: str
) -> tuple[AnswerSentence, list[Quoted]] | None:
    """The first sentence of the text that names the row's words and states the result,
    rounded as it prints it; None when none does."""
    words = set(terms(row))
    factor = _SCALES.get(scale, 1.0)
    for block in blocks:
        if block.kind not in ("paragraph", "list"):
            continue
        for sentence in _SENTENCE.split(block.text):
            said = set(terms(sentence))
            if not words or sum(known(w, said) for w in words) < max(1, len(words) // 2):
                continue
            if any(_matches(m, result, percent, factor) for m in _STATED.finditer(sentence)):
                text = sentence.strip()
                return AnswerSentence(text, [block.id], 0.0, "quote"), [Quoted(block, text)]
    return None
