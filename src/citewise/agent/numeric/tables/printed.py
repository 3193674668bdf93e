"""The change a table prints beside its periods: a report that shows "2019 over 2018" or
"Change" next to its year columns has already done the arithmetic, in its own rounding.
When the printed figure agrees with the computed one, quoting its cell after the computed
sentence shows the reader the report's own figure ("191%" for 190.86%)."""

from __future__ import annotations

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.ask.table_words import find
from citewise.agent.numeric.computed import Computation
from citewise.agent.numeric.quoted import Quoted
from citewise.agent.numeric.tables.compute import operand
from citewise.agent.numeric.tables.frame import Column, Frame, Row


def _decimals(printed: str) -> int:
    digits = printed.strip().rstrip("%)").split(".")
    return len(digits[1]) if len(digits) == 2 and digits[1].isdigit() else 0


def _change_columns(frame: Frame, used: list[Column], percent: bool) -> list[Column]:
    """Columns headed by the two periods computed over ("2019 over 2018") or printing
    its percentage beside it, else headed by a change word alone; of them those holding
    percentages exactly when the change is one."""
    years = sorted({y for c in used for y in c.years})
    both = [c for c in frame.columns if len(c.years) == 2 and sorted(c.years) == years]
    # a change printed as an amount and a percentage under one spanning header: the
    # percentage column right after the periods' own carries no periods of its own
    after = {c.index + 1 for c in both}
    both += [c for c in frame.columns if c.index in after and not c.years and c.percent]
    worded = [c for c in frame.columns if not c.years and find(c.header, ("change", "pct_change"))]
    return [c for c in both or worded if c.percent == percent]


def printed_change(
    frame: Frame, row: Row, used: list[Column], comp: Computation
) -> tuple[AnswerSentence, list[Quoted]] | None:
    """The sentence quoting the change the table prints for this row, when its figure is
    the computed result in the table's own rounding; None when it prints none that agrees."""
    percent, result = comp.unit == "%", comp.result
    for column in _change_columns(frame, used, percent):
        if column.index not in row.figures:
            continue
        printed, value = row.figures[column.index]
        if abs(value - result) > 0.5 * 10 ** -_decimals(printed) + 1e-9:
            continue
        cell: dict[str, object] = {
            "table": frame.view.label or "the table",
            "row": row.label,
            "column": column.name,
            "value": printed.strip(),
        }
        text = f"The table prints {printed.strip()} ({row.label or row.parent}, {column.name})."
        sentence = AnswerSentence(text, [frame.block.id], 0.0, "cell", cell)
        o = operand(frame, row, column, "a")
        return sentence, [Quoted(frame.block, o.quote, o.cell_bbox)]
    return None
