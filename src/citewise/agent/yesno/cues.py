"""The word lists a yes/no lead reads (agent/data/yes_no_cues.txt): negations, contrasts,
exclusions ("other than"), negative-polarity items ("any", "ever"), universals and the
words that point at the paper itself."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

CUES_FILE = "yes_no_cues.txt"
LISTS = (
    "auxiliaries",
    "negations",
    "contrasts",
    "exclusions",
    "negative_polarity",
    "universals",
    "frame",
    "background_sections",
    "negative_verbs",
    "hedges",
    "subordinators",
)


@dataclass(frozen=True)
class Cues:
    """Each list as phrases of lower-case words (a one-word phrase is a word)."""

    lists: dict[str, tuple[tuple[str, ...], ...]]

    def words(self, name: str) -> frozenset[str]:
        """The list's one-word entries."""
        return frozenset(p[0] for p in self.lists[name] if len(p) == 1)

    def phrases(self, name: str) -> tuple[tuple[str, ...], ...]:
        return self.lists[name]


def parse_cues(text: str, source: str = CUES_FILE) -> Cues:
    """Lists from "[name]" headers, each with a "# from:" provenance line, one entry a line."""
    lists = sourced_lists(text, source, LISTS)
    return Cues(
        {name: tuple(tuple(e.lower().split()) for e in lines) for name, lines in lists.items()}
    )


@cache
def cues() -> Cues:
    """The shipped word lists, read once."""
    text = shipped_text(CUES_FILE)
    return parse_cues(text)


def find_phrase(words: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, int]]:
    """(start, end) of every occurrence of any of `phrases` in `words`."""
    found = []
    for i in range(len(words)):
        for phrase in phrases:
            if tuple(words[i : i + len(phrase)]) == phrase:
                found.append((i, i + len(phrase)))
    return found
