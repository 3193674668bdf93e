"""Which cell of a table a question asks for: its row and column headers matched to the
question's words (fuzzy, abbreviations, multi-row headers and spans), special rows ("last
row", "total", "average") and superlatives over a column ("which filter removes most").

Works on a table block's stored grid (documents/tables/grid.py); pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.agent.numeric.numbers import parse_number
from citewise.agent.numeric.unnamed_rows import complement_or_bound
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
# A column where less is better: "best" there means the smallest value.
_LOWER_IS_BETTER = lazy(
    r"\b(error|err|loss|perplexity|ppl|wer|cer|time|latency|rmse|mae|mse|cost|runtime)\b", re.I
)
_SUPERLATIVE = lazy(
    r"\b(best|highest|largest|most|biggest|greatest|top|maximum|max|lowest|smallest|least|"
    r"fewest|worst|minimum|min)\b",
    re.I,
)
_LOW_WORDS = {"lowest", "smallest", "least", "fewest", "minimum", "min"}
_WHICH = lazy(r"\b(which|what|who)\b", re.I)
# "Which maximum learning rates ...", "what minimum length ...": the bound names the
# quantity asked for (a setting), it does not rank the table's rows.
_BOUND_ASKED = lazy(r"\b(?:which|what)\s+(?:maximum|minimum|max|min)\b", re.I)
_LAST_ROW = lazy(r"\b(last|final|bottom) row\b", re.I)
_FIRST_ROW = lazy(r"\bfirst row\b", re.I)
_TOTAL_ROW = lazy(r"\b(total|overall|all)\b", re.I)
_AVERAGE_ROW = lazy(r"\b(average|mean|avg)\b", re.I)
MATCH_FLOOR = 0.5


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


@dataclass
class CellMatch:
    """The cell a question asks for, with what matched and how well (0..2)."""

    row: str
    column: str
    value: str
    row_index: int
    column_index: int
    score: float
    kind: str = "cell"  # cell | superlative
    column_score: float = 0.0  # the part of `score` the column's header earned
    margin: float = 1.0  # how far the row is ahead of the next best row (1: no rival)


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


def _row_score(row: list[str], asked: set[str]) -> float:
    """Summed over the row's text cells: "ChemProt" and "REL" both named beat "REL" alone."""
    return sum(label_score(c, asked) for c in dict.fromkeys(row) if c and not is_numeric(c))


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


def _special_row(question: str, view: TableView) -> int | None:
    if _LAST_ROW.search(question):
        return len(view.rows) - 1
    if _FIRST_ROW.search(question):
        return 0
    for pattern in (_TOTAL_ROW, _AVERAGE_ROW):
        if pattern.search(question):
            named = [
                i for i, r in enumerate(view.rows) if pattern.search(row_name(r).split(" ")[0])
            ]
            if len(named) == 1:
                return named[0]
    return None


_COUNT_HEADER = lazy(r"^(number|count|#|no\.|n)\b", re.I)
_HOW_MANY = lazy(r"\bhow many\b", re.I)
_SHARE = lazy(r"\b(percentage|percent|share|proportion|fraction)\b|%", re.I)
_NEGATED = lazy(r"\b(not|no|never|n't|did not|didn't)\b", re.I)


def _unit_bonus(question: str, header: str) -> float:
    """A share asked for picks the "%" column; of "Yes (%)" / "No (%)", the affirmative
    one unless the question is negated ("what percentage said they had ...")."""
    bonus = 0.0
    if _SHARE.search(question) and re.search(r"%|percent", header, re.I):
        bonus += 1.0
        if re.match(r"\s*yes\b", header, re.I) and not _NEGATED.search(question):
            bonus += 0.25
    return bonus


def best_column(question: str, view: TableView, among: list[int]) -> tuple[int, float] | None:
    """The value column the question names; a lone value column counts as named when it
    is a count and the question asks "how many"."""
    asked = set(words(question))
    scored = sorted(
        (
            (label_score(view.columns[k], asked) + _unit_bonus(question, view.columns[k]), k)
            for k in among
        ),
        reverse=True,
    )
    if not scored:
        return None
    if (
        len(among) == 1
        and _HOW_MANY.search(question)
        and _COUNT_HEADER.match(view.columns[among[0]])
    ):
        return among[0], max(scored[0][0], MATCH_FLOOR)
    if scored[0][0] < MATCH_FLOOR or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1], scored[0][0]


def match_cell(question: str, view: TableView) -> CellMatch | None:
    """The one cell whose row and column headers the question names best; None when no
    row or no column is named clearly (a tie, or less than half of a header matched)."""
    numeric = numeric_columns(view)
    column = best_column(question, view, numeric)
    if column is None:
        return None
    k, col_score = column
    special = _special_row(question, view)
    margin = 1.0
    if special is not None:
        i, row_score = special, 1.0
    else:
        asked = set(words(question))
        scores = sorted(
            (
                (0.0 if complement_or_bound(row_name(r), question) else _row_score(r, asked), i)
                for i, r in enumerate(view.rows)
            ),
            reverse=True,
        )
        if not scores or scores[0][0] < MATCH_FLOOR:
            return None
        if len(scores) > 1 and scores[1][0] >= scores[0][0] - 1e-9:
            return None
        row_score, i = scores[0]
        margin = scores[0][0] - scores[1][0] if len(scores) > 1 else 1.0
    value = view.rows[i][k] if k < len(view.rows[i]) else ""
    if not value:
        return None
    score = min(row_score, 1.0) + col_score
    name = row_name(view.rows[i])
    return CellMatch(name, view.columns[k], value, i, k, score, "cell", col_score, min(1.0, margin))


