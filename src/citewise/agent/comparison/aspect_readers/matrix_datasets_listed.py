"""Lists of data in one sentence, for the datasets cell: "the Alpha [cite] and Beta [cite]
datasets", "experiments on two corpora (Alpha and Beta-2)". A list names the data beside a
name the other readings (matrix_datasets.py, the gazetteer) found, so the cell that name fills
names the whole list; it never fills a cell alone."""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_datasets import COUNTED_HEAD
from citewise.agent.comparison.extraction import PLACEHOLDER_KINDS, Finding, Unit
from citewise.agent.comparison.gazetteer import NAME, PLACEHOLDER, is_name

__all__ = ["LIST_EDGE", "listed_beside"]

# the data words of matrix_datasets.py
_DATA_WORD = r"(?:datasets?|data ?sets?|corpus|corpora|benchmarks?|treebanks?)"
# the same list in brackets: "experiments on two corpora (A and B)", "3 datasets (A, B and C)"
_BRACKETED = re.compile(rf"{COUNTED_HEAD}{_DATA_WORD}\s*\((?P<v>[^()]{{3,200}})\)", re.I)
# a name that opens with a digit, hyphenated: "20bn-jester-v1"
_DIGIT_NAME = r"\d+[a-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+"
_LIST_TOKEN = re.compile(rf"(?<![\w-])(?:{NAME}|{_DIGIT_NAME})(?![\w-])")
# names joined before one plural data word: "the Alpha [cite] and larger Beta [cite] datasets",
# "the A, B and C corpora" (a word of kind after a name, "the Alpha birds and Beta datasets", and
# up to two words before the last name are skipped)
_ITEM = rf"{NAME}(?:\s+(?!(?:{PLACEHOLDER_KINDS})\d)(?:{NAME}|\d{{4}})){{0,2}}"
_ITEM_END = r"(?:\s+[a-z]+)?(?:\s*,?\s*\(?BIBREF\d+(?:\s*,\s*BIBREF\d+)*\)?)?"
_COORDINATED = re.compile(
    rf"(?<![\w-])(?P<v>{_ITEM}{_ITEM_END}(?:\s*,\s*(?:the\s+)?{_ITEM}{_ITEM_END})*\s*,?\s+and\s+"
    rf"(?:the\s+)?(?:[a-z-]+\s+){{0,2}}?{_ITEM}{_ITEM_END})\s+"
    r"(?:datasets|data\s+sets|corpora|benchmarks|treebanks)\b"
)
_ITEM_TOKEN = re.compile(rf"(?<![\w-]){_ITEM}(?![\w-])")


def listed_beside(found: list[Finding], paper_units: list[Unit]) -> list[Finding]:
    """The names of a list of data in one sentence, "the Alpha [cite] and Beta [cite] datasets",
    "two corpora (Alpha and Beta-2)", where `found` already holds one of them: each scored just
    above the best finding of a name the list holds, so the cell that name fills is the list.
    A list none of whose names was read elsewhere is left out: it never outranks the data the
    paper's other readings chose (a training corpus over the corpora it is evaluated on)."""
    best: dict[str, float] = {}
    for f in found:
        best[f.value] = max(best.get(f.value, f.score), f.score)
    out = []
    for unit in paper_units:
        if unit.kind == "table":
            continue
        items = [
            t.group()
            for m in _BRACKETED.finditer(unit.text)
            for t in _LIST_TOKEN.finditer(m.group("v"))
        ] + [
            t.group()
            for m in _COORDINATED.finditer(unit.text)
            for t in _ITEM_TOKEN.finditer(m.group("v"))
        ]
        names = [n for n in items if _names_data(n)]
        known = [best[n] for n in names if n in best]
        if len(names) > 1 and known:
            out += [_finding(unit, n, max(known) + LIST_EDGE) for n in names]
    return out


# an edition of a one-word name: "Yelp 2013", "DUC 2004" (the word alone may be too short or
# plain to pass as a name: "Yelp")
_EDITION = re.compile(r"[A-Z][a-z]+\s+(?:19|20)\d\d")


def _names_data(item: str) -> bool:
    """Whether a list item is a name: its first word one, or a word with its year."""
    if PLACEHOLDER.match(item):
        return False
    return is_name(item.split()[0], "datasets") or _EDITION.fullmatch(item) is not None


LIST_EDGE = 0.01  # a list holding a name read elsewhere fills that name's cell


def _finding(unit: Unit, value: str, score: float) -> Finding:
    return Finding("datasets", value, unit.text, unit.page, unit.block_id, unit.section, score)
