"""Themes several papers share: two-word phrases and acronyms their quotes have in common,
for the report's cross-cutting discussion. Pure functions."""

from __future__ import annotations

import re

from citewise.retrieval.terms import STOPWORDS, content_terms, stem, tokens

# Connectives that open sentences in every paper: never a theme the papers share.
CONNECTIVES = frozenset(
    """although however thus therefore moreover furthermore whereas while hence indeed also
    additionally finally first second third overall instead""".split()
)


def _theme_word(word: str) -> bool:
    """A word that can name a theme: not a number, a connective, an adverb or a verb form
    ("including", "proposed", "largely" open sentences in every field)."""
    return (
        len(word) > 3
        and word.isalpha()
        and word not in CONNECTIVES
        and not word.endswith(("ing", "ed", "ly"))
    )


def theme_terms(quote: str, topic: set[str]) -> dict[str, str]:
    """Stemmed theme keys in `quote` -> their surface form: adjacent pairs of content words
    ("training data") and single theme words, leaving out the topic's own words."""
    words = tokens(quote)
    found: dict[str, str] = {}
    for first, second in zip(words, words[1:], strict=False):
        if first in STOPWORDS or second in STOPWORDS:
            continue
        # a gerund may modify a noun ("training data"), unless it works as a preposition
        modifier = _theme_word(first) or (
            first.endswith("ing") and len(first) > 5 and first not in PREPOSITION_LIKE
        )
        if modifier and _theme_word(second):
            pair = (stem(first), stem(second))
            if not set(pair) <= topic:
                found.setdefault(" ".join(pair), f"{first} {second}")
    for word in content_terms(quote):
        if _theme_word(word) and stem(word) not in topic:
            found.setdefault(stem(word), word)
    return found


PREPOSITION_LIKE = frozenset("including following regarding concerning during".split())


def names_thing(key: str, word: str, quotes: str) -> bool:
    """Whether a theme can lead a paragraph: a two-word phrase, or a word the papers write
    as an acronym ("PDF", "GROBID"); single common words ("research") say nothing shared."""
    if " " in key:
        return True
    return bool(re.search(rf"\b{re.escape(word.upper())}s?\b", quotes))
