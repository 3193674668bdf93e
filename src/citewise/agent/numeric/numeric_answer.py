"""Answers read from tables or computed from cited figures, before sentence picking.

`answer_numeric` is what the `table` proposer (agent/ask/proposers.py) calls after
retrieval: a statement line item or metric for a fiscal period from a filing (the finance
pack, agent/packs/finance/), else a table's answer (agent/numeric/tables/: a cell by row and
period, an extreme row, a count, a computed figure). None means "not a table question".
What each answer quotes and cites: agent/numeric/quoted.py.
"""

from __future__ import annotations

import time

from citewise.agent.ask.answer import Answer, AnswerSentence
from citewise.agent.ask.question import Question
from citewise.agent.numeric.computed import (
    Computation,
)
from citewise.agent.numeric.quoted import (
    Quoted,
    build_answer,
    evidence,
    grid_box,
    year_of,
)
from citewise.agent.numeric.tables import table_answer
from citewise.agent.numeric.tables.candidate import computed_sentence
from citewise.agent.numeric.tables.support import answer_floor
from citewise.agent.numeric.tables.support import support as table_support
from citewise.agent.packs.finance.filing_answer import filing_computation
from citewise.agent.packs.finance.financial import Missing
from citewise.retrieval.hybrid import Hit
from citewise.store.library import StoredBlock
from citewise.store.protocols import Store

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


def answer_numeric(
    question_text: str, question: Question, hits: list[Hit], store: Store
) -> Answer | None:
    """A cell or computed answer when the question asks for one; None otherwise."""
    started = time.perf_counter()
    filing = filing_answer(question_text, store, started)
    if filing is not None:
        return filing
    return table_answer(question_text, question, hits, store, started)
