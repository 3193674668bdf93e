"""The arithmetic a question names, over cells of one table, as a `Computation` whose
operands each quote and cite their cell.

One row over periods: a change is the later period minus the earlier ("change in X between
2018 and 2019" = 2019 − 2018), a percentage change divides it by the earlier; an average or
a total runs over the periods named (every period of the table when none is). Two rows in
one column: a difference is the first named minus the second, a share or ratio the first
over the second. Rounding: as the question says, else two decimals.
"""

from __future__ import annotations

from citewise.agent.ask.table_reading import Ask
from citewise.agent.ask.table_words import find
from citewise.agent.numeric.computed import Computation, Operand
from citewise.agent.numeric.quoted import row_quote
from citewise.agent.numeric.tables.frame import Column, Frame, Row

_NAMES = "abcdefghijklmnopqrstuvwxyz"


def operand(frame: Frame, row: Row, column: Column, name: str) -> Operand:
    printed, value = row.figures[column.index]
    i, k = frame.cell(row, column)
    cells = frame.view.rows[i]
    label = f"{row.label or row.parent}, {column.header}".strip(", ")
    return Operand(
        name,
        label,
        printed.strip(),
        value,
        frame.block.id,
        row_quote(frame.block, cells),
        row=row.label,
        cell_bbox=frame.view.box(i, k),
    )


def over_periods(
    ask: Ask, frame: Frame, rows: list[Row], columns: list[Column]
) -> Computation | None:
    """change / percentage change / average / total of one row (or of the sum of the rows
    a question lists) over its period columns (earliest first)."""
    op = ask.operation
    columns = list({c.index: c for c in columns}.values())
    if len(columns) < 2 or not rows or len(rows) * len(columns) > len(_NAMES):
        return None
    if op in ("change", "difference", "pct_change"):
        if len(columns) > 2 and ask.periods:
            return None  # three periods named for a two-figure change
        columns = [columns[0], columns[-1]] if ask.periods else columns[-2:]
    if op not in ("change", "difference", "pct_change", "average", "sum") or len(columns) < 2:
        return None
    if op == "sum" and not ask.periods and not find(ask.text, ("all_periods",)):
        return None  # "the total X" names a row; a sum over periods names them
    cells = [(r, c) for c in columns for r in rows]
    operands = [operand(frame, r, c, _NAMES[i]) for i, (r, c) in enumerate(cells)]
    names = [o.name for o in operands]
    per = [
        _grouped(_summed(names[i : i + len(rows)]), rows) for i in range(0, len(names), len(rows))
    ]
    first, last = per[0], per[-1]
    label = " and ".join(r.label or r.parent for r in rows)
    span = f"{columns[0].name} to {columns[-1].name}"
    if op == "difference" and not any(c.years for c in columns):  # "between 1–90 and 91–180"
        return Computation(f"difference in {label} of {columns[0].name} and {columns[-1].name}",
                           f"{first} - {last}", operands, ask.decimals)  # fmt: skip
    if op in ("change", "difference"):
        return Computation(f"change in {label} from {span}", f"{last} - {first}", operands,
                           ask.decimals)  # fmt: skip
    if op == "pct_change":
        return Computation(f"percentage change in {label} from {span}",
                           f"({last} - {first}) / {first} * 100", operands, ask.decimals,
                           "%")  # fmt: skip
    if op == "sum":
        return Computation(
            f"total of {label} over {span}", " + ".join(names), operands, ask.decimals
        )
    expression = f"({' + '.join(per)}) / {len(per)}"
    return Computation(f"average of {label} over {span}", expression, operands, ask.decimals)


def across_rows(
    ask: Ask, frame: Frame, first: list[Row], second: list[Row], column: Column
) -> Computation | None:
    """difference / ratio / share / total / average of named rows in one column: the rows
    the question names first against those it names second ("A and B over total C" is
    (a + b) / c); a total or an average runs over all of them."""
    op = ask.operation
    rows = first + second
    if len(rows) > len(_NAMES) or not first or not second:
        return None
    operands = [operand(frame, r, column, n) for r, n in zip(rows, _NAMES, strict=False)]
    names = [o.name for o in operands]
    top, bottom = names[: len(first)], names[len(first) :]
    label = [o.row or o.label for o in operands]
    joint = " and " if len(operands) == 2 or op in ("sum", "average") else " over "
    what = f"{' and '.join(label[: len(first)])}{joint}{' and '.join(label[len(first) :])}"
    what += f", {column.name}"
    numerator = _summed(top)
    denominator = _summed(bottom)
    if op == "difference":
        expression = f"{numerator} - {_grouped(denominator, bottom)}"
        return Computation(f"difference of {what}", expression, operands, ask.decimals)
    if op == "sum":
        return Computation(f"total of {what}", " + ".join(names), operands, ask.decimals)
    if op == "average":
        expression = f"({' + '.join(names)}) / {len(names)}"
        return Computation(f"average of {what}", expression, operands, ask.decimals)
    ratio = f"{_grouped(numerator, top)} / {_grouped(denominator, bottom)}"
    if op == "share" and ask.percent:
        return Computation(f"share of {what}", f"{ratio} * 100", operands, ask.decimals, "%")
    if op in ("share", "ratio"):
        return Computation(f"ratio of {what}", ratio, operands, ask.decimals)
    return None


def _summed(names: list[str]) -> str:
    return " + ".join(names)


def _grouped(expression: str, names: list[str] | list[Row]) -> str:
    return f"({expression})" if len(names) > 1 else expression
