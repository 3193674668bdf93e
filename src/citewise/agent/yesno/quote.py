"""What the quoted sentence settles by its own words, before any model is asked.

- a hedge right before a word of the claim ("may shorten"): nothing is settled, the quote
  stands without a lead;
- a quote that reports another paper's finding ("... (Stone et al., 2015)", and neither
  "we" nor "our"): nothing is settled about this paper;
- a negation, a negative verb or a contrast followed, within a few words of its clause, by
  a word of the claim ("does not use a neural network", "fails to remove", "instead of an
  air microphone"), in a clause of the sentence's own (not one opened by "as", "that",
  "which", ...): "No";
- a different thing where the question names one: the question's name right before a word
  of the claim is one the paper never writes, and the quote writes another word there
  ("AudioSet recordings" asked, "field recordings" quoted): "No".

- a quote that writes every word of the claim but puts the question's subject and object on
  the other sides of its relation (agent/yesno/polar_order.py: "PUMICE extends ONYX" for "Does
  ONYX extend PUMICE?"): nothing is settled.

A question that itself holds the cue ("Is it done without supervision?") is not settled by
the cue. Anything else is left to the fitted model (judge.py).
"""

from __future__ import annotations

import re

from citewise.agent.yesno.claim import Claim
from citewise.agent.yesno.cues import cues, find_phrase
from citewise.agent.yesno.features import names_in
from citewise.agent.yesno.polar import reversed_order
from citewise.retrieval.terms import STOPWORDS, stem, tokens

NO = "No"
UNSETTLED = "unsettled"
# how far after a negation the claim word it governs may stand
REACH = 4
_CLAUSE_ENDS = frozenset(", ; : ( ) ? but while whereas although though however".split())
_OTHERS = re.compile(r"\bet al\b")
_FIRST_PERSON = frozenset("we our us ours".split())


def _claimed(word: str, claim: frozenset[str]) -> bool:
    return stem(word) in claim


def _reaches(words: list[str], start: int, end: int, claim: frozenset[str]) -> bool:
    """A claim word within REACH words after the cue at start:end, in the same clause, that
    the sentence does not also write before the cue ("a column tagger instead of a row
    tagger" sets "row" against "column", not "tagger" against itself)."""
    before = {stem(w) for w in words[:start]}
    for w in words[end : end + REACH]:
        if w in _CLAUSE_ENDS:
            return False
        if _claimed(w, claim) and stem(w) not in before:
            return True
    return False


def _subordinate(words: list[str], at: int) -> bool:
    """The word at `at` stands in a clause opened by a subordinator ("as research has shown
    that metrics do not ..."), which is not the sentence's own claim."""
    left = at
    while left > 0 and words[left - 1] not in _CLAUSE_ENDS:
        left -= 1
    return bool(set(words[left:at]) & cues().words("subordinators"))


def quote_lead(question: str, claim: Claim, quote: str, unwritten: frozenset[str]) -> str | None:
    """ "No", UNSETTLED, or None (the quote's words settle nothing by themselves).
    `unwritten`: the stems of claim words the paper never writes."""
    lists = cues()
    words = tokens(quote)
    asked = set(claim.words)
    stems = claim.stems
    written = {stem(w) for w in words}
    if stems <= written and reversed_order(question, quote):
        return UNSETTLED  # "Y cites X" settles nothing about "Does X cite Y?"
    for i, w in enumerate(words):
        if w in lists.words("hedges") and w not in asked and _reaches(words, i, i + 1, stems):
            return UNSETTLED
    if _OTHERS.search(quote) and not set(words) & _FIRST_PERSON:
        return UNSETTLED
    cues_no = lists.phrases("negations") + lists.phrases("contrasts")
    cues_no += lists.phrases("negative_verbs")
    spans = find_phrase(words, cues_no)
    spans += [(i, i + 1) for i, w in enumerate(words) if w.endswith(("n't", "n’t"))]
    whole = _writes_all(stems, written)
    for start, end in spans:
        if set(words[start:end]) & asked or _subordinate(words, start):
            continue
        if whole and _reaches(words, start, end, stems):
            return NO
    return NO if _substituted(question, claim, words, unwritten) else None


def _writes_all(claim: frozenset[str], written: set[str]) -> bool:
    """Every claim stem is written, as itself or as a stem that begins it or that it begins
    (five letters or more)."""
    return all(
        c in written
        or any(len(w) >= 5 <= len(c) and (w.startswith(c) or c.startswith(w)) for w in written)
        for c in claim
    )


def _substituted(question: str, claim: Claim, words: list[str], unwritten: frozenset[str]) -> bool:
    """The question writes "A H" with A a name the paper never writes ("AudioSet"), the quote
    "B H" with B a content word the question does not write. (A common word the paper never
    writes may be the question's paraphrase of the paper's: it settles nothing.)"""
    asked = list(claim.words)
    named = set(names_in(question))
    for i in range(len(asked) - 1):
        modifier, head = asked[i], asked[i + 1]
        if modifier not in named or stem(modifier) not in unwritten:
            continue
        if stem(head) not in claim.stems:
            continue
        for j in range(1, len(words)):
            before = words[j - 1]
            content = before.isalpha() and before not in STOPWORDS
            if stem(words[j]) == stem(head) and content and before not in asked:
                return True
    return False
