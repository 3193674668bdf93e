"""Questions about a CSV's columns, answered from its schema block or its rows: the range,
the share missing, the type, the number of distinct values, and which row is best on a
column ("which run has the best acc_top1"). The schema and rows are what
documents/formats/tabular.py stores; every answer cites the block it reads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from citewise.agent.numeric.numbers import parse_number
from citewise.regex import lazy
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

_RANGE = lazy(r"\b(range|minimum|maximum|min|max|span|spread)\b", re.I)
_MISSING = lazy(r"\b(missing|null|empty|blank|nan)\b", re.I)
_TYPE = lazy(r"\b(type|dtype|kind of values?)\b", re.I)
_DISTINCT = lazy(r"\b(distinct|unique)\b", re.I)
_BEST = lazy(r"\b(best|highest|largest|top|lowest|smallest|worst|min|max)\b", re.I)
_LOW = {"lowest", "smallest", "min"}
_LOWER_IS_BETTER = lazy(r"(loss|err|error|time|latency|perplexity|ppl)", re.I)
_WHICH = lazy(r"\b(which|what)\b\s+(\w+)", re.I)


@dataclass
class ColumnFact:
    """One fact about a column, with the block and the verbatim text it comes from."""

    column: str
    what: str  # "range", "missing", "type", "distinct", "best"
    value: str
    sentence: str
    block: StoredBlock
    quote: str


def _named_column(question: str, names: list[str]) -> str | None:
    """The column the question names: its exact name, or its words ("acc top1")."""
    lowered = question.lower()
    hits = [
        n
        for n in names
        if re.search(rf"(?<![\w]){re.escape(n.lower())}(?![\w])", lowered)
        or (len(n) > 3 and n.lower().replace("_", " ") in lowered)
    ]
    return max(hits, key=len) if hits else None


def _schema(store: Store, doc: str) -> tuple[StoredBlock, dict[str, Any]] | None:
    for block, data in store.blocks_with_data(doc, ("paragraph",)):
        if block.label == "Schema" and data and data.get("columns"):
            return block, data
    return None


def _describe_quote(block: StoredBlock, column: str) -> str:
    """The column's own description in the schema text ("acc_top1 (number, 0.61 to 0.83)")."""
    m = re.search(rf"{re.escape(column)} \([^)]*\)", block.text)
    return m.group(0) if m else block.text


def schema_fact(question: str, block: StoredBlock, data: dict[str, Any]) -> ColumnFact | None:
    columns = {str(c["name"]): c for c in data["columns"]}
    name = _named_column(question, list(columns))
    if name is None:
        return None
    col = columns[name]
    quote = _describe_quote(block, name)
    where = block.section_path
    if _MISSING.search(question):
        share = f"{float(col['missing']):.0%}"
        return ColumnFact(
            name,
            "missing",
            share,
            f"{share} of {name} values are missing in {where}.",
            block,
            quote,
        )
    if _RANGE.search(question) and col.get("minimum") is not None:
        span = f"{col['minimum']} to {col['maximum']}"
        return ColumnFact(
            name, "range", span, f"{name} ranges from {span} in {where}.", block, quote
        )
    if _DISTINCT.search(question):
        n = str(col["distinct"])
        return ColumnFact(
            name, "distinct", n, f"{name} has {n} distinct values in {where}.", block, quote
        )
    if _TYPE.search(question):
        kind = str(col["type"])
        return ColumnFact(
            name, "type", kind, f"{name} holds {kind} values in {where}.", block, quote
        )
    return None


def best_row(question: str, store: Store, doc: str) -> ColumnFact | None:
    """The row with the best value in the named column, over every row block of the file;
    "best" is the largest unless the column measures a loss, an error or a time."""
    found = _BEST.search(question)
    if not found or not _WHICH.search(question):
        return None
    rows: list[tuple[float, list[str], list[str], StoredBlock]] = []
    name = None
    for block, data in store.blocks_with_data(doc, ("table",)):
        if not data or "columns" not in data or "first_row" not in data:
            continue
        header = [str(h) for h in data["columns"]]
        name = name or _named_column(question, header)
        if name is None or name not in header:
            continue
        k = header.index(name)
        for row in data["rows"]:
            value = parse_number(str(row[k]))
            if value is not None:
                rows.append((value, [str(c) for c in row], header, block))
    if name is None or len(rows) < 2:
        return None
    word = found.group(1).lower()
    low = word in _LOW or (word in ("best", "top") and bool(_LOWER_IS_BETTER.search(name)))
    low = (not low) if word == "worst" else low
    value, row, header, block = (min if low else max)(rows, key=lambda r: r[0])
    if sum(r[0] == value for r in rows) > 1:
        return None  # tied: no one row is best
    label = row[0]
    line = " ".join(c.strip() for c in row)
    quote = next((ln for ln in block.text.splitlines() if ln == line), line)
    shown = row[header.index(name)]
    sentence = f"{label} ({header[0]}) has the {word} {name}: {shown}."
    return ColumnFact(name, "best", label, sentence, block, quote)


def column_fact(question: str, store: Store, docs: list[str]) -> ColumnFact | None:
    """A fact about a column of the first CSV among `docs` that names it. Only a table
    file (documents/formats/tabular.py, document kind "table") has a schema block, so the blocks of
    a PDF are not read for one."""
    for doc in docs:
        stored = store.document(doc)
        if stored is None or stored.kind != "table":
            continue
        schema = _schema(store, doc)
        if schema is None:
            continue
        fact = schema_fact(question, *schema) or best_row(question, store, doc)
        if fact is not None:
            return fact
    return None
