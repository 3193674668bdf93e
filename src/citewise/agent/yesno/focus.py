"""A yes/no question's focus: the claim term the library writes least often (its most
specific word by inverse document frequency: "lexicons" in "Did the top teams experiment
with lexicons?" rather than "experiment"), and whether a sentence writes it, read as the
yes/no features read a claim term (agent/yesno/features.py `spellings`: its stem, a stem of
five letters or more that begins it or that it begins, or a synonym of a verb)."""

from __future__ import annotations

from collections.abc import Callable

from citewise.agent.yesno.claim import Claim
from citewise.agent.yesno.features import spellings
from citewise.retrieval.terms import stem, tokens


def focus_term(claim: Claim, weight: Callable[[str], float]) -> str | None:
    """The claim term of the highest weight (the first of equals); None when the library
    writes none of them (every weight is zero)."""
    weighed = [(weight(t), -n, t) for n, t in enumerate(claim.terms)]
    best = max((w for w in weighed if w[0] > 0), default=None)
    return best[2] if best is not None else None


def writes(text: str, term: str) -> bool:
    """Whether the sentence writes the term, in any spelling the features accept."""
    vocabulary = {stem(w) for w in tokens(text)}
    return bool(spellings(frozenset({stem(term)}), vocabulary)[stem(term)])
