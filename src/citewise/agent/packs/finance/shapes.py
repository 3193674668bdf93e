"""The finance pack's shapes, registered into the ask registry at start-up
(agent/packs/__init__.py `register_packs`, called by api/): a scope hook naming the filing
of the company a question names, and the `filing` proposer, a company's statement line or
metric for a fiscal year. The pipeline (agent/ask/) never imports the pack.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from citewise.agent.ask.answer import Answer, AnswerSentence
from citewise.agent.ask.proposers import TABLE_FEATURE, unsupported
from citewise.agent.ask.state import KIND_ANSWER, AskState, Candidate
from citewise.agent.numeric.computed import Computation
from citewise.agent.numeric.quoted import Quoted, build_answer, evidence, grid_box, year_of
from citewise.agent.numeric.tables.candidate import computed_sentence
from citewise.agent.numeric.tables.support import answer_floor
from citewise.agent.numeric.tables.support import support as table_support
from citewise.agent.packs.finance.filing_answer import filing_computation
from citewise.agent.packs.finance.filing_scope import filing_scope
from citewise.agent.packs.finance.filings import Filing, filings_of
from citewise.agent.packs.finance.financial import Missing
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

if TYPE_CHECKING:
    from citewise.agent.ask.question import Question
    from citewise.agent.ask.scope import ScopeChoice


class FilingScope:
    """The filings of the company a question names (narrowed to the fiscal year it asks
    about), read once per library until `forget`."""

    name = "filing_scope"

    def __init__(self) -> None:
        self._filings: list[Filing] | None = None

    def scope(self, question: Question, store: Store) -> list[ScopeChoice]:
        if self._filings is None:
            self._filings = filings_of(store)
        return filing_scope(question.text, self._filings)

    def forget(self) -> None:
        self._filings = None


class FilingLine:
    """A company's figure or metric for a fiscal year, from its filing's statements: its
    features are the `table_*` signals the fitted table function scores (pick.py)."""

    name = "filing"

    def propose(self, state: AskState) -> list[Candidate]:
        found = filing_answer(state.question.text, state.answerer.store, time.perf_counter())
        if found is None:
            return []
        features = {k: v for k, v in found.signals.items() if k.startswith(TABLE_FEATURE)}
        if found.refused or not features:
            return [unsupported(self.name, found)]
        found.support_score = 0.0
        return [Candidate(self.name, found, KIND_ANSWER, features)]


# A filing's statement line is read by its name for the one fiscal year asked
# (agent/packs/finance/filing_answer.py): one row, no rival, the period's column; `filing` lets the
# fitted table support (agent/numeric/tables/support.py) learn how often that path is right.
FILING_LINE = {"filing": 1.0, "row": 1.0, "margin": 1.0, "columns": 1.0}


def computed_answer(
    store: Store,
    text: str,
    computation: Computation,
    blocks: dict[str, StoredBlock],
    started: float,
    features: dict[str, float],
) -> Answer | None:
    """The computed sentence (tables/candidate.computed_sentence), its support from the
    fitted table function of `features`; None when recomputation disagrees or support is
    below the floor."""
    made = computed_sentence(computation, blocks)
    if made is None:
        return None
    score = table_support(features)
    if score < answer_floor(features):
        return None
    made[0].support = round(score, 3)
    answer = build_answer(store, text, [made], score, started)
    answer.signals = {**answer.signals, **{f"table_{k}": v for k, v in features.items()}}
    return answer


def refusal(store: Store, text: str, reason: str, closest: list[Quoted], started: float) -> Answer:
    """A refusal that says which operand is missing and shows the one that was found."""
    return Answer(
        question=text,
        refused=True,
        answer=reason,
        sentences=[],
        evidence=[evidence(store, q) for q in closest],
        support_score=0.0,
        timings_ms={"answer": round((time.perf_counter() - started) * 1000)},
    )


def filing_answer(text: str, store: Store, started: float) -> Answer | None:
    """A company's figure or metric for a fiscal year, from its filing's statements."""
    found = filing_computation(text, store)
    if found is None:
        return None
    if isinstance(found, Missing):
        reason = f"The filing's statements do not state {found}, which this needs."
        return refusal(store, text, reason, [], started)
    comp, blocks = found
    for o in comp.operands:
        if o.cell_bbox is None:
            o.cell_bbox = grid_box(store, blocks[o.block_id], o.quote, o.printed, year_of(o.label))
    only = comp.operands[0]
    if (
        len(comp.operands) == 1
        and comp.divisor == 1.0
        and comp.expression.strip("() ") == only.name
    ):
        block = blocks[only.block_id]
        label = only.row or only.label
        year = only.label.rsplit("FY", 1)[-1]
        notes = f" ({'; '.join(comp.notes)})" if comp.notes else ""
        sentence = f"{comp.what}: {label}, {year}: {only.printed}{notes}."
        cell: dict[str, object] = {
            "table": block.section_path or f"page {block.page}",
            "row": label,
            "column": year,
            "value": only.printed,
        }
        score = table_support(FILING_LINE)
        answer_sentence = AnswerSentence(sentence, [block.id], round(score, 3), "cell", cell)
        quoted = Quoted(block, only.quote, only.cell_bbox)
        answer = build_answer(store, text, [(answer_sentence, [quoted])], score, started)
        answer.signals = {**answer.signals, **{f"table_{k}": v for k, v in FILING_LINE.items()}}
        return answer
    return computed_answer(store, text, comp, blocks, started, {**FILING_LINE, "operation": 1.0})
