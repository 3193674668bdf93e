"""The answer shapes `ask` ships with, as proposers and revisers (registry.py).

Proposers, in the order the scoring step ranks them (pick.py):

- `compare`: a comparative question over two or more papers, each paper answering within
  itself (agent/comparison/compare_questions.py);
- `missing_label`: a refusal when the question names a table or figure its papers lack;
- `caption`: the caption a question asks for by its label ("the title of Figure 2");
- `table`: a table cell, a computed figure, a count (agent/numeric/numeric_answer.py, its
  handlers one proposer for now);
- `absent_name`: a refusal when the question asks with a name its papers never write;
- `draft`: the shortest verbatim sentence or span that answers (agent/sentences/draft.py).

Revisers, run on the chosen answer in order: `figure` (a refused figure question cites the
figure's caption), `polar` (a quote that settles a yes/no question by its own words leads
with "Yes"/"No", agent/yesno/polar.py), `yes_no` (the yes/no model's lead, agent/yesno/).

Every proposer returns its answer with no support: a table answer's features are its
`table_*` measurements, scored by the fitted table function; what another handler measured
about its own answer travels as a feature (`stated_support`) for the scoring step to read.
"""

from __future__ import annotations

from dataclasses import replace

from citewise.agent.ask.answer import Answer, AnswerSentence
from citewise.agent.ask.asked import asked_signals
from citewise.agent.ask.question import Question
from citewise.agent.ask.refusal import IN_FIGURE, NOT_ANSWERED, NOT_IN_LIBRARY
from citewise.agent.ask.registry import Registry
from citewise.agent.ask.state import KIND_ANSWER, KIND_REFUSAL, AskState, Candidate
from citewise.agent.comparison.compare_questions import papers_to_ask
from citewise.agent.numeric.numeric_check import checked
from citewise.agent.sentences.figures import (
    absent_names,
    asked_caption,
    figure_refusal,
    missing_labels,
)
from citewise.agent.sentences.following import completed
from citewise.agent.yesno.polar import lead_answer
from citewise.retrieval.terms import content_terms, stem

# what a proposer measured about its own answer, for the scoring step (pick.py)
STATED_SUPPORT = "stated_support"
# a caption found by the exact label the question names: the share of the question it writes
LABEL_MATCH = "label_match"
# the prefix of a table answer's features (agent/numeric/tables/support.py FEATURES)
TABLE_FEATURE = "table_"


def unsupported(proposer: str, answer: Answer, **features: float) -> Candidate:
    """A candidate from an answer a handler built with its own support: the support moves
    into the features, and the answer carries none (the scoring step sets it)."""
    stated = answer.support_score
    answer.support_score = 0.0
    kind = KIND_REFUSAL if answer.refused else KIND_ANSWER
    return Candidate(proposer, answer, kind, {STATED_SUPPORT: stated, **features})


class Compare:
    """Each paper a comparative question names (or, in a small library, every paper)
    answers within itself; a paper whose draft is refused says "not stated"."""

    name = "compare"

    def propose(self, state: AskState) -> list[Candidate]:
        question = state.question
        if not question.is_comparative:
            return []
        papers = papers_to_ask(question.scope, [p.id for p in state.answerer.papers()])
        if not papers:
            return []
        answer = state.answerer.compare(question, papers, state.k)
        return [unsupported(self.name, answer, papers=float(len(papers)))]


class MissingLabel:
    """A refusal: the question names "Figure 7" of papers whose figures end at 6."""

    name = "missing_label"

    def propose(self, state: AskState) -> list[Candidate]:
        missing = missing_labels(state.question, state.answerer.store)
        if not missing:
            return []
        answer = state.answerer.absent(state.question, missing, state.hits, NOT_IN_LIBRARY)
        return [Candidate(self.name, answer, KIND_REFUSAL, {"missing": float(len(missing))})]


class Caption:
    """ "What is the title of Figure 2?": the caption with that label, verbatim."""

    name = "caption"

    def propose(self, state: AskState) -> list[Candidate]:
        store = state.answerer.store
        caption = asked_caption(state.question, store, [h.block for h in state.hits])
        if caption is None:
            return []
        covered = caption_coverage(state.question, caption.text)
        sentence = AnswerSentence(caption.text, [caption.id], covered)
        evidence = [state.answerer.evidence(caption)]
        answer = Answer(state.question.text, False, caption.text, [sentence], evidence, 0.0)
        return [Candidate(self.name, answer, KIND_ANSWER, {LABEL_MATCH: covered})]


