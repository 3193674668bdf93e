"""Candidates from the tables a question may be about: a computed figure (one row over
periods, or two rows in one column), the period where a row's figure is larger, a count
of periods meeting a condition, or a row's figures for the periods named. Each candidate
carries its features; support comes from them (tables/support.py), never from a proposer.
"""

from __future__ import annotations

import re

from citewise.agent.ask.table_reading import Ask
from citewise.agent.numeric.tables.candidate import Candidate, computed_candidate
from citewise.agent.numeric.tables.compute import across_rows, over_periods
from citewise.agent.numeric.tables.frame import Column, Frame, Row
from citewise.agent.numeric.tables.locate import RowMatch, best_row, named_by_headers, pick_columns
from citewise.agent.numeric.tables.lookup import cell, extreme_row
from citewise.agent.numeric.tables.parts import parts_of
from citewise.agent.numeric.tables.periods import compared, counted, listed, period_columns
from citewise.agent.numeric.tables.printed import printed_change

_WHICH = re.compile(r"\b(?:which|what)\b", re.I)
# Two rows that each match at least half-way are what a question joining two names means.
TWO_ROWS = 0.5


def _one_row(ask: Ask, frame: Frame) -> Candidate | None:
    pick = pick_columns(frame, ask)
    if pick is None:
        return None
    match = best_row(frame, ask.phrase, [c.index for c in pick.columns])
    if match is None:
        return None
    several = _listed_rows(ask, frame, match.row, pick.columns)
    if several is not None:  # "the change in A and B's total": their sums, period by period
        comp = over_periods(ask, frame, several[2], pick.columns)
        match = RowMatch(several[2][0], several[0], several[0] - several[1])
    else:
        comp = over_periods(ask, frame, [match.row], pick.columns)
    if comp is None:
        return None
    if match.rival is not None:  # say so rather than pick silently
        rival = match.rival
        comp.notes.append(f"row {rival.label}{f' ({rival.parent})' if rival.parent else ''} "
                          "matches the question as well")  # fmt: skip
    features = {
        "operation": 1.0,
        "row": match.score,
        "margin": match.score - match.runner_up,
        "columns": 0.0 if pick.how == "default" else 1.0,
        "column_tie": float(pick.ambiguous),
    }
    made = computed_candidate(comp, frame, features)
    printed = printed_change(frame, match.row, pick.columns, comp) if made and not several else None
    if made is not None and printed is not None:
        made.sentences.append(printed)  # the report's own figure for what was computed
    return made


def _listed_rows(
    ask: Ask, frame: Frame, whole: Row, columns: list[Column]
) -> tuple[float, float, list[Row]] | None:
    """The rows a one-row change lists ("net sales of A and B"), each named at least
    half-way, unless the row the whole phrase names holds the joint in its own label."""
    names = ask.names
    if len(names) < 2 or ask.operation not in ("change", "pct_change"):
        return None
    if any(_joint_in_label(a, b, [whole]) for a, b in zip(names, names[1:], strict=False)):
        return None
    several = _side(frame, names, columns, set())
    return several if several is not None and several[0] >= TWO_ROWS else None


def _one_column(ask: Ask, frame: Frame) -> tuple[Column, bool, bool] | None:
    """The column a two-row operation reads: the one period named, else the latest
    period (else the only value column); (column, named, another would do)."""
    single = [c for c in frame.columns if len(c.years) == 1]
    if len(ask.periods) == 1:
        fits = [c for c in single if c.years == [ask.periods[0].year]]
        amounts = [c for c in fits if not c.percent] or fits
        return (amounts[0], True, len(amounts) > 1) if amounts else None
    if ask.periods:
        return None
    by_words = named_by_headers(frame.columns, ask)
    if len(by_words) == 1:  # "as of end of period": the column headed so
        return by_words[0], True, False
    if len(frame.columns) == 1:
        return frame.columns[0], True, False
    if not single:
        return None
    latest = max(c.years[0] for c in single)
    fits = [c for c in single if c.years == [latest] and not c.percent] or [
        c for c in single if c.years == [latest]
    ]
    return fits[0], False, len(fits) > 1


def _side(
    frame: Frame, names: tuple[str, ...], column: Column | list[Column], taken: set[int]
) -> tuple[float, float, list[Row]] | None:
    """The rows the names of one side of a joined operation name, one distinct row each
    with figures in the column(s): (lowest score, lowest margin, rows)."""
    wanted = [c.index for c in (column if isinstance(column, list) else [column])]
    rows: list[Row] = []
    scores, margins = [], []
    for name in names:
        match = best_row(frame, name, wanted, skip=taken | {id(r) for r in rows})
        if match is None:
            return None
        rows.append(match.row)
        scores.append(match.score)
        margins.append(match.score - match.runner_up)
    return (min(scores), min(margins), rows) if rows else None


