"""Whether a table cell is the kind of answer the question asks for.

A matched cell answers with a number in its table's measure. Two question shapes ask for
something else, however well they name the cell's row and column:

- a duration, size or price ("how many seconds does X need", "how long", "how much
  memory", "what did it cost"): papers print such a measure with its unit in the column
  header, the caption or the cell ("Time (s)", "Memory (GB)", "$0.02"); a cell of a table
  that names no such unit is a score or a count, the answer to another question;
- a name ("which part of PrOntoQA ...", "who ..."), when the question is not a number
  question: "which accuracy / which F1" questions are typed numeric, so a "which" question
  that is not asks for a thing, and a bare value cell is not one (a superlative's answer is
  its row's name, which is).
"""

from __future__ import annotations

import re

from citewise.agent.question import Question, focus_sentence

# What the question asks to be measured in, and how a table states that measure.
_ASKED_MEASURES = {
    re.compile(
        r"\bhow (long|much time|many (?:milli)?seconds|many (?:minutes|hours|days|weeks))\b|"
        r"\b(runtime|run time|running time|latency|wall[- ]clock|inference time|"
        r"training time)\b",
        re.I,
    ): re.compile(
        r"\b(time|times|runtime|latency|duration|speed|ms|milliseconds?|s|secs?|seconds?|"
        r"mins?|minutes?|h|hrs?|hours?|days?|weeks?)\b",
        re.I,
    ),
    re.compile(r"\bhow much (memory|ram|storage|disk)\b|\bmemory\b", re.I): re.compile(
        r"\b(memory|ram|[kmgt]i?b|bytes?|[kmgt]bytes?)\b", re.I
    ),
    re.compile(r"\b(cost|price|spend|spent|paid|budget)\b", re.I): re.compile(
        r"[$€£]|\b(cost|price|usd|eur|dollars?|euros?)\b", re.I
    ),
}
_ASKS_NAME = re.compile(r"^\W*(which|who|whom|whose)\b", re.I)


def measure_missing(question_text: str, table_text: str) -> bool:
    """The question asks for a duration, size or price and the table (caption, headers,
    cell) names no unit of that measure."""
    units = [u for asked, u in _ASKED_MEASURES.items() if asked.search(question_text)]
    return bool(units) and not any(u.search(table_text) for u in units)


def asks_name_not_value(question: Question, kind: str) -> bool:
    """A "which / who" question that is not a number question, answered by a value cell
    (not a superlative's row name)."""
    return (
        kind != "superlative"
        and not question.expects_number
        and bool(_ASKS_NAME.search(focus_sentence(question.text)))
    )


def cell_fits(question: Question, kind: str, table_text: str) -> bool:
    """A cell of this kind, from a table with this text, can answer the question."""
    if asks_name_not_value(question, kind):
        return False
    return not measure_missing(question.text, table_text)
