"""Counting the rows of a paper's tables: works of a year, and the largest group.

Surveys and related-work tables list one work per row, named with its citation
("Fudge (Yang and Klein, 2021)"), and divide the rows into groups by a row that holds only
the group's name across the table ("Post-hoc Correction"). Two questions read that:

- "How many of the papers listed in Table 1 and Table 2 are proposed in 2021?": the rows
  of the named tables whose name cites that year.
- "Which of A, B and C has the most papers?": the rows under each group row the question
  names, over all of the paper's tables; the largest group answers.

Pure functions over agent/cells.py's TableView; None means "not such a question".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.cells import label_score, row_name, words
from citewise.documents.grid import is_numeric

_YEAR_QUESTION = re.compile(
    r"\bhow many\b.*\b(proposed|published|introduced|released|appeared|written|from)\b"
    r"(?: in)? (?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_MOST = re.compile(
    r"\bwhich\b.*\b(?:has|have|had|contains?|includes?|lists?)\b (?:the )?"
    r"(?P<word>most|fewest|least|largest number of|smallest number of)\b",
    re.IGNORECASE,
)
GROUP_MATCH = 1.0


@dataclass
class RowCount:
    """A count over table rows, with the rows it counted as (table index, row index)."""

    sentence: str
    value: str
    rows: list[tuple[int, int]]


def _name(row: list[str]) -> str:
    """A listing row's name: its first cell (a text-only row has no number to stop at)."""
    return row[0] if row and row[0] else row_name(row)


def _cites(name: str, year: str) -> bool:
    """The row's name cites a work of `year` ("Klein, 2021", "et al. (2021a)")."""
    return bool(re.search(rf"(?:,|\()\s*{year}[a-z]?\)", name))


def count_of_year(text: str, views: list[tuple[str, list[list[str]]]]) -> RowCount | None:
    """Rows of the tables the question names whose name cites the year it asks about;
    `views` is (label, body rows) of exactly those tables."""
    found = _YEAR_QUESTION.search(text)
    if not found or not views:
        return None
    year = found.group("year")
    seen: set[str] = set()
    rows: list[tuple[int, int]] = []
    cited_any = False
    for t, (_, body) in enumerate(views):
        for i, row in enumerate(body):
            name = _name(row)
            if re.search(r"(?:,|\()\s*(?:19|20)\d\d[a-z]?\)", name):
                cited_any = True  # the table does list works by citation
            if name and name not in seen and _cites(name, year):
                seen.add(name)
                rows.append((t, i))
    if not cited_any:
        return None
    labels = " and ".join(label for label, _ in views)
    names = "; ".join(_name(views[t][1][i]) for t, i in rows)
    sentence = f"{len(rows)} of the works listed in {labels} cite {year}" + (
        f": {names}." if rows else "."
    )
    return RowCount(sentence, str(len(rows)), rows)


def group_rows(body: list[list[str]]) -> dict[int, str]:
    """Rows that hold only a group's name across the table (one text, no number)."""
    out: dict[int, str] = {}
    for i, row in enumerate(body):
        texts = {c for c in row if c}
        if len(texts) != 1 or len(row) < 3 or is_numeric(next(iter(texts))):
            continue
        if sum(bool(c) for c in row) >= 2 or not row[0]:  # spans, or sits off the names
            out[i] = next(iter(texts))
    return out


def largest_group(text: str, views: list[tuple[str, list[list[str]]]]) -> RowCount | None:
    """The group the question names with the most (or fewest) rows under it, counted over
    all the tables in `views`; None unless two or more named groups are found, or on a tie."""
    found = _MOST.search(text)
    if not found:
        return None
    asked = set(words(text))
    sizes: dict[str, int] = {}
    where: dict[str, list[tuple[int, int]]] = {}
    for t, (_, body) in enumerate(views):
        groups = group_rows(body)
        starts = sorted(groups)
        for n, start in enumerate(starts):
            name = groups[start]
            if label_score(name, asked) < GROUP_MATCH:
                continue
            end = starts[n + 1] if n + 1 < len(starts) else len(body)
            members = [(t, i) for i in range(start + 1, end) if _name(body[i])]
            sizes[name] = sizes.get(name, 0) + len(members)
            where.setdefault(name, []).extend(members)
    if len(sizes) < 2:
        return None
    fewest = found.group("word").lower() in ("fewest", "least", "smallest number of")
    ranked = sorted(sizes.items(), key=lambda kv: kv[1], reverse=not fewest)
    if ranked[0][1] == ranked[1][1]:
        return None
    best, n = ranked[0]
    others = ", ".join(f"{k} {v}" for k, v in ranked[1:])
    labels = " and ".join(dict.fromkeys(views[t][0] for t, _ in where[best]))
    sentence = f"{best} ({n} works listed under it in {labels}; {others})."
    return RowCount(sentence, best, where[best])
