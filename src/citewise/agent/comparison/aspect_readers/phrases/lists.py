"""The word lists of the free-phrase readers (agent/data/matrix_phrases.txt, each list with its
provenance) and the function words a name or a count may not hold."""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import word_list
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

PHRASE_LISTS_FILE = "matrix_phrases.txt"
_PHRASE_LISTS = (
    "number_words",
    "measure_words",
    "vague_adjectives",
    "predicate_suffixes",
    "adverbs",
    "name_stops",
    "framing_sections",
    "reporting_verbs",
    "prefixes",
    "comparison_words",
    "count_followers",
    "use_verbs",
    "quantity_nouns",
    "approximations",
    "multipliers",
    "bounds",
    "averages",
    "setting_contexts",
    "own_use_words",
    "per_item",
    "kind_nouns",
    "illustrations",
    "picking_counts",
    "example_markers",
    "possibility_words",
    "pretrained_resources",
    "time_units",
    "time_activities",
    "selection_words",
    "duration_followers",
    "class_quantifiers",
    "network_parts",
)


@cache
def phrase_list(name: str) -> frozenset[str]:
    """A list of agent/data/matrix_phrases.txt (lower case; provenance checked)."""
    text = shipped_text(PHRASE_LISTS_FILE)
    lists = sourced_lists(text, PHRASE_LISTS_FILE, _PHRASE_LISTS)
    return frozenset(w.lower() for w in lists[name])


def function_words() -> str:
    return "|".join(re.escape(w) for w in sorted(word_list("dangling"), key=len, reverse=True))


PHRASE_WORDS_FILE = "setup_phrases.txt"


@cache
def phrase_words(name: str) -> frozenset[str]:
    """A list of agent/data/setup_phrases.txt (lower case; provenance checked)."""
    text = shipped_text(PHRASE_WORDS_FILE)
    lists = sourced_lists(
        text, PHRASE_WORDS_FILE, ("property_modifiers", "negations", "clause_words")
    )
    return frozenset(w.lower() for w in lists[name])
