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
  its row's name, which is);
- a count ("how many test examples ..."): a cell counts N only in a table that names N or
  says its figures are counts ("#", "Number", "Size"); an accuracy table holds no count;
- "X's N" ("Boeing's Defense, Space & Security backlog"): a cell answers only from a table
  that writes N somewhere; a goodwill table's "Defense, Space & Security" column is not it.
"""

from __future__ import annotations

import re

from citewise.agent.ask.question import Question, focus_sentence
from citewise.regex import lazy
from citewise.retrieval.terms import STOPWORDS, stem

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
_ASKS_NAME = lazy(r"^\W*(which|who|whom|whose)\b", re.I)
_HOW_MANY = lazy(r"\bhow many\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})", re.I)
# How a table says its figures are counts: "# claims", "No. of", "Number", "Size", "n".
_COUNTS = lazy(r"#|\bno\.|\b(number|count|counts|size|total|n)\b", re.I)


def measure_missing(question_text: str, table_text: str) -> bool:
    """The question asks for a duration, size or price and the table (caption, headers,
    cell) names no unit of that measure."""
    units = [u for asked, u in _ASKED_MEASURES.items() if asked.search(question_text)]
    return bool(units) and not any(u.search(table_text) for u in units)


def counted_noun(question_text: str) -> str:
    """The noun a "how many N" question counts, stemmed ("examples" in "how many test
    examples from FOLIO"): the last word before a function word closes the phrase."""
    m = _HOW_MANY.search(focus_sentence(question_text))
    if not m:
        return ""
    noun = ""
    for word in m.group(1).split():
        if word.lower() in STOPWORDS:
            break
        noun = word.lower()
    return stem(noun) if noun else ""


_OWNED = lazy(
    r"(?:'s|’s|s')\s+((?:[\w&-]+,?\s+){0,5}?[\w-]+)\s+(?:at|in|for|of|on|as|during|from|by|to|was|were|is|are)\b",
    re.I,
)


def owned_noun(question_text: str) -> str:
    """The noun a possessive question asks for, stemmed ("backlog" in "Boeing's Defense,
    Space & Security backlog at December 31"): the last word before the preposition."""
    m = _OWNED.search(focus_sentence(question_text))
    if not m:
        return ""
    word = m.group(1).split()[-1].lower()
    return "" if word in STOPWORDS or not word.isalpha() else stem(word)


def _names(table_text: str, noun: str) -> bool:
    return noun in {stem(t) for t in re.findall(r"[a-z][\w-]*", table_text.lower())}


def owned_missing(question_text: str, table_text: str) -> bool:
    """ "X's N" asks for N: a table that never writes N ("backlog") holds another measure
    of X, however well its row and column match the question's other words."""
    noun = owned_noun(question_text)
    return bool(noun) and not _names(table_text, noun)


def count_missing(question_text: str, table_text: str) -> bool:
    """A "how many N" question and a table that neither names N nor says it counts: its
    cells are scores or sizes of something else (an accuracy is no number of examples)."""
    if any(asked.search(question_text) for asked in _ASKED_MEASURES):
        return False  # "how many seconds" is a duration: its unit decides (measure_missing)
    noun = counted_noun(question_text)
    if not noun or _COUNTS.search(table_text):
        return False
    return not _names(table_text, noun)


def asks_name_not_value(question: Question, kind: str) -> bool:
    """A "which / who" question that is not a number question, answered by a value cell
    (not a superlative's row name)."""
    return (
        kind != "superlative"
        and not question.expects_number
        and bool(_ASKS_NAME.search(focus_sentence(question.text)))
    )


def cell_fits(question: Question, kind: str, table_text: str, whole: str = "") -> bool:
    """A cell of this kind, from a table with this text (caption, the cell's column and
    row, its value; `whole`: every cell too), can answer the question."""
    if asks_name_not_value(question, kind):
        return False
    whole = whole or table_text
    if kind != "superlative" and (
        count_missing(question.text, whole) or owned_missing(question.text, whole)
    ):
        return False
    return not measure_missing(question.text, table_text)
