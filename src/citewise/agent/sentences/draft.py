"""Draft an answer from retrieved passages and measure it for the refusal decision.

The draft is the best sentence (one per part of a two-part question; more, and the sentences
that continue them, while the answer stays within 80 words: agent/sentences/joining.py), each cut to
its shortest answering clause and the one after it; the signals say how well it answers
(agent/ask/refusal.py decides).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from citewise.agent.ask.features import Shape, Similarity
from citewise.agent.ask.question import Question
from citewise.agent.ask.rank import rescored
from citewise.agent.ask.refusal import ATTRIBUTE_NAMED_SHARE
from citewise.agent.sentences.acronyms import defining_first, spells_out_the_name
from citewise.agent.sentences.answer_shapes import (
    asks_which_thing,
    misses_the_names_asked,
    names_a_new_thing,
    names_the_agent,
    picks_by_description,
    states_reason,
    wants_reason,
)
from citewise.agent.sentences.extractive import (
    Candidate,
    Passage,
    quantities,
    score_candidates,
    select_answer,
)
from citewise.agent.sentences.figures import asks_about_figure, visual_words
from citewise.agent.sentences.joining import Span, filled, listed
from citewise.agent.sentences.shape_terms import WANTS_LINK as _WANTS_LINK
from citewise.agent.sentences.shape_terms import shape_aliases as shape_aliases  # re-exported
from citewise.agent.sentences.shape_terms import shape_terms as shape_terms  # re-exported
from citewise.agent.sentences.spans import shortest_span
from citewise.agent.sentences.units import SHAPE_FLOOR, in_unit_first
from citewise.agent.yesno.asking import yes_no_shape
from citewise.regex import lazy
from citewise.retrieval.terms import stem

Weight = Callable[[str, str], float]
OUTSIDE_SCOPE_SCORE = 0.5
# A span that spells out the acronym a definition question asks about holds the answer.
DEFINITION_FOUND_COVERAGE = 0.7
# Answer shapes some questions need (a link: agent/sentences/shape_terms.py).
_LINK = lazy(r"https?://|www\.|\bdoi\.org/|\b10\.\d{4,}/", re.IGNORECASE)
_WANTS_DATE = lazy(r"^\s*when\b|\b(what|which|in which) (year|date|month|day)\b", re.I)
_DATE = lazy(
    r"\b(1[5-9]|20)\d\d\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d"
    r"|\d{1,2}[:.]\d\d\s*[ap]\.?m",
    re.IGNORECASE,
)
# "how long did it take" asks for a duration; "how long is the dataset" for a size, which
# any quantity states ("125,383 certificates")
_WANTS_DURATION = lazy(
    r"\bhow long\b(?!\s+(?:is|are|was|were)\b)|\b(wall-clock|run ?time|how much time)\b", re.I
)
# a duration or a length, a number with its unit: what "how long" is answered in
_UNITS = (
    r"(ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|words?|"
    r"pages?|tokens?|characters?|km|cm|mm|m)\b"
)
_DURATION = lazy(
    r"\b(\d[\d.,]*\s*|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an|"
    r"half|several|few)[\s-]+)" + _UNITS,
    re.IGNORECASE,
)
# "How did X compare?" is answered by a comparison ("20 times less", "faster than")
_WANTS_COMPARISON = lazy(r"\bhow (?:did|does|do|would)\b[^?]*\bcompare\b", re.I)
_COMPARISON = lazy(
    r"\b(times|fold|less|more|fewer|faster|slower|higher|lower|better|worse|smaller|larger|"
    r"than|outperform\w*|exceed\w*)\b",
    re.IGNORECASE,
)
_REFERS_TO_FIGURE = lazy(r"\b(fig(ure)?s?\.?\s*\d|figures?\b)", re.IGNORECASE)
_DIGIT = lazy(r"\d")
# Two capitalized words in a row, or an initial and a surname: a person's name.
_NAME = lazy(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)*\s+[A-Z][a-z]+|\b[A-Z]\.\s*[A-Z][a-z]+")


@dataclass
class Draft:
    spans: list[Span]
    signals: dict[str, float] = field(default_factory=dict)


def _pick(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """select_answer's sentences, the best one first; for a number question the sentences
    that state a number go before those that state none, and one in the unit of the measure
    it asks about first."""
    chosen = select_answer(ranked, question)
    if question.expects_number and chosen and not _DIGIT.search(chosen[0].text):
        stated = [c for c in chosen if _DIGIT.search(c.text) and quantities(c.text, question)]
        chosen = stated + [c for c in chosen if c not in stated]
    chosen = in_unit_first(question, chosen, ranked)
    return _no_rivals(
        question, defining_first(question, _shape_first(question, chosen, ranked), ranked)
    )


def _no_rivals(question: Question, chosen: list[Candidate]) -> list[Candidate]:
    """A further sentence stating another date for a "when" question is a rival answer,
    not context: it is left out when the first sentence states one. (Further numbers for
    "how many" are kept: on QASPER odd the second sentence held the count as often as
    not, accuracy 0.415 with them and 0.388 without.)"""
    if len(chosen) < 2 or not _WANTS_DATE.search(question.text):
        return chosen
    if type_fit(question, chosen[0].text) < 1.0:
        return chosen
    return [chosen[0], *[c for c in chosen[1:] if type_fit(question, c.text) < 1.0]]


def _shape_first(
    question: Question, chosen: list[Candidate], ranked: list[Candidate]
) -> list[Candidate]:
    """When the best sentence lacks what the question needs (a date, a link, a name, ...),
    a nearly as good one that has it goes first."""
    if not chosen or _fits(question, chosen[0]):
        return chosen
    floor = SHAPE_FLOOR * chosen[0].score
    for candidate in ranked[:30]:
        if candidate.score < floor:
            break
        if _fits(question, candidate):
            return [candidate, *[c for c in chosen if c.text != candidate.text]]
    return chosen


def _fits(question: Question, candidate: Candidate) -> bool:
    """Has the shape the question needs; a name for "who funded ..." must also name the
    act asked about (an acknowledgement lists names too)."""
    named = not question.expects_name or candidate.attribute >= ATTRIBUTE_NAMED_SHARE
    return type_fit(question, candidate.text) == 1.0 and named


def refers_to_figure(question: Question, text: str) -> bool:
    """Whether the text is about the figure the question names (any figure if it names
    none): "Figure 1" is not answered by a sentence about Figure 2."""
    if not question.figure_labels:
        return bool(_REFERS_TO_FIGURE.search(text))
    numbers = [label.split()[-1] for label in question.figure_labels]
    return any(
        re.search(rf"\bfig(?:ure)?s?\.?\s*{re.escape(n)}(?![\d.])", text, re.IGNORECASE)
        for n in numbers
    )


def type_fit(question: Question, text: str, from_caption: bool = False) -> float:
    """1.0 when the span holds what the question type needs: a number, a name, a date, a
    link, the visual property asked about; for a question about a figure, text about a
    figure (its caption, or a sentence that refers to one)."""
    visual = visual_words(question)
    if visual and not visual & {w.lower() for w in re.findall(r"\w+", text)}:
        return 0.0
    any_caption = from_caption and not question.figure_labels
    if asks_about_figure(question) and not (any_caption or refers_to_figure(question, text)):
        return 0.0
    if _WANTS_LINK.search(question.text):
        return 1.0 if _LINK.search(text) else 0.0
    if _WANTS_DURATION.search(question.text) and not _DURATION.search(text):
        return 0.0
    if _WANTS_COMPARISON.search(question.text) and not _COMPARISON.search(text):
        return 0.0
    if _WANTS_DATE.search(question.text):
        return 1.0 if _DATE.search(text) else 0.0
    if question.expects_number:
        return 1.0 if quantities(text, question) else 0.0
    if question.expects_name:
        names = {m.group(0) for m in _NAME.finditer(text)}
        named = any(n.lower() not in question.text.lower() for n in names)
        return 1.0 if named or names_the_agent(question, text) else 0.0
    if wants_reason(question):
        return 1.0 if states_reason(text) else 0.0
    return 1.0


def picks_out(question: Question, text: str) -> float:
    """0.0 when a "which solver ..." question is answered by text naming nothing it does
    not, or a "does X use BM25" question by text writing none of its names (a measure on
    the answer only: a sentence naming the thing in lower case, "partitioned variable
    projection", is still picked, with less support)."""
    if asks_which_thing(question) and not (
        names_a_new_thing(question, text) or picks_by_description(question, text)
    ):
        return 0.0
    return 0.0 if misses_the_names_asked(question, text) else 1.0


def shape_tests() -> Shape:
    """The answer-shape tests the scorer's features read."""
    return Shape(
        type_fit=lambda q, text: type_fit(q, text) * picks_out(q, text),
        new_name=names_a_new_thing,
    )


def ranked_candidates(
    question: Question, passages: list[Passage], weight: Weight, document_of: dict[str, str]
) -> list[Candidate]:
    """Every sentence of the passages by term coverage, those outside scope counting less."""
    return _prefer_scope(score_candidates(question, passages, weight), question, document_of)


def _rescored(
    part: Question,
    question: Question,
    ranked: list[Candidate],
    passages: list[Passage],
    similarity: Similarity,
    document_of: dict[str, str],
) -> list[Candidate]:
    """The candidates re-ranked by the fitted scorer, those outside scope counting less."""
    scored = rescored(part, ranked, passages, similarity, shape_tests())
    return _prefer_scope(scored, question, document_of)


def _scored_pick(
    part: Question,
    coverage_order: list[Candidate],
    plain: list[Candidate],
    rescored: list[Candidate],
) -> list[Candidate]:
    """The scorer's pick, unless the term-coverage pick was moved up by what the question
    asks for (a unit, a date, a spelled-out name) or holds a figure's caption: that evidence
    of the shape asked for outranks the scorer's general preferences (the candidates kept
    with the scorer's log-odds, for the support)."""
    if not plain or not coverage_order:
        return _pick(part, rescored)
    if plain[0].text == coverage_order[0].text and all(c.kind != "caption" for c in plain):
        return _pick(part, rescored)
    fitted = {(c.block_id, c.text): c for c in rescored}
    return [fitted.get((c.block_id, c.text), c) for c in plain]


def draft_answer(
    question: Question,
    passages: list[Passage],
    weight: Weight,
    document_of: dict[str, str],
    similarity: Similarity,
) -> Draft:
    """The drafted answer and its signals (empty spans: nothing to draft from)."""
    parts = question.parts()
    chosen: list[Candidate] = []
    asked: list[Question] = []  # the part each chosen sentence answers
    coverage = 0.0
    about = 0.0
    ranked: list[Candidate] = []
    plain: list[tuple[Question, list[Candidate]]] = []  # each part's term-coverage pick
    for part in parts:
        ranked = ranked_candidates(part, passages, weight, document_of)
        about = max([about, *(c.coverage for c in ranked[:20])])
        plain.append((part, _pick(part, ranked)))
        coverage_order = ranked
        ranked = _rescored(part, question, ranked, passages, similarity, document_of)
        best = _scored_pick(part, coverage_order, plain[-1][1], ranked)
        best = best if len(parts) == 1 else best[:1]
        new = [c for c in best if all(c.text != o.text for o in chosen)]
        chosen += new
        asked += [part] * len(new)
        coverage += _coverage(best, part) / len(parts)
    if not chosen:
        return Draft([], {"drafted": 0.0, "about": round(about, 3)})
    doc_weight = _doc_weight(weight, document_of.get(chosen[0].block_id, ""))
    spans = [_cut(c, part, doc_weight) for c, part in zip(chosen, asked, strict=True)]
    if len(parts) == 1:
        spans = filled(spans, ranked, lambda c: _cut(c, question, doc_weight))
        spans = listed(spans, question, passages, document_of)
    text = " ".join(s.text for s in spans)
    kinds = {p.block_id: p.kind for p in passages}
    captions = {kinds.get(s.candidate.block_id, "") for s in spans}
    in_scope = (
        1.0 if not question.scope or document_of.get(chosen[0].block_id) in question.scope else 0.0
    )
    signals = {
        "drafted": 1.0,
        "coverage": round(coverage, 3),
        "attribute": round(max(c.attribute for c in chosen), 3),
        "type_fit": type_fit(question, text, captions <= {"caption"}) * picks_out(question, text),
        "in_scope": in_scope,
        "about": round(about, 3),
        "margin": round(_margin(chosen[0], ranked), 3),
        "logit": round(chosen[0].logit or 0.0, 4),  # the fitted scorer's, agent/ask/scorer.py
        "table": 1.0 if chosen[0].kind == "table" else 0.0,  # a table row, not prose
        "words": float(len(text.split())),
        **_answered(question, plain, document_of),
    }
    return Draft(spans, signals)


def _cut(candidate: Candidate, part: Question, doc_weight: Callable[[str], float]) -> Span:
    """The candidate cut to its shortest answering clauses and the one after them; a yes/no
    question is settled by the clause stating its claim, not by what follows it."""
    text = shortest_span(
        candidate.text,
        part,
        doc_weight,
        _shape_kept(part, candidate.text),
        then_next=yes_no_shape(part.text) is None,
    )
    return Span(candidate, text)


def _answered(
    question: Question, plain: list[tuple[Question, list[Candidate]]], document_of: dict[str, str]
) -> dict[str, float]:
    """Whether the paper answers the question at all (agent/ask/refusal.py decides on these),
    read off the term-coverage pick, before the scorer chooses among the sentences."""
    chosen = [c for _, best in plain for c in best]
    if not chosen:
        return {}
    coverage = sum(_coverage(best, part) for part, best in plain) / len(plain)
    if spells_out_the_name(question, chosen[0].text):  # "OLMo": "... Open Language Model"
        coverage = max(coverage, DEFINITION_FOUND_COVERAGE)
    text = " ".join(c.text for c in chosen)
    scope = question.scope
    return {
        "answered_coverage": round(coverage, 3),
        "answered_attribute": round(max(c.attribute for c in chosen), 3),
        "answered_type_fit": type_fit(question, text) * picks_out(question, text),
        "answered_in_scope": float(not scope or document_of.get(chosen[0].block_id) in scope),
    }


def _prefer_scope(
    ranked: list[Candidate], question: Question, document_of: dict[str, str]
) -> list[Candidate]:
    """Sentences from outside the papers the question names count for less (soft scope)."""
    if not question.scope:
        return ranked
    outside = [
        replace(c, score=c.score * OUTSIDE_SCOPE_SCORE)
        for c in ranked
        if document_of.get(c.block_id) not in question.scope
    ]
    inside = [c for c in ranked if document_of.get(c.block_id) in question.scope]
    return sorted(inside + outside, key=lambda c: -c.score)


def _doc_weight(weight: Weight, doc: str) -> Callable[[str], float]:
    return lambda term: weight(term, doc)


def _coverage(chosen: list[Candidate], question: Question) -> float:
    """Mostly the best sentence's weighted coverage, partly the answer's joint coverage."""
    if not chosen or not question.terms:
        return 0.0
    covered = set().union(*(c.terms for c in chosen))
    best = max(c.coverage for c in chosen)
    joint = len(covered) / len({stem(t) for t in question.terms})
    return 0.7 * best + 0.3 * joint


def _margin(best: Candidate, ranked: list[Candidate]) -> float:
    """How far the best sentence's probability (by the fitted scorer; its score when the
    scorer has not read it) leads the best one's from another block."""

    def value(c: Candidate) -> float:
        return 1.0 / (1.0 + math.exp(-c.logit)) if c.logit is not None else c.score

    others = [value(c) for c in ranked if c.block_id != best.block_id]
    return value(best) - max(others, default=0.0)


def _shape_kept(question: Question, sentence: str) -> Callable[[str], bool]:
    """A span of this sentence must keep the shape the question needs, if it has it."""
    if type_fit(question, sentence) < 1.0:
        return lambda _span: True
    return lambda span: type_fit(question, span) == 1.0