def caption_coverage(question: Question, caption: str) -> float:
    """The share of the question's content terms the caption writes (its label's words
    among them): the caption's support. Not calibrated: on neither pool does a question ask
    for a caption by its label (docs/benchmarks.md, "Answer shapes")."""
    asked = {stem(t) for t in question.terms}
    if not asked:
        return 0.0
    return round(len(asked & {stem(t) for t in content_terms(caption)}) / len(asked), 3)


class Table:
    """A table cell, a computed figure or a count (agent/numeric/numeric_answer.py): its features
    are the `table_*` signals its handler measured (agent/numeric/tables/support.py names them),
    from which the scoring step gives its support (pick.py, the fitted table function)."""

    name = "table"

    def propose(self, state: AskState) -> list[Candidate]:
        from citewise.agent.numeric.numeric_answer import answer_numeric

        question = state.question
        found = answer_numeric(question.text, question, state.hits, state.answerer.store)
        if found is None:
            return []
        features = {k: v for k, v in found.signals.items() if k.startswith(TABLE_FEATURE)}
        if found.refused or not features:
            return [unsupported(self.name, found)]
        found.support_score = 0.0
        return [Candidate(self.name, found, KIND_ANSWER, features)]


class AbsentName:
    """A refusal: the question asks about "HOVER" in papers that never write it."""

    name = "absent_name"

    def propose(self, state: AskState) -> list[Candidate]:
        absent = absent_names(state.question, state.answerer.retriever)
        if not absent:
            return []
        answer = state.answerer.absent(state.question, absent, state.hits, NOT_ANSWERED)
        return [Candidate(self.name, answer, KIND_REFUSAL, {"absent": float(len(absent))})]


class Draft:
    """The shortest verbatim answer from the retrieved passages (agent/sentences/draft.py); its
    signals are its features, and the refusal decision reads them (qa.py `settle`)."""

    name = "draft"

    def propose(self, state: AskState) -> list[Candidate]:
        question, answerer = state.question, state.answerer
        scope = question.scope if not state.documents else ()
        draft, blocks = answerer.drafted(question, state.hits, scope)
        draft = completed(answerer.store, question, draft, blocks)
        if draft.spans:  # whether the paper answers what was asked at all (asked.py)
            papers = list(state.documents or question.scope)
            papers = papers or list(dict.fromkeys(b.document_id for b in blocks.values()))
            retriever = answerer.retriever
            draft.signals.update(
                asked_signals(
                    question,
                    blocks,
                    papers,
                    retriever.similarities,
                    retriever.document_term_counts,
                )
            )
        answer = answerer.drafted_answer(question, draft, blocks)
        features = {**draft.signals, "spans": float(len(draft.spans))}
        basis = {"draft": draft, "blocks": blocks}
        return [Candidate(self.name, answer, KIND_ANSWER, features, basis)]


class FigureRefusal:
    """A refused question about a figure: the answer is in the image; its caption is cited."""

    name = "figure"

    def revise(self, state: AskState, answer: Answer) -> Answer | None:
        won = state.winner
        if not answer.refused or won is None or won.proposer != Draft.name:
            return None
        draft, blocks = won.basis["draft"], won.basis["blocks"]
        drafted = [blocks[s.candidate.block_id] for s in draft.spans]
        store = state.answerer.store
        figure = figure_refusal(state.question, store, blocks.values(), drafted)
        if figure is None:
            return None
        reason = (
            f"The answer is in {figure.label} (page {figure.page}), an image citewise "
            "cannot read; its caption is cited."
        )
        evidence = [state.answerer.evidence(figure), *answer.evidence][:4]
        return replace(answer, answer=reason, evidence=evidence, refusal_kind=IN_FIGURE)


class PolarLead:
    """ "Yes"/"No" before a drafted quote that settles a yes/no question by its own words."""

    name = "polar"

    def revise(self, state: AskState, answer: Answer) -> Answer | None:
        won = state.winner
        if not state.lead or won is None or won.proposer != Draft.name:
            return None
        spans = won.basis["draft"].spans
        if not spans:
            return None
        return checked(lead_answer(state.question, spans[0].candidate, answer))


class YesNoLead:
    """The yes/no model's "Yes"/"No" when the paper the question is about settles it."""

    name = "yes_no"

    def revise(self, state: AskState, answer: Answer) -> Answer | None:
        if not state.lead:
            return None
        return checked(state.answerer.yes_no.lead(state.question, answer))


def builtin_registry(disabled: tuple[str, ...] = ()) -> Registry:
    """The shapes `ask` ships with, in their order; `disabled` names are skipped."""
    registry = Registry()
    for shape in (Compare(), MissingLabel(), Caption(), Table(), AbsentName(), Draft()):
        registry.register(shape)
    for reviser in (FigureRefusal(), PolarLead(), YesNoLead()):
        registry.register(reviser)
    registry.disable(disabled)
    return registry