def bound_asked(question: str) -> bool:
    """ "Which maximum learning rates ...": a setting's bound is asked, not a row ranked."""
    return bool(_BOUND_ASKED.search(question))


_TOTAL_ROW = lazy(r"\b(?:sub)?totals?\b", re.I)


def superlative(question: str, view: TableView) -> CellMatch | None:
    """ "Which X is best on Y" / "which filter removes most papers": the row with the
    largest (or smallest) value in the column the question names."""
    found = _SUPERLATIVE.search(question)
    if not found or not _WHICH.search(question) or _BOUND_ASKED.search(question):
        return None
    column = best_column(question, view, numeric_columns(view))
    if column is None:
        return None
    k, col_score = column
    valued = [
        (v, i)
        for i, r in enumerate(view.rows)
        if k < len(r) and (v := parse_number(r[k])) is not None and row_name(r)
        and not _TOTAL_ROW.search(row_name(r))  # a total is the sum of the rows compared
    ]  # fmt: skip
    if len(valued) < 2:
        return None
    word = found.group(1).lower()
    low = word in _LOW_WORDS or (
        word in ("best", "top") and bool(_LOWER_IS_BETTER.search(view.columns[k]))
    )
    if word == "worst":
        low = not _LOWER_IS_BETTER.search(view.columns[k])
    value, i = min(valued) if low else max(valued)
    if sum(v == value for v, _ in valued) > 1:
        return None  # a tie has no single answer
    row = view.rows[i]
    return CellMatch(row_name(row), view.columns[k], row[k], i, k, 1.0 + col_score, "superlative",
                     col_score)  # fmt: skip


_TOTAL_OVER = lazy(r"\b(total|overall|combined|summed|sum)\b", re.I)
BREAKDOWN_TOLERANCE = 1.0


def row_values(row: list[str]) -> list[float]:
    """The numbers of a row's value cells (its name cells skipped)."""
    return [v for c in row[1:] if c and (v := parse_number(c)) is not None]


def breakdown(view: TableView, i: int) -> list[int]:
    """The rows under row i that add up to it, column by column ("Semantic error 29%"
    over "Token 8%", "Structure 19%", "Subtask 2%"): its parts. Empty when none do."""
    whole = row_values(view.rows[i])
    running = [0.0] * len(whole)
    for j in range(i + 1, len(view.rows)):
        values = row_values(view.rows[j])
        if not whole or len(values) != len(whole):
            return []
        running = [a + b for a, b in zip(running, values, strict=True)]
        if all(abs(a - w) <= BREAKDOWN_TOLERANCE for a, w in zip(running, whole, strict=True)):
            return list(range(i + 1, j + 1))
    return []


_ACRONYM = lazy(r"\b[A-Z][A-Z0-9-]{2,}\b")


def names_all(question: str, view: TableView) -> bool:
    """Every acronym the question names ("HOVER", "FEVER") is in the table's caption or
    cells: a table about HOVER does not answer a question about FEVER."""
    text = " ".join([view.caption, *view.columns, *(c for r in view.rows for c in r)]).lower()
    return all(a.lower() in text for a in _ACRONYM.findall(question))


def superlative_total(question: str, view: TableView) -> CellMatch | None:
    """ "Which type of semantic error has the lowest total": the row whose values, summed
    over the value columns, are the extreme, among the parts of the row the question names
    (the rows below it that add up to it). Only when no one column is named."""
    found = _SUPERLATIVE.search(question)
    if not found or not _WHICH.search(question) or not _TOTAL_OVER.search(question):
        return None
    if best_column(question, view, numeric_columns(view)) is not None or not names_all(
        question, view
    ):
        return None
    asked = set(words(question))
    named = sorted(((_row_score(r, asked), i) for i, r in enumerate(view.rows)), reverse=True)
    if not named or named[0][0] < MATCH_FLOOR:
        return None
    # only the parts of the row named ("type of semantic error"): totals of unrelated rows
    # (methods over datasets) are no quantity the table means
    rows = breakdown(view, named[0][1])
    totals = [(sum(vs), i) for i in rows if len(vs := row_values(view.rows[i])) >= 2]
    if len(totals) < 2:
        return None
    low = found.group(1).lower() in _LOW_WORDS
    value, i = min(totals) if low else max(totals)
    if sum(v == value for v, _ in totals) > 1:
        return None
    shown = f"{value:g}"
    return CellMatch(row_name(view.rows[i]), "total over the value columns", shown, i, 0,
                     2.0, "superlative")  # fmt: skip