def _read_side(
    frame: Frame, whole: str, listed: tuple[str, ...], column: Column, taken: set[int]
) -> tuple[float, float, list[Row]] | None:
    """One side read as the several rows it lists when each is named at least half-way,
    unless the row the whole phrase names holds the list's joint in its own label
    ("Research and development" is one row); else as one row."""
    one = _side(frame, (whole,), column, taken)
    if len(listed) < 2:
        return one
    several = _side(frame, listed, column, taken)
    if several is None or several[0] < TWO_ROWS:
        return one
    if one is not None and any(
        _joint_in_label(a, b, one[2]) for a, b in zip(listed, listed[1:], strict=False)
    ):
        return one
    return several


def _joint_in_label(first: str, second: str, rows: list[Row]) -> bool:
    """The words either side of the joint stand joined by "and" or a comma in a row's own
    label ("Service and Other Gross Margin", "Receivables, net"): the question names that
    one row, not two."""
    before, after = re.findall(r"[\w'-]+", first)[-1:], re.findall(r"[\w'-]+", second)[:1]
    if not before or not after:
        return False
    joint = re.compile(
        rf"\b{re.escape(before[0])}[\s,]*(?:(?:and|&)\s+)?{re.escape(after[0])}\b", re.I
    )
    return any(joint.search(r.label) for r in rows)


def _two_rows(ask: Ask, frame: Frame) -> Candidate | None:
    chosen = _one_column(ask, frame)
    if chosen is None or not ask.parts:
        return None
    column, named, tie = chosen
    # the whole (the second side of a share or ratio) is one row: "over total revenue"; a
    # difference is of two rows, "A and B" its joint
    split_first = ask.operation != "difference"
    split_second = ask.operation not in ("share", "ratio", "difference")
    best: tuple[float, float, list[Row], list[Row]] | None = None
    groups = ask.groups or [((a,), (b,)) for a, b in ask.parts]
    for (first, second), (listed_first, listed_second) in zip(ask.parts, groups, strict=False):
        listed_first = listed_first if split_first else (first,)
        one = _read_side(frame, first, listed_first, column, set())
        if one is None:
            continue
        listed_second = listed_second if split_second else (second,)
        two = _read_side(frame, second, listed_second, column, {id(r) for r in one[2]})
        if two is None or _joint_in_label(first, second, one[2] + two[2]):
            continue
        score = min(one[0], two[0])
        margin = min(one[1], two[1])
        if best is None or score > best[0]:
            best = (score, margin, one[2], two[2])
    if best is None:
        return None
    comp = across_rows(ask, frame, best[2], best[3], column)
    if comp is None:
        return None
    features = {"operation": 1.0, "row": best[0], "margin": max(0.0, best[1]),
                "columns": float(named), "column_tie": float(tie)}  # fmt: skip
    return computed_candidate(comp, frame, features)


def _performed(ask: Ask, found: Candidate) -> Candidate | None:
    """The computed candidate, unless the question names an average it does not take ("the
    change in the average X"): an average of no row it read ("Average price") is still to
    be done, and the figure computed without it is not the one asked for."""
    if ask.operation == "average" or "average" not in ask.named:
        return found
    rows = " ".join(str(o.get("row") or o.get("label") or "") for s, _ in found.sentences
                    for o in s.operands or [])  # fmt: skip
    return found if "average" in rows.lower() else None


def candidate(ask: Ask, frame: Frame) -> Candidate | None:
    """The answer this table gives the question, if it gives one."""
    if ask.condition and ask.threshold is not None and (ask.counts or ask.asks_period):
        return counted(ask, frame)
    if ask.asks_period and ask.comparison:
        return compared(ask, frame)
    if ask.asks_period and (not ask.operation or (ask.operation == "sum" and not ask.periods)):
        return period_columns(ask, frame)  # "which years are total assets given for"
    if ask.comparison and not ask.operation and _WHICH.search(ask.text):
        return extreme_row(ask, frame)  # "which segment had the largest X"
    if ask.made_of and ask.operation in (None, "sum") and not ask.periods:
        return parts_of(ask, frame)  # "the components of total revenue"
    if ask.operation:
        two = _two_rows(ask, frame) if ask.parts else None
        if two is not None and two.features["row"] >= TWO_ROWS:
            return _performed(ask, two)  # "the difference between A and B": the rows named
        one = _one_row(ask, frame)
        both = [c for c in (two, one) if c is not None]
        return _performed(ask, max(both, key=lambda c: c.features["row"])) if both else None
    if len(ask.periods) >= 2:
        return listed(ask, frame)
    return cell(ask, frame)  # "what was X in 2019"
