"""Support of a table answer: one logistic function of the candidate's features, its
weights read from `support.json` (fitted on the development half of the TAT-QA pool by
scripts/fit_table_support.py; the file says when and on what). No answer sets support
itself: each proposer only reports features.

Features (each 0..1):
- operation: the question's operation, comparison or count was recognised
- row: how well the row label(s) match (tables/locate.row_score; the weakest row)
- margin: how far the best row is ahead of the runner-up, in its table or in another
  table that answers differently (0: a tie, ambiguous)
- columns: 1 when the question names the periods or headers, 0 when taken by default
- column_tie: 1 when another column would have done as well
- compound: 1 when the question names two operations ("the change in the average ...")
- lookup: 1 when the answer is one cell read, nothing computed (tables/lookup.cell)
- unmatched: the share of the question's row words that neither the row, its section,
  its column's header nor the caption say ("the fourth quarter" of a table of years)
- number_asked: 1 when the question asks for a figure (agent/ask/question.py expects_number)
- operation_asked: 1 when a cell answers a question that names arithmetic ("the change in")
- labelled: 1 when the cell's table prints a label ("Table 3"): its caption and headers
  say what it measures, where a statement's columns are periods a question names by year
- filing: 1 for a filing's statement line or metric (agent/packs/finance/filing_answer.py)
- describes: 1 when the answer says what a table shows (its caption or introduction)
- extreme: 1 when the answer is the row with the largest or smallest figure in a column
- rows_listed: 1 when the answer names the rows of a table laid out by what the question
  asks for (tables/rows_listed.py)
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib.resources import files

FEATURES = (
    "operation",
    "row",
    "margin",
    "columns",
    "column_tie",
    "compound",
    "lookup",
    "extreme",
    "unmatched",
    "describes",
    "number_asked",
    "operation_asked",
    "labelled",
    "filing",
    "rows_listed",
)
# answers that read a figure or a sentence: each kind has a fitted floor of its own
KINDS = ("lookup", "extreme", "describes")


@cache
def weights() -> dict[str, float]:
    data = json.loads(files("citewise.agent.numeric.tables").joinpath("support.json").read_text())
    return {k: float(v) for k, v in data["weights"].items()}


def support(features: dict[str, float]) -> float:
    """P(right | features), by the fitted logistic function."""
    w = weights()
    z = w.get("bias", 0.0) + sum(w.get(k, 0.0) * features.get(k, 0.0) for k in FEATURES)
    return 1.0 / (1.0 + math.exp(-z))


@cache
def _floors() -> dict[str, float]:
    data = json.loads(files("citewise.agent.numeric.tables").joinpath("support.json").read_text())
    floors = {k: float(v) for k, v in data.get("kind_floors", {}).items()}
    return {"": float(data.get("answer_floor", 0.0)), **floors}


def answer_floor(features: dict[str, float] | None = None) -> float:
    """Below this support the table answer is not given (the sentence picker answers): a
    candidate that only reads a figure (a cell, the largest row) has its kind's fitted
    floor, one that computes the file's `answer_floor`."""
    floors = _floors()
    kinds = [floors.get(k, 0.0) for k in KINDS if (features or {}).get(k)]
    return max([floors[""], *kinds])
