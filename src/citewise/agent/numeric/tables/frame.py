"""A stored table read for arithmetic: its value columns (with the period each names and
whether it holds percentages), its rows (label, the section row above them, figures by
column) and the scale its headers state ("in thousands", "$ million", "£m").

Built from the one grid every reader stores (agent/numeric/cells.TableView); pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.agent.ask.table_reading import periods
from citewise.agent.numeric.cells import TableView, numeric_columns, row_name
from citewise.agent.numeric.numbers import parse_number
from citewise.documents.tables.grid import is_numeric
from citewise.store.sqlite.library import StoredBlock

_SPACED = re.compile(r"(?<=\b\d) (?=\d\b)")
_YEAR = re.compile(r"(?:19|20)\d\d")
_PERCENT = re.compile(r"%|\bpercent", re.I)
_SCALE = re.compile(
    r"\b(thousands?|millions?|billions?)\b|'000|(?<=[$£€¥])\s?(m|bn|k)\b|\b(m|bn)(?=[$£€¥])", re.I
)
_SCALE_WORD = {
    "thousand": "thousands",
    "million": "millions",
    "billion": "billions",
    "'000": "thousands",
    "m": "millions",
    "bn": "billions",
    "k": "thousands",
}


@dataclass
class Column:
    index: int
    header: str
    name: str  # the header cell that names it ("2019" under "Year ended December 31")
    years: list[int]  # the periods the header names (one for a period's own column)
    percent: bool  # holds percentages ("%" in its header or its cells)


@dataclass
class Row:
    index: int
    label: str
    parent: str  # the section row above it ("Deferred tax liabilities:"), or ""
    figures: dict[int, tuple[str, float]] = field(default_factory=dict)  # col -> (printed, value)
    # col -> the grid's (body row, column) of each figure, where a row gathers its figures
    # from several rows of the grid (tables/stacked.py); empty for a row of the grid
    cells: dict[int, tuple[int, int]] = field(default_factory=dict)


@dataclass
class Frame:
    block: StoredBlock
    view: TableView
    columns: list[Column]
    rows: list[Row]
    scale: str  # "thousands" / "millions" / "billions" / ""
    transposed: bool = False  # periods head the rows, items the columns
    # the sentence of the text introducing the table ("Revenue by region was as follows:"),
    # what a report without captions says the table measures (tables/described.py)
    context: str = ""

    def cell(self, row: Row, column: Column) -> tuple[int, int]:
        """The (body row, column) of the table's grid that holds this figure."""
        if column.index in row.cells:
            return row.cells[column.index]
        return (column.index, row.index) if self.transposed else (row.index, column.index)


def holds_percent(frame: Frame, row: Row, column: Column) -> bool:
    """The cell is a percentage: its column holds them, or its row or the table says so."""
    said = f"{row.label} {row.parent} {frame.view.caption} {frame.view.columns[0]}"
    return column.percent or bool(_PERCENT.search(said))


def _scale(text: str) -> str:
    m = _SCALE.search(text)
    if not m:
        return ""
    word = next(g for g in m.groups() if g) if any(m.groups()) else m.group(0)
    return _SCALE_WORD.get(word.lower().rstrip("s"), _SCALE_WORD.get(word.lower(), ""))


def _amount(cell: str) -> bool:
    """A cell printing an amount ("$ 1,234", "(12.5)", "4.5%"), not a year or a label
    that ends in a number ("Fiscal 2018", "Note 5")."""
    text = cell.strip()
    return is_numeric(text) and not _YEAR.fullmatch(text)


def _sums_rows_above(rows: list[Row], parent: str, figures: dict[int, tuple[str, float]]) -> bool:
    """Each figure is the sum of the figures above it in its column (same section, back to
    the previous total), over at least two rows."""
    above: list[Row] = []
    for r in reversed(rows):
        if r.parent != parent or r.label.lower().startswith("total"):
            break
        above.append(r)
    if len(above) < 2 or not figures:
        return False
    for k, (_, value) in figures.items():
        column = sum(r.figures[k][1] for r in above if k in r.figures)
        if abs(column - value) > max(1.0, 0.005 * abs(value)):  # printed figures are rounded
            return False
    return True


