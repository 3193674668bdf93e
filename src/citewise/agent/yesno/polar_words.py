"""The word lists agent/yesno/asking.py, polar.py, polar_order.py and polar_compare.py read
(agent/data/polar_words.txt): auxiliaries, negations, clause ends, the words around a verb,
comparatives and their opposites."""

from __future__ import annotations

from functools import cache

from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import read_lists, sourced_lists

WORDS_FILE = "polar_words.txt"


@cache
def _lists() -> dict[str, list[str]]:
    text = shipped_text(WORDS_FILE)
    return sourced_lists(text, WORDS_FILE, read_lists(text)[0])


def words(name: str) -> frozenset[str]:
    """The list's words (lower case)."""
    return frozenset(_lists()[name])


def pairs(name: str) -> tuple[tuple[str, str], ...]:
    """The list's entries of two words each ("better worse"), in file order."""
    split = [tuple(line.split()) for line in _lists()[name]]
    return tuple((p[0], p[1]) for p in split if len(p) == 2)
