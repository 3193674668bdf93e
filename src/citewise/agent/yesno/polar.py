"""Yes/no questions a quote can settle word for word: what the claim is, and on which sides
of its relation a sentence puts the question's subject and object.

A polar question starts with an auxiliary ("Does ProgramFC use BM25 ...?", "Is the encoder
fine-tuned?") and is not an either-or question ("... on A or B?"); a "than" question ("Is A
better than B?") is polar when its comparative and two sides are found
(agent/yesno/polar_compare.py). `in_order` / `reversed_order` tell whether a sentence puts
the question's subject and object on the same sides of the relation (agent/yesno/polar_order.py):
"Y cites X" settles nothing about "Does X cite Y?". The lead itself is the yes/no reviser's
(agent/yesno/lead.py, quote.py); the word-for-word "polar" reviser that led a quote by its
own negations was removed by issue 38's Build 5 (0.4% of QASPER's even half, no lift).
"""

from __future__ import annotations

from collections.abc import Callable

from citewise.agent.yesno.asking import (
    AUXILIARIES,
    polar_clause,
    yes_no_shape,
)
from citewise.agent.yesno.polar_compare import Comparison, comparison
from citewise.agent.yesno.polar_order import (
    order_tokens,
    reversed_sides,
    same_direction,
    tokens,
)
from citewise.agent.yesno.polar_words import words
from citewise.retrieval.terms import stem

_AUXILIARIES = AUXILIARIES
# Question words that carry no claim of their own (the auxiliary, articles, prepositions).
_FUNCTION = _AUXILIARIES | words("function_words")


def _words(text: str) -> list[str]:
    return tokens(text)


def is_polar(text: str) -> bool:
    """A yes/no question (agent/yesno/asking.py) that a quote can settle word for word: no
    negator in its claim, and a "than" in it only as a comparison whose comparative and two
    sides are found ("Is A better than B?", agent/yesno/polar_compare.py; "other than X" is left
    to the judged lead). "Does A outperform B?" names its relation as a verb, whose sides
    agent/yesno/polar_order.py checks."""
    shape = yes_no_shape(text)
    if shape is None or shape.negators:
        return False
    return not shape.than or _compared(text) is not None


def asks_comparison(question: str) -> bool:
    """A "than" question whose comparative and two sides are found ("Is A better than B?"):
    only its comparison settles it (agent/yesno/polar_compare.py)."""
    return _compared(question) is not None


def _compared(question: str) -> Comparison | None:
    """What a "than" question compares (agent/yesno/polar_compare.py), or None."""
    return comparison(polar_clause(question), _claim_words(question))


def _claim_words(question: str, split: Callable[[str], list[str]] = _words) -> set[str]:
    """Stems of the words of the question that make its claim (as `split` reads them)."""
    said = {stem(w) for w in split(polar_clause(question)) if w.isalnum()}
    return said - {stem(w) for w in _FUNCTION}


def in_order(question: str, sentence: str) -> bool:
    """The sentence puts the question's subject and object on the sides of the relation
    the question puts them (agent/yesno/polar_order.py): "Y cites X" does not answer "Does X
    cite Y?"."""
    asked, claim = order_tokens(polar_clause(question)), _claim_words(question, order_tokens)
    return same_direction(asked, order_tokens(sentence), claim)


def reversed_order(question: str, sentence: str) -> bool:
    """The sentence writes the question's relation with the subject and object on the other
    sides (agent/yesno/polar_order.py `reversed_sides`)."""
    asked, claim = order_tokens(polar_clause(question)), _claim_words(question, order_tokens)
    return reversed_sides(asked, order_tokens(sentence), claim)
