"""The answer shapes `ask` ships with, as proposers and revisers (registry.py).

Proposers, in the order the scoring step ranks them (pick.py):

- `compare`: a comparative question over two or more papers, each paper answering within
  itself (agent/comparison/compare_questions.py);
- `table`: a table cell, a computed figure, a count (agent/numeric/numeric_answer.py, its
  handlers one proposer for now);
- `draft`: the shortest verbatim sentence or span that answers (agent/sentences/draft.py).

Reviser, run on the chosen answer: `yes_no` (the "Yes"/"No" lead, agent/yesno/).

Every proposer returns its answer with no support: a table answer's features are its
`table_*` measurements, scored by the fitted table function; what another handler measured
about its own answer travels as a feature (`stated_support`) for the scoring step to read.

Shapes below issue 38's Build 5 rule on the pools' even halves were removed with their
tests (docs/benchmarks.md, "Answer shapes"); `compare` (and `compare_table`, registered by
api/compare.py) stay as the compare command's promise, which no pool measures.
"""

from __future__ import annotations

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.asked import asked_signals
from citewise.agent.ask.registry import Registry
from citewise.agent.ask.state import KIND_ANSWER, KIND_REFUSAL, AskState, Candidate
from citewise.agent.comparison.compare_questions import papers_to_ask
from citewise.agent.numeric.numeric_check import checked
from citewise.agent.sentences.following import completed

# what a proposer measured about its own answer, for the scoring step (pick.py)
STATED_SUPPORT = "stated_support"
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


class Table:
    """A table cell, a computed figure or a count (agent/numeric/numeric_answer.py): its features
    are the `table_*` signals its handler measured (agent/numeric/tables/support.py names them),
    from which the scoring step gives its support (pick.py, the fitted table function)."""

    name = "table"

    def propose(self, state: AskState) -> list[Candidate]:
        from citewise.agent.numeric.numeric_answer import answer_numeric

        question = state.question
        found = answer_numeric(question, state.hits, state.answerer.store)
        if found is None:
            return []
        features = {k: v for k, v in found.signals.items() if k.startswith(TABLE_FEATURE)}
        if found.refused or not features:
            return [unsupported(self.name, found)]
        found.support_score = 0.0
        return [Candidate(self.name, found, KIND_ANSWER, features)]


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
    for shape in (Compare(), Table(), Draft()):
        registry.register(shape)
    for reviser in (YesNoLead(),):
        registry.register(reviser)
    registry.disable(disabled)
    return registry
