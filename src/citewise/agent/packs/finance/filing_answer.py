"""Questions about a company's figures for a fiscal period, answered from its filing's
statement pages: a line item ("FY2018 capital expenditure") as a cited cell, a metric
("working capital ratio", a definition the question gives, a 3-year average, a CAGR) as a
computed sentence whose every operand is a cited line item."""

from __future__ import annotations

import re
from collections import OrderedDict

from citewise.agent.numeric.computed import Computation
from citewise.agent.numeric.numbers import WORDS, format_number, scale_of
from citewise.agent.packs.finance.definitions import item_named, metric_formula
from citewise.agent.packs.finance.filing_scope import written_names
from citewise.agent.packs.finance.filings import filings_of, pick_filing
from citewise.agent.packs.finance.financial import (
    Builder,
    Lookup,
    Missing,
    computation,
    given_formula,
)
from citewise.agent.packs.finance.statements import StatementPage, question_years, read_pages
from citewise.regex import lazy
from citewise.retrieval.terms import STOPWORDS, stem
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

_PAGES_CACHE: OrderedDict[tuple[str, str], list[StatementPage]] = OrderedDict()
_ROUND = lazy(r"round(?:ed)?(?: your| the)?(?: final)?(?: answer)? to (\w+) decimal", re.I)
_PERCENT = lazy(r"%|\bpercent", re.I)
_N_YEAR_AVERAGE = lazy(r"\b(\w+)[ -]year average\b", re.I)
_CAGR = lazy(r"\bcagr\b|compound annual growth", re.I)
_CHANGE = lazy(r"\b(change[ds]?|grow(?:th)?|grew|increase[ds]?|decrease[ds]?|decline[ds]?)\b", re.I)
_SHARE_OF = lazy(r"([a-z ,&]+?) as a (?:%|percent(?:age)?) of ([a-z ,&]+)", re.I)
# "What share of total net sales did the F-35 program generate": a part of the item is asked.
_PART_OF = lazy(r"\b(?:share|percentage|proportion|portion|fraction|percent|part)s? of\b", re.I)
# Words after a line's name that still ask for the line itself ("net sales amount in 2018").
_SAME_LINE = frozenset(
    """fy fiscal year years amount amounts figure figures value values total balance line item
    usd dollars millions billions thousands reported""".split()
)


def statement_pages(store: Store, doc_id: str, sha: str) -> list[StatementPage]:
    key = (doc_id, sha)
    if key not in _PAGES_CACHE:
        _PAGES_CACHE[key] = read_pages(store.blocks(doc_id))
        while len(_PAGES_CACHE) > 8:
            _PAGES_CACHE.popitem(last=False)
    return _PAGES_CACHE[key]


def decimals_asked(question: str) -> int | None:
    m = _ROUND.search(question)
    if not m:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else int(WORDS.get(word, 2))


def _years(question: str) -> tuple[int, list[int]]:
    """The fiscal year asked about, and every year a multi-year average spans."""
    years = question_years(question)
    latest = max(years)
    m = _N_YEAR_AVERAGE.search(question)
    if m and len(years) >= 2:
        return latest, list(range(min(years), latest + 1))
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else int(WORDS.get(m.group(1).lower(), 1))
        return latest, list(range(latest - n + 1, latest + 1))
    return latest, [latest]


def _cagr(question: str, lookup: Lookup) -> Computation | None:
    """Compound annual growth of the line item named before "CAGR", first to last year."""
    years = question_years(question)
    item = item_named(_CAGR.split(question)[0]) or item_named(question)
    if item is None or len(years) < 2:
        return None
    start, end = min(years), max(years)
    builder = Builder(lookup, [])
    last, first = builder.figure(item, end), builder.figure(item, start)
    expression = f"(({last} / {first}) ** (1 / {end - start}) - 1) * 100"
    definition = "(end / start)^(1 / years) − 1"
    return Computation(f"{item} CAGR FY{start}–FY{end}", expression, builder.operands, None,
                       "%", definition)  # fmt: skip


def _change(question: str, lookup: Lookup) -> Computation | None:
    """Change of a line item between the two years named: in % when asked for a rate."""
    years = question_years(question)
    item = item_named(question)
    if item is None or len(years) != 2:
        return None
    old, new = min(years), max(years)
    builder = Builder(lookup, [])
    now, before = builder.figure(item, new), builder.figure(item, old)
    percent = bool(_PERCENT.search(question) or re.search(r"\brate\b", question, re.I))
    expression = f"({now} - {before}) / {before} * 100" if percent else f"{now} - {before}"
    what = f"{item} change FY{old}–FY{new}"
    return Computation(what, expression, builder.operands, None, "%" if percent else "")


