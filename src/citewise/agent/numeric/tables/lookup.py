"""Answers that read one figure and compute nothing: the cell of the row and the period a
question names ("what was X in 2019"), and the row whose figure is the largest or the
smallest in one column ("which segment had the highest X"). Each figure is quoted from
its cell; the features say how sure the row and column are (tables/support.py).
"""

from __future__ import annotations

import re

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.ask.table_reading import Ask
from citewise.agent.numeric.cells import bound_asked
from citewise.agent.numeric.quoted import Quoted
from citewise.agent.numeric.tables.candidate import Candidate
from citewise.agent.numeric.tables.compute import operand
from citewise.agent.numeric.tables.frame import Column, Frame, Row
from citewise.agent.numeric.tables.locate import (
    best_row,
    described_terms,
    known,
    named_by_headers,
    preferred,
    terms,
)

_WHICH_ROW = re.compile(r"\bwhich\b", re.I)
_TOTAL = re.compile(r"\b(?:sub)?totals?\b", re.I)


def _quote(frame: Frame, row: Row, column: Column) -> Quoted:
    o = operand(frame, row, column, "a")
    return Quoted(frame.block, o.quote, o.cell_bbox)


def cell_sentence(frame: Frame, row: Row, column: Column, text: str) -> AnswerSentence:
    """A sentence stating one cell, with the cell's table, row, column and value."""
    cell: dict[str, object] = {
        "table": frame.view.label or "the table",
        "row": row.label,
        "column": column.name,
        "value": row.figures[column.index][0].strip(),
    }
    return AnswerSentence(text, [frame.block.id], 0.0, "cell", cell)


def period_column(ask: Ask, frame: Frame) -> tuple[Column, bool] | None:
    """The column of the one period the question names (of several for that year, the one
    its words name, else the one holding the kind of figure asked: a percentage or an
    amount); (column, another would do as well)."""
    within = [c for c in frame.columns if c.years == [ask.periods[0].year]]
    if len(within) > 1:
        named = named_by_headers(within, ask)
        within = named if len(named) == 1 else preferred(frame, ask, within)
    return (within[0], len(within) > 1) if within else None


def cell(ask: Ask, frame: Frame) -> Candidate | None:
    """The figure of the row the question names in the period it names."""
    if len(ask.periods) != 1:
        return None
    found = period_column(ask, frame)
    if found is None:
        return None
    column, tie = found
    match = best_row(frame, ask.phrase, [column.index], described=True)
    if match is None:
        return None
    row = match.row
    printed = row.figures[column.index][0].strip()
    scale = f"; figures in {frame.scale}" if frame.scale and not column.percent else ""
    text = f"{printed} ({row.label or row.parent}, {column.name}{scale})."
    said = set(terms(f"{row.label} {row.parent} {column.header}")) | described_terms(frame)
    asked = terms(ask.phrase)
    unmatched = sum(not known(w, said) for w in asked) / len(asked) if asked else 0.0
    features = {
        "lookup": 1.0,
        "unmatched": unmatched,
        "row": match.score,
        "margin": match.score - match.runner_up,
        "columns": 1.0,
        "column_tie": float(tie),
    }
    sentence = cell_sentence(frame, row, column, text)
    return Candidate([(sentence, [_quote(frame, row, column)])], printed, features)


def _value_column(ask: Ask, frame: Frame) -> tuple[Column, bool] | None:
    """The column a comparison of rows reads: the period named, else the one column its
    header words name, else the latest period's; (column, named by the question)."""
    if len(ask.periods) == 1:
        found = period_column(ask, frame)
        return (found[0], True) if found else None
    if ask.periods:
        return None
    by_words = named_by_headers(frame.columns, ask)
    if len(by_words) == 1:
        return by_words[0], True
    if len(frame.columns) == 1:
        return frame.columns[0], True
    dated = [c for c in frame.columns if len(c.years) == 1]
    if not dated:
        return None
    latest = max(c.years[0] for c in dated)
    return preferred(frame, ask, [c for c in dated if c.years == [latest]])[0], False


def _is_total(row: Row) -> bool:
    return bool(_TOTAL.search(row.label))


def extreme_row(ask: Ask, frame: Frame) -> Candidate | None:
    """ "Which X had the highest Y": of the rows under the section the question names (all
    rows when it names none), totals left out, the one whose figure is the largest (or
    smallest) in the column read."""
    ranks = _WHICH_ROW.search(ask.text) and not bound_asked(ask.text)
    chosen = _value_column(ask, frame) if ranks else None
    if chosen is None:
        return None
    column, named = chosen
    if not named:
        return None  # the column compared is the question's to name
    rows = [r for r in frame.rows if column.index in r.figures and not _is_total(r) and r.label]
    asked = set(terms(ask.phrase))
    sections = {r.parent for r in rows}
    by_section = [s for s in sections if s and set(terms(s)) & asked]
    if len(by_section) == 1:
        rows = [r for r in rows if r.parent == by_section[0]]
    elif len(sections) > 1:
        return None  # rows of several sections: which of them are compared is not said
    if len(rows) < 2:
        return None
    pick = max if ask.comparison == "more" else min
    best = pick(rows, key=lambda r: r.figures[column.index][1])
    value = best.figures[column.index][1]
    if sum(r.figures[column.index][1] == value for r in rows) > 1:
        return None  # a tie has no single answer
    printed = best.figures[column.index][0].strip()
    most = "largest" if pick is max else "smallest"
    text = f"{best.label} ({column.name}: {printed}, the {most} of {len(rows)} rows)."
    features = {"extreme": 1.0, "columns": float(named), "column_tie": 0.0}
    sentence = cell_sentence(frame, best, column, text)
    return Candidate([(sentence, [_quote(frame, best, column)])], best.label, features)
