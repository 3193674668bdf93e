"""The words a table question uses for its operation, comparison, condition and filler,
read once from `words.tsv` (phrase <TAB> role; `#` lines are comments and provenance)."""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.fitted_data import shipped_text

OPERATIONS = ("pct_change", "share", "ratio", "average", "difference", "change", "sum")
COMPARISONS = ("more", "less")
CONDITIONS = ("above", "below")
JOINED = ("share", "ratio", "difference", "sum")  # operations over two named rows


@cache
def lexicon() -> dict[str, str]:
    """phrase -> role, lower-case."""
    text = shipped_text("table_words.tsv")
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        phrase, role = line.split("\t")
        if not role.startswith("join_"):  # joining words: joins()
            out[" ".join(phrase.lower().split())] = role.strip()
    return out


@cache
def _pattern(roles: tuple[str, ...]) -> re.Pattern[str]:
    phrases = sorted((p for p, r in lexicon().items() if r in roles), key=len, reverse=True)
    body = "|".join(re.escape(p).replace(r"\ ", r"\s*") for p in phrases)
    # a word inside a compound ("weighted-average shares") names no operation
    return re.compile(rf"(?<![\w%-])(?:{body})(?![\w])", re.I)


def find(text: str, roles: tuple[str, ...]) -> list[tuple[str, str, int, int]]:
    """(phrase as written, role, start, end) of each phrase of these roles, left to right,
    the longest phrase where two overlap."""
    roles_of = _compact()
    found = []
    for m in _pattern(roles).finditer(text):
        role = roles_of[re.sub(r"\s+", "", m.group(0).lower())]
        found.append((m.group(0), role, m.start(), m.end()))
    return found


@cache
def _compact() -> dict[str, str]:
    """phrase without spaces -> role: "increase/ (decrease)" is "increase / (decrease)"."""
    return {re.sub(r"\s+", "", p): r for p, r in lexicon().items()}


@cache
def joins(operation: str) -> re.Pattern[str]:
    """The words joining the two rows of a two-row `operation` (role `join_<operation>`), as
    one pattern with a space either side; a phrase may join several operations."""
    text = shipped_text("table_words.tsv")
    phrases = [
        line.split("\t")[0]
        for line in text.splitlines()
        if line.strip() and not line.startswith("#") and line.split("\t")[1] == f"join_{operation}"
    ]
    body = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"\s(?:{body})\s", re.I)


def is_filler(word: str) -> bool:
    return lexicon().get(word.lower()) == "filler"
