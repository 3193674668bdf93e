"""Answers read from tables or computed from cited figures, before sentence picking.

`answer_numeric` is what the `table` proposer (agent/ask/proposers.py) calls after
retrieval: a table's answer (agent/numeric/tables/: a cell by row and period, an extreme row,
a count, a computed figure). None means "not a table question". A filing's line or metric
is the finance pack's own proposer (agent/packs/finance/shapes.py).
What each answer quotes and cites: agent/numeric/quoted.py.
"""

from __future__ import annotations

import time

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.question import Question
from citewise.agent.numeric.tables import table_answer
from citewise.retrieval.hybrid import Hit
from citewise.store.protocols import Store


def answer_numeric(question: Question, hits: list[Hit], store: Store) -> Answer | None:
    """A cell or computed answer when the analysed question asks for one; None otherwise."""
    return table_answer(question, hits, store, time.perf_counter())
