"""Yes/no questions: a quoted answer led by "Yes" or "No" when the quote settles it.

A polar question starts with an auxiliary ("Does ProgramFC use BM25 ...?", "Is the encoder
fine-tuned?") and is not an either-or question ("... on A or B?"); a "than" question ("Is A
better than B?") is polar when its comparative and two sides are found, and is settled by
its comparison alone (agent/yesno/polar_compare.py). Its drafted answer's
first sentence settles it when that sentence covers the question's terms (nearly all of
their weight, in its own words, and every other word of the claim) and the shown quote keeps
them. Then:

- no negation, hedge or condition touches what it shares with the question: "Yes" (a
  modal or "likely" in a clause aside, "..., which may be slow", that holds no word of
  the claim does not touch it; a condition or a stance, "if", "we believe", anywhere does);
- one negation (not, no, never, without, neither, nor, cannot, -n't) governs a word it
  shares with the question, in the main clause of the shown quote: "No";
- either way, only when the sentence puts the question's subject and object on the same
  sides of the relation (agent/yesno/polar_order.py): "Y cites X" settles nothing about "Does X
  cite Y?".

Anything else leaves the answer as it was, a quote; a refusal stays a refusal. A Chinese
question is read on its English bridge (agent/bridge/zh_answer.py `asks_yes_no`). The lead is
`AnswerSentence.lead`, so the sentence's text stays verbatim (agent/numeric/numeric_check.py keeps
a lead only on a sentence that quotes what it cites).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from citewise.agent.ask.answer import Answer, spoken
from citewise.agent.ask.question import Question
from citewise.agent.sentences.extractive import Candidate
from citewise.agent.yesno.asking import (
    AUXILIARIES,
    NEGATIONS,
    asking_clause,
    polar_clause,
    yes_no_shape,
)
from citewise.agent.yesno.polar_compare import Comparison, comparison, comparison_lead
from citewise.agent.yesno.polar_order import (
    order_tokens,
    reversed_sides,
    same_direction,
    same_word,
    tokens,
)
from citewise.agent.yesno.polar_words import words
from citewise.retrieval.terms import content_terms, stem

YES, NO = "Yes", "No"
# The share of the question's weighted terms the sentence must state in its own words.
SETTLING_SHARE = 0.8

_AUXILIARIES = AUXILIARIES
_NEGATIONS = NEGATIONS
# "not only X but also Y" affirms; "not necessarily" hedges (below)
_NOT_NEGATING = words("not_negating")
# a hedge that qualifies only the clause it stands in ("..., which may be slow")
_CLAUSE_HEDGES = words("clause_hedges")
# a condition, an unknown, an intention or a stance that frames the whole claim
_FRAMING_HEDGES = words("framing_hedges")
_HEDGES = _CLAUSE_HEDGES | _FRAMING_HEDGES
# what opens a clause that is not the sentence's claim: a relative or adverbial clause, or
# one joined on after a comma or semicolon ("..., and retraining it may take hours")
_ASIDE_OPENERS = words("aside_openers")
_JOINED = words("joined")
# negation in a verb or an adverb ("fails to improve", "rarely"): not the explicit
# negation a "No" needs, and no affirmation either
_NEGATIVE_WORDS = words("negative_words")
# two alternatives in one sentence ("BM25 instead of DPR"): which one is claimed needs word
# order this reading does not check
_CONTRASTS = words("contrasts")
_UNSETTLED = _NEGATIVE_WORDS | _CONTRASTS
# a sentence that names others' work ("Chen et al. use ...") and speaks of neither "we"
# nor what the question names reports another paper's work
_CITATION = re.compile(r"\bet al\b")
_FIRST_PERSON = words("first_person")
# words that end a clause: a negation's reach stops there
_BOUNDARIES = words("boundaries")
# a clause opened by one of these is subordinate: its negation is not the sentence's claim
_SUBORDINATE = words("subordinate")
# Question words that carry no claim of their own (the auxiliary, articles, prepositions).
_FUNCTION = _AUXILIARIES | words("function_words")
# What a question's subject may call the paper without the quote repeating it ("Does the
# paper use ...?" answered by "We use ..."), besides the names of the paper it is scoped to.
_PAPER_WORDS = words("paper_words")
_DETERMINERS = words("determiners")
SUBJECT_WORDS = 2  # how far after the auxiliary a question's subject is looked for


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


@dataclass(frozen=True)
class _Negation:
    reach: frozenset[str]  # stems of the words from the negation to the clause's end
    subordinate: bool


def _is_negation(words: list[str], i: int) -> bool:
    w = words[i]
    if w.endswith(("n't", "n’t")):
        return True
    if w not in _NEGATIONS:
        return False
    if w == "not" and i + 1 < len(words) and words[i + 1] in _NOT_NEGATING:
        return False
    return not (w == "without" and i == 0)  # "Without X, Y ...": a condition


def _negations(text: str) -> list[_Negation]:
    words = _words(text)
    found: list[_Negation] = []
    for i in range(len(words)):
        if not _is_negation(words, i):
            continue
        start = i
        while start > 0 and words[start - 1] not in _BOUNDARIES:
            start -= 1
        end = i + 1
        while end < len(words) and words[end] not in _BOUNDARIES:
            end += 1
        subordinate = any(w in _SUBORDINATE for w in words[start:i])
        found.append(_Negation(frozenset(stem(w) for w in words[i + 1 : end]), subordinate))
    return found


def _claim_words(question: str, split: Callable[[str], list[str]] = _words) -> set[str]:
    """Stems of the words of the question that make its claim (as `split` reads them)."""
    said = {stem(w) for w in split(polar_clause(question)) if w.isalnum()}
    return said - {stem(w) for w in _FUNCTION}


def _unsettled(text: str, question: str) -> bool:
    """A question, a hedge on the claim, a negative verb or two alternatives the question
    does not itself use."""
    asked = set(_words(question))
    words = _words(text)
    if text.rstrip().endswith("?"):
        return True
    if any(w in _UNSETTLED and w not in asked for w in words):
        return True
    claim = _claim_words(question)
    return any(
        w in _HEDGES and w not in asked and not (w in _CLAUSE_HEDGES and _aside(words, i, claim))
        for i, w in enumerate(words)
    )


def _aside(words: list[str], i: int, claim: set[str]) -> bool:
    """The hedge at `i` stands in a clause that is not the main one and holds no word of the
    claim: a relative or adverbial clause ("which may be slow"), or one joined after a comma
    or semicolon ("; retraining may take hours")."""
    start = i
    while start > 0 and words[start - 1] not in _BOUNDARIES | _ASIDE_OPENERS:
        start -= 1
    end = i + 1
    while end < len(words) and words[end] not in _BOUNDARIES:
        end += 1
    opener = words[start - 1] if start else ""
    joined = opener in (",", ";") and (opener == ";" or words[start] in _JOINED)
    if not (opener in _ASIDE_OPENERS or joined):
        return False
    return not {stem(w) for w in words[start:end]} & claim


def _subject(question: str) -> set[str]:
    """Stems of the words right after the auxiliary (determiners aside): where a polar
    question puts its subject ("Does [the] ProgramFC [model] use ...")."""
    words = [w for w in _words(polar_clause(question))[1:] if w not in _DETERMINERS]
    return {stem(w) for w in words[:SUBJECT_WORDS]}


def settles(question: Question, candidate: Candidate, shown: str) -> bool:
    """The sentence states every word of the question's claim and nearly all of its terms'
    weight (a learned alias counts; the subject may be the paper itself, by its name or as
    "the paper", which "we" stands for), and the shown quote keeps every one of them the
    sentence writes. A "than" question's comparative may be said by its opposite ("B is
    worse than A"); then every other word must be the sentence's own."""
    written = _words(candidate.text)
    said = {stem(w) for w in written}
    claim = _claim_words(question.text)
    # "used" and "use" are one word though their stems differ
    said |= {c for c in claim - said if any(same_word(c, w) for w in written)}
    compared = _compared(question.text)
    if compared is not None:
        claim -= {stem(compared.comparative)}
        if claim - said:
            return False
    elif candidate.own < SETTLING_SHARE:
        return False
    asked = {stem(t) for t in content_terms(asking_clause(question.text))}
    paper = (asked - {stem(t) for t in question.terms}) | {stem(w) for w in _PAPER_WORDS}
    if claim - said - candidate.terms - (paper & _subject(question.text)):
        return False
    if _CITATION.search(candidate.text) and not (said & _FIRST_PERSON or said & paper):
        return False  # another paper's work, as this one reports it
    kept = _words(shown)
    kept_stems = {stem(w) for w in kept}
    return all(
        c in kept_stems or any(same_word(c, w) for w in kept)
        for c in (claim | candidate.terms) & said
    )


