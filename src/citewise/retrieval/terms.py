"""Words as retrieval and answer scoring see them: tokens, stopwords, a light stemmer."""

from __future__ import annotations

import re

from citewise.store.fts import query_tokens

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing done down during
    each few for from further had has have having he her here hers him his how i if in
    into is it its itself just me more most my no nor not now of off on once only or
    other our ours out over own same she should so some such than that the their theirs
    them then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours according
    approximately roughly many much use used using get got give given reported report
    reach reached paper library""".split()
)


_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")


def stem(word: str) -> str:
    """A deliberately light stemmer: plural and common verb endings only."""
    w = word.lower()
    if len(w) <= 3 or _NUMBER.match(w):
        return w
    for suffix, keep in (
        ("yses", "ysis"),
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                return w
            return w[: len(w) - len(suffix)] + keep
    return w


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens (letters and digits; CJK runs kept whole)."""
    return [t.lower() for t in query_tokens(text)]


def content_terms(text: str) -> list[str]:
    """Tokens worth searching for: no stopwords, no one-letter tokens, in order, unique."""
    terms = [t for t in tokens(text) if t not in STOPWORDS and (len(t) > 1 or t.isdigit())]
    return list(dict.fromkeys(terms))
