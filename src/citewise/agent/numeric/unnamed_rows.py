"""Table rows a question does not name, however many words it shares with them.

A row's header can hold the question's words and still name something else: the
complement of what is asked ("Not English" for "how many English papers") or a bound the
question never states ("< 100 chars of text" for "how many full text papers").
agent/numeric/cells.py
does not match such a row. Pure functions of the row's name and the question's text.
"""

from __future__ import annotations

import re

from citewise.regex import lazy
from citewise.retrieval.terms import tokens

# A row name opening with a negation ("Not English", "No title", "Non-English", "w/o
# rerank") names the complement of what follows it.
_NEGATED_NAME = lazy(r"^\W*(not|no|non|without|excluding|except|w/o)\b", re.I)


# A question about what a filter removed asks for the complement rows by its verb ("how
# many papers did the English filter remove": the "Not English" row).
_REMOVAL = lazy(
    r"\b(filter\w*|remov\w*|drop\w*|exclu\w*|discard\w*|reject\w*|omit\w*|"
    r"eliminat\w*|prun\w*|lost|lose|loses|missing|lack\w*)\b",
    re.I,
)


def negates_unasked(name: str, question: str) -> bool:
    """The row's name negates what follows ("Not English") and the question neither uses
    that negation nor asks what was removed: "how many English papers" is not answered by
    the "Not English" row (the question "how many did the English filter remove" is)."""
    found = _NEGATED_NAME.match(name)
    if not found or _REMOVAL.search(question):
        return False
    return not set(tokens(found.group(1))) <= set(tokens(question))


# A row defined by a bound ("< 100 chars of text", "Over 50 pages", ">= 3 hops").
_BOUND_NAME = lazy(
    r"^\W*(?:<=?|>=?|≤|≥|over|under|above|below|more than|less than|fewer than|at least|"
    r"at most|up to)\s*(\d[\d.,]*)",
    re.I,
)


def bound_unasked(name: str, question: str) -> bool:
    """The row is defined by a bound whose number the question does not state: "< 100
    chars of text" does not answer "how many full text papers", though it says "text"."""
    found = _BOUND_NAME.match(name)
    if found is None:
        return False
    return found.group(1).rstrip(".,") not in re.findall(r"\d[\d.,]*", question)


def complement_or_bound(name: str, question: str) -> bool:
    """A row the question does not name however many of its words it shares: the
    complement of what it asks ("Not English") or a bound it does not state ("< 100")."""
    return negates_unasked(name, question) or bound_unasked(name, question)
