"""A table that prints its periods down the rows, read with the periods as columns.

Two layouts put the period in the rows rather than the column headers: a row label that
names it ("Balances at December 31, 2019", "Nonvested as of December 31, 2018"), and a
row that names only a period and heads the block of rows under it ("Year ended 30 June
2018", a repeated header "Fiscal 2018" over a second block of quarters). Such a table,
regrouped, has one column per period and one row per item and value column ("Balances at
December 31 — Network Software & Systems"), so the operations over periods read it as they
read any table of years. Each figure keeps the grid cell it came from, for its quote.

Measured and left out: giving a roll-forward's movements (the rows between two dated
balances) the later balance's period lost answers on the TAT-QA half not developed on.
"""

from __future__ import annotations

from citewise.agent.ask.table_reading import Ask, periods
from citewise.agent.numeric.cells import row_name
from citewise.agent.numeric.tables.frame import Column, Frame, Row
from citewise.agent.numeric.tables.locate import row_score, terms


def _without(text: str, period: str) -> str:
    return " ".join(text.replace(period, " ").replace(" ,", ",").split()).strip(" ,:-–")


def _one_period(text: str) -> tuple[int, str] | None:
    found = periods(text)
    return (found[0].year, found[0].text) if len(found) == 1 else None


def _row_periods(frame: Frame) -> dict[int, tuple[int, str, str]]:
    """Body row index -> (year, its label without the period, its section without it)."""
    view, out = frame.view, {}
    by_index = {r.index: r for r in frame.rows}
    header_years = {y for c in frame.columns for y in c.years}
    # rows above the first period row belong to the one period every column header names
    section: tuple[int, str] | None = None
    if len(header_years) == 1 and all(c.years for c in frame.columns):
        year = next(iter(header_years))
        section = (year, str(year))
    values = [c.index for c in frame.columns]
    repeated: set[str] = set()  # the column headers printed again over a block
    for i, cells in enumerate(view.rows):
        row = by_index.get(i)
        if row is None:  # a row without figures: a period heading the rows under it?
            named = _one_period(" ".join(c for c in cells if c.strip()))
            if named is not None:
                section = named
            elif any(k < len(cells) and cells[k].strip() for k in values):
                repeated.add(row_name(cells) or cells[0].strip())
            continue
        parent = "" if row.parent in repeated else row.parent
        own = _one_period(row.label)
        if own is not None:
            out[i] = (own[0], _without(row.label, own[1]), parent)
        elif section is not None:
            out[i] = (section[0], row.label, _without(parent, section[1]))
    return out


def _period_columns(dated: dict[int, tuple[int, str, str]]) -> list[Column]:
    """One column per period, earliest first; its index is the year."""
    years = sorted({year for year, _, _ in dated.values()})
    return [Column(y, str(y), str(y), [y], False) for y in years]


def _undated_named(
    frame: Frame, ask: Ask, dated: dict[int, tuple[int, str, str]], rows: list[Row]
) -> bool:
    """A row the regrouping leaves out (it names no period, nor does a row above it)
    names the question better than every row it keeps: the question asks of that row,
    which has no figure by period ("goodwill acquired" between two dated balances)."""
    asked = set(terms(ask.phrase))
    kept = max(row_score(r, asked) for r in rows)
    for row in frame.rows:
        if row.index in dated:
            continue
        for column in frame.columns:
            named = Row(row.index, f"{row.label} {column.header}", row.parent)
            if column.index in row.figures and row_score(named, asked) > kept:
                return True
    return False


def regrouped(frame: Frame, ask: Ask) -> Frame | None:
    """The table with its periods as columns, when the question names a period its column
    headers lack and its rows name two or more periods; None otherwise."""
    header_years = {y for c in frame.columns for y in c.years}
    if frame.transposed or not ask.periods or all(p.year in header_years for p in ask.periods):
        return None  # (a table turned already has its periods as columns)
    dated = _row_periods(frame)
    if len({y for y, _, _ in dated.values()}) < 2:
        return None
    by_index = {r.index: r for r in frame.rows}
    grouped: dict[tuple[str, str, int], Row] = {}
    for i, (year, label, parent) in dated.items():
        source = by_index[i]
        for column in frame.columns:
            if column.index not in source.figures:
                continue
            header = column.header
            for named in periods(column.header):  # the header's own period is the row's now
                header = _without(header, named.text)
            key = (label.lower(), parent.lower(), column.index)
            row = grouped.get(key)
            if row is None:
                name = f"{label} {header}".strip() if len(frame.columns) > 1 else label
                row = grouped[key] = Row(len(grouped), name, parent, {}, {})
            if year not in row.figures:
                row.figures[year] = source.figures[column.index]
                row.cells[year] = frame.cell(source, column)
    # an item printed for one period only is a row that mentions a year ("Notes due 2024")
    rows = [r for r in grouped.values() if len(r.figures) >= 2]
    if not rows or _undated_named(frame, ask, dated, rows):
        return None
    columns = _period_columns(dated)
    return Frame(frame.block, frame.view, columns, rows, frame.scale, context=frame.context)
