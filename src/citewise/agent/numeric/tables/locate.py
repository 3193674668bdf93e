"""Which rows and columns of a table a question names.

A row matches through its label's words (stemmed, standard abbreviations spelled out),
helped by the section row above it: precision (how much of the label the question names)
and recall (how much of the question the label and its section cover) meet in one score.
Columns are picked by the periods the question names, else by header words it uses, else
all of the table's period columns. Every choice reports how sure it is: the runner-up's
score is kept so a tie can lower support instead of being settled silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.ask.table_reading import Ask
from citewise.agent.ask.table_words import find, is_filler
from citewise.agent.numeric.cells import STANDARD_ABBREVIATIONS
from citewise.agent.numeric.tables.frame import Column, Frame, Row
from citewise.retrieval.terms import stem, tokens

_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_ORDINALS = ["first", "second", "third", "fourth"]
_ENDPOINTS = ("change", "pct_change", "difference")
OWN = 0.2  # the share of a row's score its own label's words carry


def terms(text: str) -> list[str]:
    """Content words: no question filler, no bare numbers; abbreviations spelled out."""
    out: list[str] = []
    for t in tokens(text):
        if is_filler(t) or t.isdigit() or len(t) < 2 and not t.isalpha():
            continue
        expansion = STANDARD_ABBREVIATIONS.get(t)
        out.extend(stem(w) for w in (expansion.split() if expansion else [t]))
    return list(dict.fromkeys(out))


# a header word made of digits: a range ("1–90", "91-180 days") or a bound (">360"), not
# a year span ("2017-2019", read as periods)
_RANGE = re.compile(r"(?<![\w.])(?:(\d{1,3})\s*[-–—]\s*(\d{1,3})|([<>≤≥]\s*\d{1,3}))(?![\w.])")


def ranges(text: str) -> set[str]:
    """The digit ranges and bounds a text names, written one way ("1–90" and "1 - 90"
    alike)."""
    out = set()
    for m in _RANGE.finditer(text):
        out.add(f"{m.group(1)}-{m.group(2)}" if m.group(1) else re.sub(r"\s", "", m.group(3)))
    return out


def header_words(text: str) -> set[str]:
    """What names a column: its header's content words and digit ranges."""
    return set(terms(text)) | ranges(text)


def known(word: str, asked: set[str]) -> bool:
    return word in asked or (len(word) >= 3 and any(a.startswith(word) for a in asked))


@dataclass
class RowMatch:
    row: Row
    score: float  # 0..1
    runner_up: float  # the next best row's score (a tie: equal)
    rival: Row | None = None  # the next best row when it ties


def row_score(row: Row, asked: set[str]) -> float:
    own = set(terms(row.label))
    context = own | set(terms(row.parent))
    if not asked or not context:
        return 0.0
    precision = sum(known(w, asked) for w in own) / len(own) if own else 0.5
    recall = sum(known(w, context) for w in asked) / len(asked)
    if precision == 0 or recall == 0:
        return 0.0
    # what the label says itself counts a little over what its section says: "Total
    # current tax expense" over a "Total" row under "Current tax expense:"
    own_recall = sum(known(w, own) for w in asked) / len(asked)
    return (1 - OWN) * _f1(precision, recall) + OWN * _f1(precision, own_recall)


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def best_row(
    frame: Frame,
    phrase: str,
    columns: list[int],
    skip: set[int] | None = None,  # id() of rows already taken
    described: bool = False,
) -> RowMatch | None:
    """The row the phrase names best among rows with a figure in every column wanted."""
    asked = set(terms(phrase)) - column_terms(frame, columns)
    if described:  # a lookup: what the table's own description says ("operating
        # revenues" over a table of them) names the table, not one of its rows
        asked = (asked - described_terms(frame)) or asked
    scored = sorted(
        (
            (row_score(r, asked), r)
            for r in frame.rows
            if all(k in r.figures for k in columns) and id(r) not in (skip or set())
        ),
        key=lambda s: -s[0],
    )
    if not scored or scored[0][0] <= 0:
        return None
    # the same label printed twice with the same figures is one row, not a tie
    top, row = scored[0]
    same = [row.figures.get(k) for k in columns]
    others = [(s, r) for s, r in scored[1:] if [r.figures.get(k) for k in columns] != same]
    if not others:
        return RowMatch(row, top, 0.0)
    tie = others[0][1] if others[0][0] >= top - 1e-9 else None
    return RowMatch(row, top, others[0][0], tie)


def described_terms(frame: Frame) -> set[str]:
    """The words of what the table measures: its caption, the header over its row labels
    and the sentence introducing it."""
    return set(terms(f"{frame.view.caption} {frame.view.columns[0]} {frame.context}"))


def column_terms(frame: Frame, columns: list[int]) -> set[str]:
    headers = {c.index: c.header for c in frame.columns}
    return {t for k in columns for t in terms(headers.get(k, ""))}


def time_key(header: str, years: list[int]) -> tuple[int, int, int]:
    """(year, month, day) a column's header names, for ordering periods; 0 where unknown.
    Quarters count as their last month ("second quarter": 6)."""
    low = header.lower()
    month = next((i + 1 for i, m in enumerate(_MONTHS) if re.search(rf"\b{m}", low)), 0)
    if not month:
        q = re.search(r"\bq([1-4])\b|\b(first|second|third|fourth)\b", low)
        if q:
            month = 3 * (int(q.group(1)) if q.group(1) else _ORDINALS.index(q.group(2)) + 1)
    day = re.search(r"\b([0-3]?\d)\b(?!\d)", re.sub(r"(?:19|20)\d\d", "", low))
    return (max(years) if years else 0, month, int(day.group(1)) if day else 0)


