"""Header rows of a table: from numbers, ruling, font weight and repetition.

Evidence, strongest first. A row holding a number outside its first column is data, so
the header ends before the first such row (years such as '2019 | 2018' head columns of
numbers and do not count as data when a rule or bold type sets them apart). In a table
without such numbers: a horizontal rule under the first rows (booktabs' midrule) closes
the header; else leading bold rows over plain ones are the header; a table whose rules
are known and none sits under its first rows has no header (rules between nearly all
rows are cell borders and say nothing); with no evidence at all the first row is taken
as header. A table continued on the next page under the same label
either repeats the header rows (they are header again) or starts with data.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from citewise.documents.model import Block
from citewise.documents.tables.grid import Cell, is_numeric, row_labels

Box = tuple[float, float, float, float]
YEAR = re.compile(r"^(?:FY\s?)?(?:19|20)\d\d[*†‡]?$")
MAX_HEADER = 3  # header rows a rule or bold type can claim


def spanning_rules(rules: Sequence[Box], region: Box) -> list[float]:
    """Heights of the horizontal rules across most of a table's region (or just outside)."""
    x0, y0, x1, y1 = region
    return sorted(
        (r[1] + r[3]) / 2
        for r in rules
        if r[3] - r[1] < 2
        and y0 - 12 <= r[1] <= y1 + 12
        and min(r[2], x1) - max(r[0], x0) > 0.5 * (x1 - x0)
    )


def header_count(rows: list[list[Cell]], rules: list[float] | None = None) -> int:
    """How many leading rows are header rows; `rules` are the heights of the horizontal
    rules across the table (None when unknown: no drawing was read)."""
    rows = [r for r in rows if r]
    texts = [[c.text for c in r] for r in rows]
    bold = [bool(r) and all(c.bold for c in r if c.text) for r in rows]
    under = _rule_under(rows, rules) if rules is not None else None
    return choose(texts, bold, under, framed=bool(rules))


def rules_matter(rows: list[list[Cell]]) -> bool:
    """Whether the rules across a table can change `header_count(rows, rules)`; when not,
    the page's drawings need not be read for it. They cannot in a table of one row, in one
    whose rows are not all boxed (no rule can be set between them), or in one with numbers
    whose first numbered row comes at or after the last row a rule could close the header
    on, or under leading bold rows that already reach that row."""
    rows = [r for r in rows if r]
    texts = [[c.text for c in r] for r in rows]
    if len(texts) < 2:
        return False
    numbered = [any(is_numeric(t) for t in row[1:]) for row in texts]
    if not any(numbered):
        return True  # a rule, bold type or the frame decides
    if any(all(c.box is None for c in r) for r in rows):
        return False
    data = [any(is_numeric(t) and not YEAR.match(t.strip()) for t in row[1:]) for row in texts]
    first_data = data.index(True) if any(data) else len(texts)
    limit = min(MAX_HEADER, first_data, len(texts) - 1)
    bold = [bool(r) and all(c.bold for c in r if c.text) for r in rows]
    return numbered.index(True) < limit and _by_bold(bold, limit) != limit


def choose(texts: list[list[str]], bold: list[bool], under: list[bool] | None, framed: bool) -> int:
    """The header count from the evidence: `bold[i]` row i is all bold, `under[i]` a rule
    lies between rows i and i+1, `framed` rules are drawn across the table at all."""
    if under and sum(under) >= 0.8 * len(under):  # rules between (nearly) all rows
        under, framed = None, False  # are cell borders: they say nothing about the header
    data = [any(is_numeric(t) and not YEAR.match(t.strip()) for t in row[1:]) for row in texts]
    numbered = [any(is_numeric(t) for t in row[1:]) for row in texts]
    first_data = data.index(True) if any(data) else len(texts)
    limit = min(MAX_HEADER, first_data, len(texts) - 1)
    by_rule = _by_rule(texts, under, limit) if under is not None else None
    by_bold = _by_bold(bold, limit)
    if any(numbered):  # years head columns only when a rule or bold type says so
        plain = numbered.index(True)
        set_apart = max(by_rule or 0, by_bold or 0)
        return set_apart if plain < set_apart <= first_data else plain
    if len(texts) < 2:
        return 0
    if by_rule is not None:
        return by_rule
    if by_bold is not None:
        return by_bold
    return 0 if framed else 1


def _rule_under(rows: list[list[Cell]], rules: list[float]) -> list[bool] | None:
    """For each pair of adjacent rows, whether a rule runs between them."""
    spans = []
    for row in rows:
        boxes = [c.box for c in row if c.box is not None]
        if not boxes:
            return None  # rows without page boxes cannot be set against the rules
        spans.append((min(b[1] for b in boxes), max(b[3] for b in boxes)))
    return [
        any(a[1] - 1 <= y <= b[0] + 1 for y in rules)
        for a, b in zip(spans, spans[1:], strict=False)
    ]


def _by_rule(texts: list[list[str]], under: list[bool], limit: int) -> int | None:
    """Rows above the first rule under the top rows. A title in one cell ruled off above
    the column heads ('S4 classes defined by TIMP' over 'class | represents') heads them:
    the header then runs to the next rule."""
    hits = [i + 1 for i, ruled in enumerate(under[:limit]) if ruled]
    if not hits:
        return None
    multi = [k for k in hits if len([t for t in texts[k - 1] if t]) >= 2]
    return multi[0] if multi else hits[0]


def _by_bold(bold: list[bool], limit: int) -> int | None:
    """Leading bold rows over a plain row."""
    k = 0
    while k < len(bold) and bold[k]:
        k += 1
    return k if 0 < k <= limit and k < len(bold) else None


# --- tables continued on the next page --------------------------------------------------


def carry_over(blocks: list[Block]) -> None:
    """A table continued on the next page under the same label: rows repeating the first
    part's header rows are header again; a text table that does not repeat them starts
    with data (its first row was only the default guess)."""
    last: Block | None = None
    for block in blocks:
        if block.kind != "table" or block.data is None:
            continue
        prev, last = last, block
        if prev is None or prev.data is None or not block.label:
            continue
        if prev.label != block.label or block.page != prev.page + 1:
            continue
        head = _int(prev.data.get("header_rows"))
        rows = _rows(block.data)
        mine = _int(block.data.get("header_rows"))
        if head and _flat(_rows(prev.data)[:head]) == _flat(rows[:head]):
            _set_header(block.data, head)
        elif mine and not any(is_numeric(t) for row in rows for t in row[1:]):
            _set_header(block.data, 0)


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _rows(data: dict[str, Any]) -> list[list[str]]:
    rows = data.get("rows")
    return [[str(t) for t in r] for r in rows] if isinstance(rows, list) else []


def _flat(rows: list[list[str]]) -> str:
    return "".join("".join(r) for r in rows).replace(" ", "").lower()


def _set_header(data: dict[str, Any], header: int) -> None:
    cells = data.get("cells")
    if not isinstance(cells, list) or data.get("header_rows") == header:
        return
    for cell in cells:
        cell["header"] = cell["row"] < header
    n_rows = _int(data.get("n_rows"))
    first = {c["row"]: c["text"] for c in cells if c["col"] == 0}
    data["header_rows"] = header
    data["row_labels"] = row_labels(
        [first.get(i, "") for i in range(header, n_rows)], _int(data.get("n_cols"))
    )
