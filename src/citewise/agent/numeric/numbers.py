"""Numbers as papers and filings print them: the one number reader of the project.

Reads "1,577", "(1,577)" (negative, as financial tables print it), "−572.97", "2e-5",
"2 × 10⁻⁵", "46.5%", ".465", "12.3M", "15.2 million", number words ("seven",
"twenty-five") and scale notes ("in millions", "(In thousands)"). One rule decides whether
a number a sentence states is backed by a text: `backed`. Pure functions.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from citewise.regex import lazy

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_MINUS = "-−–"
_SUFFIX_SCALE = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "billions": 1e9,
    "t": 1e12,
    "trillion": 1e12,
}

# Not part of a name ("F1", "S2ORC", "v3"; "GPT-4", "COVID-19"): no letter, digit or point
# right before it, nor a letter and a hyphen.
_NUMBER = lazy(
    r"(?<![A-Za-z\d.,])(?<![A-Za-z]-)"
    r"(?P<paren>\(\s*\$?\s*(?=[\d.]))?"
    r"(?P<sign>(?<![\w)])[" + _MINUS + r"+](?=\s?[\d.]))?\s?"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<exp>[eE][-+]?\d+|\s?[×x]\s?10(?:(?:\^|\*\*)\(?[-−+]?\d+\)?|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?"
    r"(?P<close>\s*\))?"
    r"(?:\s?(?P<pct>%|percent\b|per cent\b|pp\b|basis points\b|bps\b))?"
    r"(?:\s?(?P<suffix>(?:[kKmMbBT]|mn|bn)(?![A-Za-z\d])|(?:thousand|millions?|billions?|"
    r"trillion)\b))?"
    r"(?![A-Za-z\d])"
)

WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "million": 1e6, "billion": 1e9,
}  # fmt: skip
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_NUMBER_WORD = lazy(
    r"\b(?:("
    + _TENS
    + r")-(one|two|three|four|five|six|seven|eight|nine)|("
    + "|".join(WORDS)
    + r"))\b",
    re.IGNORECASE,
)
_SCALE_NOTE = lazy(
    r"(?:\bin\s+(?:(?:usd|us\$|\$|u\.s\.|dollars|eur|€|£)\s*)?|\(\s*(?:\$|usd|dollars)?\s*(?:in\s+)?)"
    r"(thousands|millions|billions)\b",
    re.IGNORECASE,
)
_YEAR = lazy(r"^(1[89]|20)\d\d$")


@dataclass(frozen=True)
class Number:
    """One number as printed: its value (signed, suffix applied), text and place."""

    value: float
    text: str
    start: int
    end: int
    percent: bool = False
    decimals: int = 0  # digits printed after the point

    @property
    def is_year(self) -> bool:
        # a citation's "(2019)" is a year too, though brackets also print a negative figure
        return not self.percent and bool(_YEAR.match(self.text.strip("() ")))


def _exponent(exp: str) -> int:
    if exp[0] in "eE":
        return int(exp[1:])
    power = exp.translate(_SUPERSCRIPT).replace("−", "-")
    return int(re.sub(r"^.*?10(?:\^|\*\*)?\(?", "", power).rstrip(")"))


def _from_match(m: re.Match[str]) -> Number:
    digits = m.group("digits")
    paren, close = m.group("paren"), m.group("close")
    start, end = m.start(), m.end()
    if bool(paren) != bool(close):
        # "(1,577" or "12)": the bracket belongs to the sentence, not to the number
        start = m.start("sign") if m.group("sign") else m.start("digits")
        end = max(m.end(g) for g in ("digits", "exp", "pct", "suffix") if m.group(g))
        paren = close = None
    exponent = _exponent(m.group("exp")) if m.group("exp") else 0
    value = float(f"{digits.replace(',', '')}e{exponent}")
    suffix = (m.group("suffix") or "").lower()
    if suffix:
        value *= _SUFFIX_SCALE[suffix]
    sign = m.group("sign") or ""
    negative = bool(paren and close) or (bool(sign) and sign in _MINUS)
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return Number(
        -value if negative else value,
        m.string[start:end].strip(),
        start,
        end,
        percent=bool(m.group("pct")),
        decimals=decimals,
    )


def find_numbers(text: str, words: bool = True) -> list[Number]:
    """Every number the text states, in order; number words too unless `words` is False."""
    found = [_from_match(m) for m in _NUMBER.finditer(text)]
    if words:
        taken = [(n.start, n.end) for n in found]
        for m in _NUMBER_WORD.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue  # "million" in "15.2 million"
            if m.group(3):
                value = float(WORDS[m.group(3).lower()])
            else:
                value = float(WORDS[m.group(1).lower()] + WORDS[m.group(2).lower()])
            found.append(Number(value, m.group(0), m.start(), m.end()))
        found.sort(key=lambda n: n.start)
    return found


def parse_number(text: str) -> float | None:
    """The value of a text that is one number ("$ 5,363", "(1,577)", "46.5%", "2e-5");
    None when it holds no number or more than one ("84.59 ± 0.93" is its first)."""
    cleaned = text.strip().strip("$€£*†‡∗ ").strip()
    nums = find_numbers(cleaned, words=False)
    if not nums:
        return None
    first = nums[0]
    rest = cleaned[first.end :].strip()
    if rest and not rest.startswith(("±", "+/-", "(")):
        return None
    return first.value


def scale_of(text: str) -> float:
    """The multiplier a scale note states ("(in millions, except per share data)" -> 1e6)."""
    m = _SCALE_NOTE.search(text)
    return {"thousands": 1e3, "millions": 1e6, "billions": 1e9}[m.group(1).lower()] if m else 1.0


def values(text: str) -> set[float]:
    """The values of the numbers a text states, in digits or as words ("three" = 3)."""
    return {n.value for n in find_numbers(text)}


def _agrees(stated: Number, known: float) -> bool:
    """A stated number agrees with a known value: the same magnitude (signs are printed
    many ways: "(1,577)", "−1,577", "a loss of 1,577"), as a share ("0.45" for "45%"), or
    the known value rounded to the precision stated ("93.4" for 93.41)."""
    v, k = abs(stated.value), abs(known)
    for candidate in (k, k * 100, k / 100):
        if math.isclose(v, candidate, rel_tol=1e-9, abs_tol=1e-12):
            return True
        if stated.decimals and round(candidate, stated.decimals) == v:
            return True
    return False


def backed(stated: Number, known: set[float]) -> bool:
    """The one rule for answers and reports: a stated number must agree with a number
    found in the evidence (or the question)."""
    return any(_agrees(stated, k) for k in known)


def unsupported(sentence: str, evidence: str, question: str = "") -> list[Number]:
    """Numbers the sentence states that neither its evidence nor the question backs."""
    known = values(evidence) | values(question)
    return [n for n in find_numbers(sentence) if not backed(n, known)]


def quantities(sentence: str, question: str = "") -> set[str]:
    """Numbers a sentence states (as printed) that the question does not, years aside."""
    asked = {n.text.lower() for n in find_numbers(question)}
    return {n.text for n in find_numbers(sentence) if not n.is_year and n.text.lower() not in asked}


def spelled(value: float) -> str:
    """A value as a short string: 1577.0 -> "1577", 0.465 -> "0.465"."""
    return f"{value:g}" if abs(value) < 1e15 else repr(value)


def format_number(value: float, decimals: int | None = None, grouped: bool = True) -> str:
    """A value for an answer: "1,577", "15.70", "-3.70" (`decimals` None: as few as exact)."""
    if decimals is None:
        decimals = 0 if float(value).is_integer() else min(6, _needed_decimals(value))
    sep = "," if grouped else ""
    return f"{value:{sep}.{decimals}f}"


def _needed_decimals(value: float) -> int:
    for d in range(1, 7):
        if math.isclose(round(value, d), value, rel_tol=0, abs_tol=1e-9):
            return d
    return 6
