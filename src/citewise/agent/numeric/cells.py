"""A table as its headers and body rows (`TableView`), and how much of a row's or a
column's header a question names (fuzzy, standard abbreviations spelled out).

Works on a table block's stored grid (documents/tables/grid.py); pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.documents.tables.grid import is_numeric, table_from_data, to_csv_rows
from citewise.regex import lazy
from citewise.retrieval.terms import STOPWORDS, stem, tokens

# Standard abbreviations of results-table headers (not any one paper's): header -> words.
STANDARD_ABBREVIATIONS = {
    "lnl": "log likelihood",
    "ll": "log likelihood",
    "acc": "accuracy",
    "ppl": "perplexity",
    "prec": "precision",
    "rec": "recall",
    "avg": "average",
    "std": "standard deviation",
    "sd": "standard deviation",
    "no": "number",
    "num": "number",
    "pct": "percent",
    "yr": "year",
}
# "Which maximum learning rates ...", "what minimum length ...": the bound names the
# quantity asked for (a setting), it does not rank the table's rows.
_BOUND_ASKED = lazy(r"\b(?:which|what)\s+(?:maximum|minimum|max|min)\b", re.I)


@dataclass
class TableView:
    """A table as headers and body rows: column headers joined over the header rows."""

    label: str  # "Table 3", or the caption's start when unnumbered
    caption: str
    columns: list[str]
    rows: list[list[str]]
    # each body slot's box on the page (a spanning cell's box in every slot it covers);
    # None where the stored grid has none (libraries ingested before cells had boxes)
    boxes: list[list[list[float] | None]] = field(default_factory=list)
    # the header rows as printed, a spanning header repeated over its columns ("GPT-4"
    # over "Standard", "CoT", "Logic-LM"): which group a column belongs to
    header: list[list[str]] = field(default_factory=list)

    @classmethod
    def from_data(cls, data: dict[str, object], label: str | None) -> TableView | None:
        if not data.get("cells"):
            return cls._from_rows(data, label)
        table = table_from_data(data, label, 0, 0)
        grid = to_csv_rows(table)
        head = max(1, table.header_rows)
        if len(grid) <= head or table.cols < 2:
            return None
        columns = [
            " ".join(dict.fromkeys(grid[r][k] for r in range(head) if grid[r][k]))
            for k in range(table.cols)
        ]
        caption = table.caption
        boxes: list[list[list[float] | None]] = [[None] * table.cols for _ in grid]
        for c in table.cells:
            for r in range(c.row, min(c.row + c.rowspan, table.rows)):
                for k in range(c.col, min(c.col + c.colspan, table.cols)):
                    boxes[r][k] = c.bbox
        return cls(label or caption[:40], caption, columns, grid[head:], boxes[head:], grid[:head])

    @classmethod
    def _from_rows(cls, data: dict[str, object], label: str | None) -> TableView | None:
        """A CSV or TSV file's rows block (documents/formats/tabular.py): its header line names the
        columns, its rows are the body; no boxes (a text file has no page)."""
        header, rows = data.get("columns"), data.get("rows")
        if not isinstance(header, list) or not isinstance(rows, list) or len(header) < 2:
            return None
        columns = [str(c) for c in header]
        body = [[str(c) for c in r] for r in rows if isinstance(r, list)]
        if not body:
            return None
        return cls(label or "the table", "", columns, body, [], [columns])

    def group(self, column: int) -> str:
        """The top header over a column when the table has a header above its headers
        (a model over its methods); "" otherwise."""
        if len(self.header) < 2 or column >= len(self.header[0]):
            return ""
        return self.header[0][column]

    def box(self, row: int, column: int) -> list[float] | None:
        """The page box of body cell (row, column), when the grid has one."""
        if 0 <= row < len(self.boxes) and 0 <= column < len(self.boxes[row]):
            return self.boxes[row][column]
        return None


def words(text: str) -> list[str]:
    """Content words of a header or question, stemmed; standard abbreviations spelled out."""
    out: list[str] = []
    for t in tokens(text):
        if t in STOPWORDS and t not in ("all", "no", "not"):
            continue
        expansion = STANDARD_ABBREVIATIONS.get(t)
        out.extend(stem(w) for w in (expansion.split() if expansion else [t]))
    return out


def _known(word: str, asked: set[str]) -> bool:
    """A header word the question uses, as is or abbreviated ("prec." for "precision")."""
    if word in asked:
        return True
    return len(word) >= 3 and any(a.startswith(word) for a in asked)


def label_score(label: str, asked: set[str]) -> float:
    """How much of a header the question names: share of its words, plus a little for
    each (a longer exact name beats a shorter one: "S2ORC-SciBERT" over "SciBERT")."""
    own = [w for w in dict.fromkeys(words(label)) if not w.replace(".", "").isdigit()]
    if not own:
        return 0.0
    hit = sum(_known(w, asked) for w in own)
    return hit / len(own) + 0.05 * hit if hit else 0.0


def row_name(row: list[str]) -> str:
    """The row's header: its text cells before the first number."""
    lead: list[str] = []
    for c in row:
        if c and is_numeric(c):
            break
        if c and c not in lead:
            lead.append(c)
    return " ".join(lead)


def numeric_columns(view: TableView) -> list[int]:
    """Columns holding values: mostly numbers, and not the first (it names the rows)."""
    return [
        k
        for k in range(1, len(view.columns))
        if sum(is_numeric(r[k]) for r in view.rows if k < len(r)) >= max(1, len(view.rows) // 2)
    ]


def bound_asked(question: str) -> bool:
    """ "Which maximum learning rates ...": a setting's bound is asked, not a row ranked."""
    return bool(_BOUND_ASKED.search(question))
