"""Verbs of one sense (agent/data/yes_no_synonyms.txt, WordNet's verb synsets): a claim's
verb the paper never writes counts as written where the paper writes one of its synonyms
("Do they assess X?" against "We evaluate X")."""

from __future__ import annotations

from functools import cache

from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists
from citewise.retrieval.terms import stem

SYNONYMS_FILE = "yes_no_synonyms.txt"


def parse_synonyms(text: str, source: str = SYNONYMS_FILE) -> dict[str, frozenset[str]]:
    """Each stem's synonyms' stems, from "[verb_synsets]" lines of words of one sense."""
    found: dict[str, set[str]] = {}
    for line in sourced_lists(text, source, ("verb_synsets",))["verb_synsets"]:
        stems = {stem(w) for w in line.lower().split()}
        for s in stems:
            found.setdefault(s, set()).update(stems - {s})
    return {s: frozenset(others) for s, others in found.items()}


@cache
def synonyms() -> dict[str, frozenset[str]]:
    """The shipped synsets, read once."""
    text = shipped_text(SYNONYMS_FILE)
    return parse_synonyms(text)
