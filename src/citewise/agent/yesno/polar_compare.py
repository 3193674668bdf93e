"""Yes/no questions that compare with "than" (agent/yesno/polar.py): "Is A better than B?",
"Does X achieve higher accuracy than Y?", "Is the F1 of A lower than that of B?".

A comparison has two sides and a direction: a comparative word ("better", "higher",
"more accurate") between what is compared (A, before it) and what it is compared with (B,
after "than"). `comparison` reads them from the question; a question that makes one is
left without a judged lead (agent/yesno/lead.py: only its comparison would settle it).
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.agent.yesno.polar_order import CLAUSE_ENDS, PHRASE_BREAKS, tokens
from citewise.agent.yesno.polar_words import pairs, words
from citewise.retrieval.terms import stem

# comparatives and their opposites ("more" / "less" also stand before an adjective:
# "more accurate than")
_PAIRS = pairs("comparative_pairs")
OPPOSITES: dict[str, frozenset[str]] = {}
for _one, _other in _PAIRS:
    OPPOSITES[_one] = OPPOSITES.get(_one, frozenset()) | {_other}
    OPPOSITES[_other] = OPPOSITES.get(_other, frozenset()) | {_one}
COMPARATIVES = frozenset(OPPOSITES)
# how far before "than" the comparative may stand ("higher top-1 accuracy than")
_REACH = 4
_BE = words("compare_be")
_DO = words("compare_do")
_DETERMINERS = words("compare_determiners")
# "than that of B", "than those of B": the measure again, then B
_STAND_INS = words("stand_ins")
# what ends the phrase B after "than": "... than B on the wet slabs", "... than B when ..."
_AFTER_B = PHRASE_BREAKS | words("after_compared")


@dataclass(frozen=True)
class Comparison:
    """What a "than" question compares: the stems of A, of B, and its comparative."""

    first: frozenset[str]
    second: frozenset[str]
    comparative: str


def _pair(words: list[str], than: int) -> int | None:
    """Where the comparative of the "than" at `than` stands, or None."""
    for k in range(than - 1, max(-1, than - 1 - _REACH), -1):
        if words[k] in CLAUSE_ENDS:
            return None
        if words[k] in COMPARATIVES:
            return k
    return None


def _of_phrase(words: list[str]) -> list[str]:
    """ "the F1 of A" -> A; "that of B" -> B: what an "of" phrase names."""
    return words[words.index("of") + 1 :] if "of" in words else words


def comparison(asking: str, claim: set[str]) -> Comparison | None:
    """The comparison a polar question (its asking clause, from the auxiliary) makes, or
    None when it has no single "than" with a comparative, or a side is not found."""
    words = tokens(asking)
    thans = [n for n, w in enumerate(words) if w == "than"]
    if len(thans) != 1 or not words or words[0] not in _BE | _DO:
        return None
    than = thans[0]
    at = _pair(words, than)
    if at is None:
        return None
    body = words[1:at]
    if words[0] in _DO:  # "Does X achieve higher accuracy than Y": X, then the verb
        while body and body[-1] in _DETERMINERS:
            body = body[:-1]
        body = body[:-1]
    first = {stem(w) for w in _of_phrase(body)} & claim
    rest = words[than + 1 :]
    if rest[:1] in ([w] for w in _STAND_INS):
        rest = _of_phrase(rest)
    end = next((n for n, w in enumerate(rest) if n and w in _AFTER_B), len(rest))
    second = {stem(w) for w in rest[:end]} & claim
    if not first - second or not second - first:
        return None
    return Comparison(frozenset(first - second), frozenset(second - first), words[at])