def polarity(question: str, sentence: str, shown: str) -> str | None:
    """ "Yes", "No" or None (not settled) for a sentence that states the question's terms:
    any negation near a claim word stops a "Yes"; a "No" needs the one negation to govern
    a term of the claim ("does not use a neural network"), not only its verb ("use")."""
    if _unsettled(sentence, question) or _words(shown)[:1] in ([w] for w in _SUBORDINATE):
        return None  # "While SciBERT is trained on ...": background, not the claim
    touching = [n for n in _negations(sentence) if n.reach & _claim_words(question)]
    if not touching:
        return YES
    terms = {stem(t) for t in content_terms(polar_clause(question))}
    governing = [n for n in _negations(shown) if n.reach & terms]
    if len(touching) == 1 and len(governing) == 1 and not governing[0].subordinate:
        return NO
    return None


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


def _lead(question: str, sentence: str, shown: str) -> str | None:
    """The lead a settling sentence gives: a "than" question's by its comparison, any
    other's by its negations and the sides of its relation."""
    compared = _compared(question)
    if compared is None:
        lead = polarity(question, sentence, shown)
        return lead if lead is not None and in_order(question, sentence) else None
    if _unsettled(sentence, question) or _words(shown)[:1] in ([w] for w in _SUBORDINATE):
        return None
    lead = comparison_lead(compared, sentence)
    return lead if comparison_lead(compared, shown) == lead else None  # the shown quote says it


def lead_answer(question: Question, candidate: Candidate | None, answer: Answer) -> Answer:
    """The answer led by "Yes" or "No" when the question is polar and its first quoted
    sentence settles it; otherwise the answer unchanged."""
    if answer.refused or candidate is None or not answer.sentences:
        return answer
    first = answer.sentences[0]
    if first.kind != "quote" or not first.citations or not is_polar(question.text):
        return answer
    if answer.signals.get("in_scope", 1.0) < 1.0 or not settles(question, candidate, first.text):
        return answer
    lead = _lead(question.text, candidate.text, first.text)
    if lead is None:
        return answer
    first.lead = lead
    answer.answer = spoken(answer.sentences)
    return answer
