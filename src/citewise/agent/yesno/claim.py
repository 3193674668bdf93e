"""A yes/no question turned into the claim it asks about.

"Do they evaluate their model on datasets other than RACE?" claims "they evaluate their
model on datasets" and asks for something besides "RACE" (an exclusion); "Did they use any
lexicon?" carries a negative-polarity item ("any", "ever"), which English puts in a question
whose asker expects "no" ("Did they use some lexicon?" expects "yes"); "Do they consistently
outperform ...?" widens its claim with a universal, which biases nothing. The claim's
terms are its content words less the words that point at the paper ("they", "the
authors"), which any sentence of the paper stands for.
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.agent.yesno.asking import asking_clause
from citewise.agent.yesno.cues import cues, find_phrase
from citewise.retrieval.terms import STOPWORDS, stem, tokens

# what ends an excluded phrase ("other than X, ...", "other than X to test ...")
_PHRASE_ENDS = frozenset(", ; : ? ( ) to for in on as with by that which who".split())


@dataclass(frozen=True)
class Claim:
    """The asking clause's words, the terms it claims and the terms it sets aside."""

    words: tuple[str, ...]
    terms: tuple[str, ...]  # content words of the claim, in order, as written (lower case)
    excluded: tuple[str, ...]  # the words after "other than" / "aside from" / ...
    negative_polarity: bool  # "any", "ever", ...: the question leans towards "no"
    universal: bool  # "all", "every", "consistently", ...

    @property
    def stems(self) -> frozenset[str]:
        return frozenset(stem(t) for t in self.terms)

    @property
    def excluded_stems(self) -> frozenset[str]:
        return frozenset(stem(t) for t in self.excluded)


def claim_of(question: str) -> Claim:
    """The claim of a yes/no question (the clause that asks, the auxiliary off)."""
    lists = cues()
    words = tokens(asking_clause(question))
    if words and words[0] in lists.words("auxiliaries"):
        words = words[1:]
    excluded: list[str] = []
    for _, end in find_phrase(words, lists.phrases("exclusions")):
        stop = end
        while stop < len(words) and words[stop] not in _PHRASE_ENDS:
            stop += 1
        excluded += words[end:stop]
    polarity, universals = lists.words("negative_polarity"), lists.words("universals")
    skip = STOPWORDS | lists.words("frame") | polarity | universals | lists.words("negations")
    cue_words = {w for p in lists.phrases("exclusions") for w in p}
    terms = [
        w
        for w in words
        if w.isalnum() and w not in skip and w not in cue_words and (len(w) > 1 or w.isdigit())
    ]
    return Claim(
        words=tuple(words),
        terms=tuple(dict.fromkeys(terms)),
        excluded=tuple(w for w in dict.fromkeys(excluded) if w not in skip),
        negative_polarity=bool(polarity.intersection(words)),
        universal=bool(universals.intersection(words)),
    )