def _name(view: TableView, k: int, header: str) -> str:
    """The shortest header cell over column k that names a period, else the lowest one."""
    cells = [row[k] for row in view.header if k < len(row) and row[k].strip()]
    dated = [c for c in cells if periods(c)]
    if dated:
        return min(dated, key=len)
    return " ".join(dict.fromkeys(cells)) if cells else header  # "Third" over "Quarter"


def _spread_periods(view: TableView, values: list[int]) -> dict[int, str]:
    """A header row whose only cells name periods, each printed over one column of a block
    of columns ("Fiscal 2019" over the four quarters and the total, a table whose spans
    were lost): each value column gets the period of its block. The blocks are the value
    columns cut into as many equal runs as there are such cells, each cell inside its own
    run; {} when a row fits no such reading."""
    out: dict[int, str] = {}
    for row in view.header:
        named = [(k, c.strip()) for k, c in enumerate(row) if k > 0 and c.strip()]
        if not named or len(named) >= len(values) or not all(periods(c) for _, c in named):
            continue
        size, rest = divmod(len(values), len(named))
        if rest:
            continue
        runs = [values[i * size : (i + 1) * size] for i in range(len(named))]
        if all(run[0] <= k <= run[-1] for (k, _), run in zip(named, runs, strict=True)):
            for (_, text), run in zip(named, runs, strict=True):
                out.update({k: text for k in run if k not in out})
    return out


def frame(block: StoredBlock, view: TableView) -> Frame | None:
    """The table's value columns and rows; None without a value column."""
    values = numeric_columns(view)
    if not values:
        return None
    columns = []
    spread = _spread_periods(view, values)
    for k in values:
        header = view.columns[k]
        if k in spread and spread[k] not in header:
            header = f"{spread[k]} {header}".strip()
        cells = [r[k] for r in view.rows if k < len(r) and r[k]]
        percent = bool(_PERCENT.search(header)) or (
            bool(cells) and sum(c.rstrip().endswith("%") for c in cells) > len(cells) / 2
        )
        years = sorted({p.year for p in periods(_SPACED.sub("", header))})  # "2 0 1 8"
        name = _name(view, k, header)
        if k in spread and not periods(name):
            name = f"{name}, {spread[k]}"  # "Third Quarter, Fiscal 2019"
        columns.append(Column(k, header, name, years, percent))
    rows: list[Row] = []
    parent = ""
    for i, cells in enumerate(view.rows):
        label = row_name(cells) or (cells[0].strip() if cells else "")  # "2021" names a row
        figures = {
            k: (cells[k], v)
            for k in values
            if k < len(cells) and _amount(cells[k]) and (v := parse_number(cells[k])) is not None
        }
        if not figures:
            parent = label  # a section row: it heads the rows under it
            continue
        if not label and _sums_rows_above(rows, parent, figures):
            label = "Total"  # an unlabelled row adding up the rows above it
        rows.append(Row(i, label, parent, figures))
    heads = " ".join([view.caption, *(" ".join(h) for h in view.header), view.columns[0]])
    if not any(c.years for c in columns):
        turned = _transposed(view, columns, rows)
        if turned is not None:
            return Frame(block, view, *turned, _scale(heads), transposed=True)
    return Frame(block, view, columns, rows, _scale(heads))


def _transposed(
    view: TableView, columns: list[Column], rows: list[Row]
) -> tuple[list[Column], list[Row]] | None:
    """A table whose rows are periods ("2021", "2022", ...) and whose columns are items,
    turned so periods are columns as elsewhere; None when fewer than two rows are periods."""
    dated = [(r, periods(r.label)) for r in rows]
    dated = [(r, p) for r, p in dated if len(p) == 1 and len(r.label) <= 3 * len(p[0].text)]
    if len(dated) < 2:
        return None
    turned_columns = [Column(r.index, r.label, r.label, [p[0].year], False) for r, p in dated]
    turned_rows = [
        Row(
            c.index,
            c.header,
            "",
            {r.index: r.figures[c.index] for r, _ in dated if c.index in r.figures},
        )  # fmt: skip
        for c in columns
    ]
    return turned_columns, turned_rows
