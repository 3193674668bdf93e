"""The yes/no lead on an answer: "Yes" or "No" before the quote when the paper settles it.

A quote that settles the question by its own words (agent/yesno/polar.py: the claim stated, or
negated, with its sides in the question's order; then quote.py: a negation, a contrast or
another name on the claim says "No", a hedge or a reversed relation settles nothing) leads
as it says. Otherwise the question's claim is judged on the paper it asks about (judge.py:
how well the paper's body covers the claim, how much of it the paper never writes, whether
a negation stands near it, whether the claim reaches past what the paper names) by the
fitted model; a probability within the model's margin of its threshold settles nothing, and
the quote stays without a lead. A yes/no question about one paper
(scoped to it) that the paper's closest passages would leave refused is answered with the
drafted quote when the model settles it: "No" is an answer there, not a refusal.
The answer's signals record what the lead read: `yes_no_probability` (the model's, whenever
it judged), `yes_no_widened` (its feature) and `yes_no_unrefused` (1.0: a refused question
answered), so an evaluation run shows what answering refused questions gains and costs
(scripts/yes_no_report.py).
"""

from __future__ import annotations

from dataclasses import replace

from citewise.agent.ask.answer import Answer, AnswerSentence, spoken
from citewise.agent.ask.question import Question
from citewise.agent.ask.refusal import NOT_ANSWERED
from citewise.agent.sentences.extractive import split_sentences
from citewise.agent.yesno.asking import yes_no_shape
from citewise.agent.yesno.claim import claim_of
from citewise.agent.yesno.judge import NO, YES, judge
from citewise.agent.yesno.paper import PaperSentences
from citewise.agent.yesno.polar import asks_comparison
from citewise.agent.yesno.quote import quote_lead
from citewise.retrieval.hybrid import Retriever
from citewise.retrieval.terms import stem, tokens
from citewise.store.protocols import Store


def is_yes_no_question(text: str) -> bool:
    """A question answered by yes or no (agent/yesno/asking.py) that is not itself negative
    ("Doesn't it ...?": a "No" would not say which way)."""
    shape = yes_no_shape(text)
    return shape is not None and not shape.negated


class YesNoLeads:
    """Leads the answers of one library's yes/no questions (papers read once each)."""

    def __init__(self, store: Store, retriever: Retriever) -> None:
        self.retriever = retriever
        self.sentences = PaperSentences(store)

    def forget(self) -> None:
        self.sentences = PaperSentences(self.sentences.store)

    def lead(self, question: Question, answer: Answer) -> Answer:
        """The answer led by "Yes" or "No" when the question asks yes or no and the paper
        it is about settles it; otherwise the answer unchanged."""
        if answer.sentences and answer.sentences[0].lead:
            return answer  # the quote settles it by its own words (agent/yesno/polar.py)
        if not is_yes_no_question(question.text) or answer.signals.get("in_scope", 1.0) < 1.0:
            return answer
        if asks_comparison(question.text):
            return answer  # only its comparison settles "Is A better than B?" (polar_compare)
        scoped = len(question.scope) == 1
        if scoped and _names_what_the_paper_lacks(answer):
            return _another_thing(question, answer)
        if answer.refused and not (scoped and answer.withheld):
            return answer
        sentences = answer.withheld if answer.refused else answer.sentences
        first = sentences[0] if sentences else None
        cited = {e.id: e.document for e in answer.evidence}
        if first is None or first.kind != "quote" or first.citations[:1] == []:
            return answer
        if first.citations[0] not in cited:
            return answer
        document = question.scope[0] if scoped else cited[first.citations[0]]
        found = judge(question.text, document, self.sentences, self.retriever)
        settled = quote_lead(question.text, found.claim, first.text, found.unwritten)
        lead = found.lead if settled is None else settled
        signals = {
            **answer.signals,
            "yes_no_probability": round(found.probability, 4),
            "yes_no_widened": found.features.widened,
        }
        if lead not in (YES, NO):
            return replace(answer, signals=signals)
        if answer.refused:  # the paper's closest quote answers a question about the paper
            quoted = {c for s in sentences for c in s.citations}
            answer = replace(
                answer,
                refused=False,
                sentences=list(sentences),
                withheld=[],
                refusal_kind=None,
                evidence=[e for e in answer.evidence if e.id in quoted],
                signals={**signals, "yes_no_unrefused": 1.0},
            )
        else:
            answer = replace(answer, signals=signals)
        answer.sentences[0].lead = lead
        answer.answer = spoken(answer.sentences)
        return answer


def _names_what_the_paper_lacks(answer: Answer) -> bool:
    """Refused because the question names what its paper never writes (qa.py `_absent`)."""
    missing = answer.refused and answer.refusal_kind == NOT_ANSWERED and not answer.withheld
    return missing and bool(answer.signals.get("label_missing"))


def _another_thing(question: Question, answer: Answer) -> Answer:
    """ "No" before the passage closest to the question's claim, for a yes/no question that
    names what its paper never writes (agent/sentences/figures.py `absent_names`): the paper is
    about
    something else. The closest passage is the considered one whose sentence writes most of
    the claim's words."""
    claim = claim_of(question.text).stems
    best: tuple[int, str, str] | None = None
    for item in answer.evidence:
        for text in split_sentences(item.quote):
            shared = len(claim & {stem(w) for w in tokens(text)})
            if shared and (best is None or shared > best[0]):
                best = (shared, text, item.id)
    if best is None:
        return answer
    _, text, block = best
    quoted = AnswerSentence(text, [block], answer.support_score, lead=NO)
    return replace(
        answer,
        refused=False,
        answer=spoken([quoted]),
        sentences=[quoted],
        evidence=[e for e in answer.evidence if e.id == block],
        refusal_kind=None,
    )