@dataclass
class ColumnPick:
    columns: list[Column]  # in time order, earliest first, when the periods are known
    how: str  # "named" (the question names them) / "headers" (by words) / "default"
    ambiguous: bool  # another column would do as well


def preferred(frame: Frame, ask: Ask, candidates: list[Column]) -> list[Column]:
    """Of columns for one period, those holding percentages when the question asks for
    a percentage figure (not a percentage change), else those holding amounts."""
    wants = ask.percent and ask.operation not in ("pct_change", "share")
    fitting = [c for c in candidates if c.percent == wants]
    return fitting or candidates


def pick_columns(frame: Frame, ask: Ask) -> ColumnPick | None:
    """The value columns a one-row operation reads (distinct, earliest first)."""
    single = [c for c in frame.columns if len(c.years) == 1]
    if len(ask.periods) == 1:  # "between the first and second quarter of 2019"
        within = [c for c in frame.columns if c.years == [ask.periods[0].year]]
        by_words = named_by_headers(within, ask)
        if len(by_words) >= 2:
            return ColumnPick(_ordered(by_words), "named", False)
        return _with_year_before(frame, ask, single)
    if ask.periods:
        picked, ambiguous = [], False
        years = [p.year for p in ask.periods]
        # "from 2017 to 2019": every year between for a total or an average; a change
        # runs from the first to the last
        if ask.span and len(years) == 2 and ask.operation not in _ENDPOINTS:
            low, high = min(years), max(years)
            years = sorted({y for c in single for y in c.years if low <= y <= high})
        for year in years:
            fits = preferred(frame, ask, [c for c in single if c.years == [year]])
            if not fits:
                return None
            if len(fits) > 1:  # several columns of the year: the one the words name
                fits = named_by_headers(fits, ask) or fits
            ambiguous |= len(fits) > 1
            picked.append(fits[0])
        return ColumnPick(_ordered(picked), "named", ambiguous)
    by_words = named_by_headers(frame.columns, ask)
    if len(by_words) >= 2:
        if not any(c.years for c in by_words):  # not periods: as the question names them
            return ColumnPick(_by_mention(by_words, ask.text), "headers", False)
        return ColumnPick(_ordered(by_words), "headers", False)
    years = sorted({c.years[0] for c in single})
    if len(years) < 2:
        return None
    picked = [preferred(frame, ask, [c for c in single if c.years == [y]])[0] for y in years]
    ambiguous = any(len([c for c in single if c.years == [y]]) > 1 for y in years)
    return ColumnPick(_ordered(picked), "default", ambiguous)


def _with_year_before(frame: Frame, ask: Ask, single: list[Column]) -> ColumnPick | None:
    """An average "in 2019" of a table of years: over the year named and the one before it
    (a year's average balance is over its opening and closing figures). A change "in 2019"
    is not read so: measured on both halves of the TAT-QA pool it lost more answers the
    text states than it gained (docs/benchmarks.md, fifth session)."""
    if ask.operation != "average" or find(ask.text, ("measure",)):
        return None  # "the weighted average price in 2019" is printed, not computed
    year = ask.periods[0].year
    picked, ambiguous = [], False
    for wanted in (year - 1, year):
        fits = preferred(frame, ask, [c for c in single if c.years == [wanted]])
        if not fits:
            return None
        ambiguous |= len(fits) > 1
        picked.append(fits[0])
    return ColumnPick(picked, "named", ambiguous)


def named_by_headers(columns: list[Column], ask: Ask) -> list[Column]:
    """Columns whose header has a word (not a year) the question uses that the other
    columns' headers lack ("first quarter", "second quarter")."""
    if len(columns) < 2:
        return []
    asked = header_words(ask.text)
    own = [header_words(c.header) for c in columns]
    shared = set.intersection(*own)
    used = [(words - shared) & asked for words in own]
    most = max(
        len(u) for u in used
    )  # "total expected" names "Total Expected" over "Remaining Expected"
    picked = [(c, u) for c, u in zip(columns, used, strict=True) if most and len(u) == most]
    if len(picked) > 1 and len({frozenset(u) for _, u in picked}) < len(picked):
        return []  # one word over many columns ("gold" over four settings) names none of them
    return [c for c, _ in picked]


def _by_mention(columns: list[Column], text: str) -> list[Column]:
    """Columns in the order the question first names a word of their headers."""
    spots: list[tuple[int, str]] = [(m.start(), w) for m in _RANGE.finditer(text)
                                    for w in ranges(m.group(0))]  # fmt: skip
    spots += [(m.start(), stem(m.group(0).lower())) for m in re.finditer(r"\w+", text)]

    def first(column: Column) -> int:
        own = header_words(column.header)
        return min((at for at, w in spots if w in own), default=len(text))

    return sorted(columns, key=first)


def _ordered(columns: list[Column]) -> list[Column]:
    keys = [time_key(c.header, c.years) for c in columns]
    if all(k != (0, 0, 0) for k in keys) and len(set(keys)) == len(keys):
        return [c for _, c in sorted(zip(keys, columns, strict=True), key=lambda p: p[0])]
    return columns