def _line_named(question: str, year: int, lookup: Lookup) -> Computation | None:
    """A line item no standard name covers, named in full by the question."""
    line = lookup.by_words(question, year)
    if line is None or names_another_measure(question, line.label):
        return None
    builder = Builder(lookup, [])
    name = builder.line_figure(line, line.label, year)
    return Computation(f"FY{year} {line.label}", name, builder.operands)


def names_another_measure(question: str, label: str) -> bool:
    """The question writes the line's name before another noun ("Defense, Space & Security
    backlog"): the name says whose figure, the noun after it what figure is asked."""
    asked = [stem(w) for w in re.findall(r"[a-z0-9&]+", question.lower())]
    own = [stem(w) for w in re.findall(r"[a-z0-9&]+", label.lower())]
    if not own or own[-1] not in asked:
        return False
    at = len(asked) - 1 - asked[::-1].index(own[-1])
    after = asked[at + 1] if at + 1 < len(asked) else ""
    return after.isalpha() and after not in STOPWORDS and after not in _SAME_LINE


def metric(question: str, lookup: Lookup) -> Computation | None:
    """The computation the question asks for, from the first rule that applies: a
    definition it gives, a standard metric, "X as a % of Y", a CAGR, one line item."""
    year, years = _years(question)
    given = given_formula(question)
    standard = metric_formula(question)
    share = _SHARE_OF.search(question)
    what = f"FY{year}"
    if given is not None:
        formula, definition = given
        percent = bool(_PERCENT.search(question)) and "/" in formula and "100" not in formula
        formula = f"({formula}) * 100" if percent else formula
        return computation(what, formula, years, lookup, definition, percent)
    if standard is not None:
        formula, definition, percent, name = standard
        return computation(f"{what} {name}", formula, years, lookup, definition, percent)
    if _CAGR.search(question):
        found = _cagr(question, lookup)
        return found if found else None
    if _CHANGE.search(question) and len(question_years(question)) == 2:
        return _change(question, lookup)
    if share and item_named(share.group(1)) and item_named(share.group(2)):
        part, whole = item_named(share.group(1)), item_named(share.group(2))
        formula = f"{part} / {whole} * 100"
        return computation(what, formula, years, lookup, f"{part} / {whole}", True)
    if _PART_OF.search(question):
        return None  # a part of a line item (its share), which no statement line states
    item = item_named(question)
    if item is None:
        return _line_named(question, year, lookup) if len(years) == 1 else None
    return computation(f"FY{year} {item}", item, years, lookup, "", False)


def finish(comp: Computation, question: str) -> Computation:
    """Scale and precision as asked: "in USD billions" from a statement in millions."""
    comp.decimals = decimals_asked(question)
    asked = scale_of(question)
    printed = comp.operands[0].scale if comp.operands else 1.0
    amount = "/" not in comp.expression
    if amount and asked > 1 and printed > 1 and asked != printed:
        comp.divisor = asked / printed
        comp.notes.append(f"in {_scale_word(asked)}")
        comp.decimals = 2 if comp.decimals is None else comp.decimals
    elif amount and printed > 1:
        comp.notes.append(f"in {_scale_word(printed)}")
    if comp.decimals is None:
        comp.decimals = 1 if comp.unit == "%" else (0 if amount else 2)
    return comp


def _scale_word(scale: float) -> str:
    return {1e3: "thousands", 1e6: "millions", 1e9: "billions"}.get(scale, format_number(scale))


def filing_computation(
    question: str, store: Store
) -> tuple[Computation, dict[str, StoredBlock]] | Missing | None:
    """The cited computation for a question about a filing's figures with the blocks its
    operands cite; Missing when a figure it needs is not on the statement pages; None when
    it is not such a question."""
    if not question_years(question):
        return None
    filing = pick_filing(question, written_names(question), filings_of(store))
    if filing is None:
        return None
    doc = filing.document
    pages = statement_pages(store, doc.id, doc.sha256)
    if not any(p.kind for p in pages):
        return None  # not a filing: no balance sheet, income or cash flow statement
    try:
        result = metric(question, Lookup(pages))
    except Missing as missing:
        return missing
    if result is None or not result.operands:
        return None
    blocks = {item.block.id: item.block for page in pages for item in page.items}
    return finish(result, question), blocks
