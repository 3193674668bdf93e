"""What a question about a table's figures asks: the operation its words name, the periods
(years, fiscal years) it names in order, the phrase left to name the row (or the two
phrases of a two-row operation), a comparison or a count's condition, and the rounding.

Read once, in the understand step: `Question.table` (agent/ask/question.py) is this reading,
and the table proposer's handlers (agent/numeric/tables/) take it instead of the question's
text. Pure functions over the question text; the words come from
`agent/data/table_words.tsv` (agent/ask/table_words.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.agent.ask.table_words import (
    COMPARISONS,
    CONDITIONS,
    JOINED,
    OPERATIONS,
    find,
    is_filler,
    joins,
)
from citewise.retrieval.terms import stem

# A period a question names: "2019", "FY19", "F18", "fiscal 2018", "2018/2019"
_PERIOD = re.compile(
    r"\b(?:(?:fiscal\s+(?:year\s+)?|FY\s?)?((?:19|20)\d\d)|FY\s?(\d\d)|F(\d\d))"
    r"(?:\s*/\s*((?:19|20)?\d\d))?\b",
    re.I,
)
_FIGURE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_RANGE = re.compile(r"\b((?:19|20)\d\d)\s*(?:-|–|to|through)\s*((?:19|20)\d\d)\b")
_PERCENT = re.compile(r"%|\bpercent(?:age)?s?\b|\bper cent\b", re.I)
_WHICH_PERIOD = re.compile(
    r"\b(?:which|what)\s+(?:(?:are|were)\s+the\s+)?(?:of\s+the\s+)?(?:financial\s+|fiscal\s+)?"
    r"(?:year|period|quarter)s?(?:'|\b)",
    re.I,
)
# "total" before the name of what is totalled, not "the total of A and B"
_ROW_TOTAL = re.compile(r"total\s+(?!of\b|for\b|in\b|amount\b)\w", re.I)
_HOW_MANY = re.compile(r"\bhow many\b", re.I)
_DECIMALS = re.compile(r"\b(?:to|in)\s+(\w+)\s+decimal", re.I)
_WHOLE = re.compile(r"\b(?:nearest|whole)\s+(?:whole\s+)?(?:number|integer|percent)\b", re.I)
# operations over rows a question names: two joined ones, or an average of those it lists
_LISTS = (*JOINED, "average")
_WORD_DIGITS = {"one": 1, "two": 2, "three": 3, "four": 4, "1": 1, "2": 2, "3": 3, "4": 4}


@dataclass
class Period:
    """A period the question names: its text, the year it ends in (sort key)."""

    text: str
    year: int
    start: int


@dataclass
class Ask:
    """The analysed question."""

    text: str
    operation: str | None  # one of lexicon.OPERATIONS, or None
    operation_words: str = ""
    comparison: str | None = None  # "more" / "less": which period or row is larger
    condition: str | None = None  # "above" / "below" a threshold (counts)
    threshold: float | None = None
    periods: list[Period] = field(default_factory=list)
    span: bool = False  # "2017-2019": every period in between counts
    phrase: str = ""  # what names the row(s)
    parts: list[tuple[str, str]] = field(default_factory=list)  # two-row readings
    # the same readings with each side split into the rows it lists ("A, B and C")
    groups: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    names: tuple[str, ...] = ()  # the rows the phrase lists ("net sales of A and B")
    percent: bool = False  # the question asks for a percentage
    decimals: int = 2
    asks_period: bool = False  # "in which year ...": the answer is a column
    counts: bool = False  # "how many years ...": the answer is a count
    compound: bool = False  # names two operations ("the change in the average ...")
    named: tuple[str, ...] = ()  # every operation the question names, in its order
    reason: bool = False  # asks why or how (prose), not for a figure
    made_of: bool = False  # asks for the rows that make up a row ("components of X")
    how_many: bool = False
    threshold_percent: bool = False  # "exceed 20%": compared with percentages only
    shows: bool = False  # "what does the table show": the table's description is asked
    rows_noun: str | None = None  # "what are the regions ...": the plural asked to be listed
    in_table: bool = False  # "... in the table": points at a table


def _year(digits: str) -> int:
    return int(digits) if len(digits) == 4 else 2000 + int(digits[-2:])


def periods(text: str) -> list[Period]:
    """The periods named, in question order (one per distinct year); "2018/2019" is the
    fiscal year ending in 2019."""
    out: list[Period] = []
    for m in _PERIOD.finditer(text):
        digits = m.group(4) or m.group(1) or m.group(2) or m.group(3)
        year = _year(digits)
        if any(p.year == year for p in out):
            continue
        out.append(Period(m.group(0), year, m.start()))
    return out


def _decimals(text: str) -> int:
    if _WHOLE.search(text):
        return 0
    m = _DECIMALS.search(text)
    return _WORD_DIGITS.get(m.group(1).lower(), 2) if m else 2


def _threshold(text: str) -> tuple[float | None, bool]:
    """The figure a count compares with, as written ("$400 million" -> 400: tables print
    their figures in their own unit), and whether it is a percentage ("20%")."""
    for m in _FIGURE.finditer(text):
        if not re.fullmatch(r"(?:19|20)\d\d", m.group(0)):
            after = text[m.end() : m.end() + 9]
            return float(m.group(0).replace(",", "")), bool(_PERCENT.match(after.strip()))
    return None, False


def _strip(text: str, spans: list[tuple[int, int]]) -> str:
    out, last = [], 0
    for a, b in sorted(spans):
        if a >= last:
            out.append(text[last:a])
            last = b
    out.append(text[last:])
    return " ".join(" ".join(out).split())


def read(text: str) -> Ask:
    """The question analysed (no operation, comparison or count: `operation` None)."""
    ops = find(text, OPERATIONS)
    named = periods(text)
    spanned = bool(_RANGE.search(text))
    # the operation named first governs ("the change in the percentage of sales" is a
    # change; "the percentage change in total X" no sum): "total" only when no other is
    # named, for it often names the row ("Total revenue")
    op = next((o for o in ops if o[1] != "sum"), ops[0] if ops else None)
    row_total = op is not None and op[1] == "sum" and bool(_ROW_TOTAL.match(text, op[2]))
    if row_total and len(named) <= 1 and not find(text, ("all_periods",)):
        op = None  # "the total gross emissions for FY18": the row headed "Total ..."
    as_percent = find(text, ("percent_asked", "percent_of"))[:1]
    as_percent = [a for a in as_percent if a[1] == "percent_asked"]
    if op is not None and op[1] == "change" and as_percent:
        op = (op[0], "pct_change", op[2], op[3])  # "by what percentage did X grow"
    comparison = find(text, COMPARISONS)
    condition = find(text, CONDITIONS)
    removed = [(op[2], op[3])] if op else []
    removed += [(a[2], a[3]) for a in as_percent if op is not None and op[1] == "pct_change"]
    removed += [(p.start, p.start + len(p.text)) for p in named]
    removed += [(c[2], c[3]) for c in comparison + condition]
    made_of = find(text, ("parts",))
    removed += [(c[2], c[3]) for c in made_of]
    removed += [(m.start(), m.end()) for m in _FIGURE.finditer(text)]
    phrase = _strip(text, removed).strip(" ?.,;:")
    ask = Ask(
        text,
        op[1] if op else None,
        op[0] if op else "",
        comparison[0][1] if comparison else None,
        condition[0][1] if condition else None,
        _threshold(text)[0] if condition else None,
        named,
        spanned,
        phrase,
        percent=bool(_PERCENT.search(text)),
        decimals=_decimals(text),
        asks_period=bool(_WHICH_PERIOD.search(text)),
        counts=bool(_HOW_MANY.search(text)) and bool(condition),
        compound=len({o[1] for o in ops if o[1] != "sum"}) > 1,
        named=tuple(o[1] for o in ops),
        threshold_percent=_threshold(text)[1] if condition else False,
        reason=bool(find(text, ("reason",))),
        made_of=bool(made_of),
        how_many=bool(_HOW_MANY.search(text)),
        shows=bool(find(text, ("shows",))),
        rows_noun=_rows_noun(text),
        in_table=bool(_IN_TABLE.search(text)),
    )
    ask.names = _listed(phrase, named, ops, _AND)
    if op is not None and op[1] in _LISTS:
        readings = _parts(text, op, named, ops)
        ask.parts = [(_clean(a, named, ops), _clean(b, named, ops)) for a, b in readings]
        ask.groups = [(_listed(a, named, ops), _listed(b, named, ops)) for a, b in readings]
    return ask


# "What are the (geographic) regions ...", "Which segments ...": the plural the question
# asks to be listed, among its first words
_ASKS_ROWS = re.compile(
    r"^\s*(?:what|which)\s+(?:are|were)\s+the\s+((?:[a-z-]+\s+){0,2}?[a-z-]+s)\b"
    r"|^\s*which\s+((?:[a-z-]+\s+){0,2}?[a-z-]+s)\s+(?:are|were)\b",
    re.I,
)
_IN_TABLE = re.compile(r"\b(?:in|of|from)\s+the\s+table\b", re.I)


def _rows_noun(text: str) -> str | None:
    """The plural noun (stemmed) a question opens by asking to be named, if any."""
    m = _ASKS_ROWS.search(text)
    if m is None:
        return None
    return stem((m.group(1) or m.group(2)).split()[-1].lower())


def _parts(
    text: str,
    op: tuple[str, str, int, int],
    named: list[Period],
    ops: list[tuple[str, str, int, int]],
) -> list[tuple[str, str]]:
    """The ways to read two row phrases (as written) out of "A as a percentage of B", "ratio
    of A to B", "difference between A and B", "sum of A and B" (each place the joining word
    stands); [] when the joint separates periods only ("between 2018 and 2019")."""
    if op[1] == "share" and op[2] > 0:
        head, tail = text[: op[2]], text[op[3] :]
        cleaned = _clean(head, named, ops).lower().removeprefix("total").strip()
        if cleaned and _clean(tail, named, ops):  # "A as a percentage of B"
            return [(head, tail)]
    after = text[op[3] :]
    between = re.search(r"\bbetween\b", after, re.I)
    if between:
        after = after[between.end() :]
    out: list[tuple[str, str]] = []
    for m in joins(op[1]).finditer(after):
        first, second = after[: m.start()], after[m.end() :]
        if _clean(first, named, ops) and _clean(second, named, ops):
            out.append((first, second))
    return out


# where a list of row names divides: a comma (not a date's, "June 30, 2019") or "and"
_LIST = re.compile(r"\s*,(?!\s*\d)\s*(?:and\s+)?|\s+and\s+", re.I)
_AND = re.compile(r"\s+and\s+", re.I)  # a row's name may hold a comma ("Receivables, net")


def _listed(
    text: str,
    named: list[Period],
    ops: list[tuple[str, str, int, int]],
    divides: re.Pattern[str] = _LIST,
) -> tuple[str, ...]:
    """The names a side of a joined operation lists ("Taiwan and Japan", "A, B and C"),
    each cleaned; one name when it lists none. Whether the split is right (or "and" is
    inside one row's name, "Research and development") is the table's to say."""
    pieces = [_clean(p, named, ops) for p in divides.split(text)]
    return tuple(p for p in pieces if p)


def _clean(text: str, named: list[Period], ops: list[tuple[str, str, int, int]]) -> str:
    for p in named:
        text = text.replace(p.text, " ")
    for o in ops:
        if o[1] != "sum":  # "total" may name the row
            text = text.replace(o[0], " ")
    words = [w for w in re.split(r"\s+", text) if w]
    kept = [w for w in words if not is_filler(re.sub(r"[^\w']", "", w))]
    return " ".join(kept).strip(" ?.,;:")
