"""Answers about a row's figures across periods that compute nothing new: the period where
the figure is larger or smaller ("in which year was X higher?"), the periods (or their
count) where it is above or below a figure the question gives, and the row's figures for
the periods named. Each figure is quoted from its cell.
"""

from __future__ import annotations

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.ask.table_reading import Ask
from citewise.agent.numeric.quoted import Quoted
from citewise.agent.numeric.tables.candidate import Candidate
from citewise.agent.numeric.tables.compute import operand
from citewise.agent.numeric.tables.frame import Column, Frame, Row, holds_percent
from citewise.agent.numeric.tables.locate import ColumnPick, RowMatch, best_row, pick_columns


def _row_over(ask: Ask, frame: Frame) -> tuple[ColumnPick, RowMatch] | None:
    pick = pick_columns(frame, ask)
    if pick is None or len(pick.columns) < 2:
        return None
    match = best_row(frame, ask.phrase, [c.index for c in pick.columns])
    return (pick, match) if match is not None else None


def _features(pick: ColumnPick, match: RowMatch, operation: bool) -> dict[str, float]:
    return {
        "operation": float(operation),
        "row": match.score,
        "margin": match.score - match.runner_up,
        "columns": 0.0 if pick.how == "default" else 1.0,
        "column_tie": float(pick.ambiguous),
    }


def _quote(frame: Frame, row: Row, column: Column) -> Quoted:
    o = operand(frame, row, column, "a")
    return Quoted(frame.block, o.quote, o.cell_bbox)


def _cell(frame: Frame, row: Row, column: Column, text: str) -> AnswerSentence:
    printed = row.figures[column.index][0].strip()
    cell: dict[str, object] = {
        "table": frame.view.label or "the table",
        "row": row.label,
        "column": column.name,
        "value": printed,
    }
    return AnswerSentence(text, [frame.block.id], 0.0, "cell", cell)


def compared(ask: Ask, frame: Frame) -> Candidate | None:
    """The period whose figure is the larger (or smaller) in the row asked about."""
    found = _row_over(ask, frame)
    if found is None:
        return None
    pick, match = found
    row = match.row
    figures = [(row.figures[c.index][1], c) for c in pick.columns]
    pick_value = max if ask.comparison == "more" else min
    value, column = pick_value(figures, key=lambda f: f[0])
    if sum(v == value for v, _ in figures) > 1:
        return None  # equal figures: no one period is larger
    others = "; ".join(f"{row.figures[c.index][0].strip()} in {c.name}"
                       for v, c in figures if c is not column)  # fmt: skip
    printed = row.figures[column.index][0].strip()
    text = f"{column.name} ({row.label}: {printed} in {column.name}, against {others})."
    sentence = _cell(frame, row, column, text)
    quotes = [_quote(frame, row, column)]
    return Candidate([(sentence, quotes)], column.name, _features(pick, match, True))


def counted(ask: Ask, frame: Frame) -> Candidate | None:
    """How many periods (or which) have the row's figure above / below the figure given."""
    found = _row_over(ask, frame)
    if found is None or ask.threshold is None:
        return None
    pick, match = found
    row, limit = match.row, ask.threshold
    if ask.threshold_percent and not all(c.percent for c in pick.columns):
        return None  # "exceed 20%" is not asked of amounts
    meets = [c for c in pick.columns
             if (row.figures[c.index][1] > limit) == (ask.condition == "above")
             and row.figures[c.index][1] != limit]  # fmt: skip
    shown = ", ".join(f"{row.figures[c.index][0].strip()} in {c.name}" for c in pick.columns)
    side = "above" if ask.condition == "above" else "below"
    features = _features(pick, match, True)
    quotes = [_quote(frame, row, pick.columns[0])]
    if ask.asks_period:
        if not meets:
            return None
        names = " and ".join(c.name for c in meets)
        text = f"{names} ({row.label} {side} {limit:g}: {shown})."
        return Candidate([(AnswerSentence(text, [frame.block.id], 0.0, "count"), quotes)],
                         names, features)  # fmt: skip
    text = f"{len(meets)} ({row.label} {side} {limit:g}: {shown})."
    sentence = AnswerSentence(text, [frame.block.id], 0.0, "count")
    return Candidate([(sentence, quotes)], str(len(meets)), features)


def listed(ask: Ask, frame: Frame) -> Candidate | None:
    """The row's figure in each period the question names, each quoted from its cell."""
    found = _row_over(ask, frame)
    if found is None or found[0].how != "named":
        return None
    pick, match = found
    by_year = {c.years[0]: c for c in pick.columns}
    order = [by_year[p.year] for p in ask.periods if p.year in by_year]
    if ask.percent and not all(holds_percent(frame, match.row, c) for c in order):
        return None  # a percentage asked of a row of amounts: the text states it, if any
    sentences = []
    for column in order:
        printed = match.row.figures[column.index][0].strip()
        text = f"{printed} ({match.row.label}, {column.name})."
        sentences.append((_cell(frame, match.row, column, text),
                          [_quote(frame, match.row, column)]))  # fmt: skip
    result = "; ".join(s.text for s, _ in sentences)
    return Candidate(sentences, result, _features(pick, match, False))


def period_columns(ask: Ask, frame: Frame) -> Candidate | None:
    """ "Which years does the table cover / was X reported for": the periods heading the
    columns where the row named has figures (every period column when no row is named)."""
    columns = [c for c in frame.columns if len(c.years) == 1]
    if len(columns) < 2:
        return None
    match = best_row(frame, ask.phrase, [])
    if match is not None:
        columns = [c for c in columns if c.index in match.row.figures]
    names = list(dict.fromkeys(str(c.years[0]) for c in columns))
    if len(names) < 2:
        return None
    text = (
        f"{', '.join(names[:-1])} and {names[-1]} "
        f"(the periods of {frame.view.label or 'the table'}: "
        f"{'; '.join(dict.fromkeys(c.name for c in columns))})."
    )
    quote = frame.block.text.splitlines()[0]
    sentence = AnswerSentence(text, [frame.block.id], 0.0, "list")
    features = {"operation": 1.0, "row": match.score if match else 0.0,
                "margin": (match.score - match.runner_up) if match else 0.0,
                "columns": 1.0, "column_tie": 0.0}  # fmt: skip
    return Candidate([(sentence, [Quoted(frame.block, quote)])], " ".join(names), features)
