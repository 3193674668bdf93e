"""Counting wins in a results table: "On how many datasets does X outperform Y?".

Results tables put the compared systems in columns (often grouped under a base model:
"GPT-4" over "Standard", "CoT", "Logic-LM") and the datasets or tasks in rows. The
question names the system, the units counted ("datasets") and whom it must beat: named
systems, or the baselines in general ("the two baseline models"), which are the other
systems of the same group. The count is read from every row; the answer names the rows
won and cites the table. Pure functions over agent/cells.py's TableView.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.cells import _LOWER_IS_BETTER, TableView, label_score, numeric_columns, words
from citewise.agent.numbers import parse_number

_WINS = re.compile(
    r"\bhow many (?P<unit>[a-z][\w-]*s)\b (?:does|did|do|can|could) (?P<who>.+?) "
    r"(?:outperforms?|beats?|surpass(?:es)?|exceeds?|do(?:es)? better than|improves? (?:on|over))"
    r" (?P<whom>.+?)(?: (?:in|on|across|for))?\s*\?*\s*$",
    re.IGNORECASE,
)
_PARENTHESIS = re.compile(r"\([^)]*\)")
# "the baselines", "the two baseline models", "all other methods": not named one by one
_GENERIC = re.compile(r"\b(baselines?|other|others|rest|competitors?|all)\b", re.I)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "both": 2}
WHO_MATCH = 1.0


@dataclass
class Wins:
    """How many rows a column beats the others on, and which."""

    count: int
    total: int
    column: int
    rivals: list[int]
    rows: list[int]  # the rows won


def _asked(text: str) -> tuple[str, str, str] | None:
    found = _WINS.search(text)
    if not found:
        return None
    who = _PARENTHESIS.sub(" ", found.group("who")).strip()
    return found.group("unit"), who, found.group("whom")


def _column_for(name: str, context: set[str], view: TableView, among: list[int]) -> int | None:
    """The value column a system name picks: its header names all of the name's words; of
    several (one per group), the one whose header the question's other words name too."""
    own = set(words(name))
    fits = [k for k in among if own and label_score(_sub(view, k), own) >= WHO_MATCH]
    if len(fits) <= 1:
        return fits[0] if fits else None
    scored = sorted(((label_score(view.columns[k], context), k) for k in fits), reverse=True)
    if scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]


def _sub(view: TableView, k: int) -> str:
    """A column's own header, without the group above it."""
    return view.header[-1][k] if view.header and k < len(view.header[-1]) else view.columns[k]


def _rivals(whom: str, column: int, view: TableView, among: list[int]) -> list[int] | None:
    """The columns to beat: those named, else the rest of the column's group."""
    named = [
        k
        for part in re.split(r",|\band\b|\bor\b", _PARENTHESIS.sub(" ", whom))
        if part.strip() and not _GENERIC.search(part)
        if (k := _column_for(part, set(), _group_view(view, column), among)) is not None
    ]
    if named:
        return [k for k in dict.fromkeys(named) if k != column]
    if not _GENERIC.search(whom):
        return None
    group = view.group(column)
    rest = [k for k in among if k != column and group and view.group(k) == group]
    expected = next((n for w, n in _COUNT_WORDS.items() if re.search(rf"\b{w}\b", whom, re.I)), 0)
    if expected and len(rest) != expected:
        return None  # "the two baselines" but the group has another number of columns
    return rest or None


def _group_view(view: TableView, column: int) -> TableView:
    """The view restricted (by header) to a column's group, for naming rivals inside it."""
    group = view.group(column)
    if not group:
        return view
    header = [
        [h if view.group(k) == group else "" for k, h in enumerate(row)] for row in view.header
    ]
    columns = [c if view.group(k) == group else "" for k, c in enumerate(view.columns)]
    return TableView(view.label, view.caption, columns, view.rows, view.boxes, header)


def count_wins(text: str, view: TableView) -> Wins | None:
    """Rows where the asked column's value beats every rival's (lower is better for
    errors and losses); None unless the table holds the units, the system and its rivals."""
    asked = _asked(text)
    if asked is None:
        return None
    unit, who, whom = asked
    first = view.header[-1][0] if view.header else view.columns[0]
    if label_score(first or view.columns[0], set(words(unit))) < WHO_MATCH:
        return None  # the rows are not the units counted
    among = numeric_columns(view)
    context = set(words(text))
    column = _column_for(who, context, view, among)
    if column is None:
        return None
    rivals = _rivals(whom, column, view, among)
    if not rivals:
        return None
    low = bool(_LOWER_IS_BETTER.search(f"{view.columns[column]} {view.caption}"))
    won: list[int] = []
    total = 0
    for i, row in enumerate(view.rows):
        mine = parse_number(row[column]) if column < len(row) else None
        theirs = [parse_number(row[k]) if k < len(row) else None for k in rivals]
        if mine is None or any(v is None for v in theirs):
            continue
        total += 1
        others = [v for v in theirs if v is not None]
        if all((mine < v) if low else (mine > v) for v in others):
            won.append(i)
    if total < 2:
        return None
    return Wins(len(won), total, column, rivals, won)
