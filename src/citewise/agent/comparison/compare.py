"""Compare papers: an aspect x paper table of cited cells and a key-differences paragraph.

A cell is a short value that occurs verbatim in its quote, or "not stated". The
differences paragraph is written by code from the cells alone, each sentence citing the
cells it names, so nothing in it lacks an address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.comparison.aspect_readers.matrix_cells import whole_phrase
from citewise.agent.comparison.aspects import Paper, find_aspect, parse_aspects
from citewise.agent.comparison.extract_model import model_finding
from citewise.agent.comparison.extraction import NOT_STATED, Finding, merged_value
from citewise.agent.comparison.gazetteer import Gazetteer
from citewise.llm.client import ModelClient

DEFAULT_ASPECTS = ("task", "method", "datasets", "metrics", "main result", "limitations")
CELL_CANDIDATES = 4


@dataclass(frozen=True)
class Cell:
    """One paper's value for one aspect, with its citation; finding None = not stated."""

    document: str
    aspect: str
    finding: Finding | None

    @property
    def value(self) -> str:
        return self.finding.shown if self.finding else NOT_STATED

    @property
    def stated(self) -> bool:
        return self.finding is not None

    def to_dict(self) -> dict[str, object]:
        """The cell with its page, quote and block flat and its `citation` nested (the
        tool registry's shape), for every face that shows a compared or matrix cell."""
        f = self.finding
        return {
            "document": self.document,
            "aspect": self.aspect,
            "value": self.value,
            "stated": self.stated,
            "page": f.page if f else None,
            "quote": f.quote if f else None,
            "block": f.block_id if f else None,
            "citation": _citation(self),
        }


def cell_for(
    paper: Paper, aspect: str, gazetteer: Gazetteer, model: ModelClient | None = None
) -> Cell:
    """Deterministic first; the `extract` model only where the patterns found nothing."""
    finding = merged_value(find_aspect(aspect, paper, gazetteer, CELL_CANDIDATES))
    if finding is None and model is not None:
        finding = model_finding(model, aspect, paper.units)
    return Cell(paper.document.id, aspect, whole_phrase(finding) if finding else None)


@dataclass(frozen=True)
class Difference:
    """A sentence of the key-differences paragraph and the cells (block IDs) it cites."""

    text: str
    citations: tuple[str, ...]


@dataclass(frozen=True)
class Comparison:
    documents: tuple[tuple[str, str], ...]  # (id, title)
    aspects: tuple[str, ...]
    cells: tuple[Cell, ...]
    differences: tuple[Difference, ...]

    def cell(self, aspect: str, document: str) -> Cell:
        return next(c for c in self.cells if c.aspect == aspect and c.document == document)

    @property
    def key_differences(self) -> str:
        return " ".join(d.text for d in self.differences)

    def to_dict(self) -> dict[str, object]:
        return {
            "documents": [{"id": i, "title": t} for i, t in self.documents],
            "aspects": list(self.aspects),
            "cells": [c.to_dict() for c in self.cells],
            "key_differences": self.key_differences,
            "differences": [
                {"text": d.text, "citations": list(d.citations)} for d in self.differences
            ],
        }


def _citation(cell: Cell) -> dict[str, object] | None:
    f = cell.finding
    if f is None:
        return None
    return {"document": cell.document, "page": f.page, "block": f.block_id, "quote": f.quote}


def _cite(cell: Cell) -> str:
    assert cell.finding is not None
    return f"{cell.document} states “{cell.value}” (p. {cell.finding.page})"


# Aspects whose cells are names the papers share or not, and aspects whose cells are prose:
# a sentence cannot be compared to another, so only who states it differs.
LISTED = ("datasets", "metrics", "model", "baselines", "software", "hardware", "splits")
PROSE = ("task", "method", "main result", "limitations")
# items of a names cell; a comma between digits ("33,708 tweets") separates thousands, not names
_ITEMS = re.compile(r"\s*(?:(?<!\d),|,(?!\d)|;|/|\band\b|\bor\b|\bwhile\b|\bwhereas\b)\s*")
_VERSION = re.compile(r"\s+v?\d+(?:\.\d+)+$")
_MARKERS = re.compile(r"\bBIBREF\d+|\[\d[^\]]*\]|[()]")  # citation markers, brackets


def differences(aspects: list[str], cells: list[Cell]) -> list[Difference]:
    """One sentence per aspect where the papers differ, built only from the cells: for names,
    what they share and what only one uses; for settings, each paper's value; for prose, who
    does not state it. Nothing where they agree."""
    out = []
    for aspect in aspects:
        row = [c for c in cells if c.aspect == aspect]
        stated = [c for c in row if c.finding]
        silent = [c.document for c in row if not c.finding]
        if not stated:
            continue
        if aspect in LISTED and len(stated) > 1:
            text = _shared_and_own(aspect, stated)
        elif aspect in PROSE:
            text = f"On {aspect}, only " + "; ".join(_cite(c) for c in stated) if silent else ""
        elif len({c.value.lower() for c in stated}) > 1 or silent:
            text = f"On {aspect}, " + _values_compared(stated)
        else:
            text = ""  # the papers agree
        if not text:
            continue
        if silent:
            text += "; " + ", ".join(silent) + (" does" if len(silent) == 1 else " do")
            text += " not state it"
        out.append(Difference(text + ".", tuple(c.finding.block_id for c in stated if c.finding)))
    return out


_ONE_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)?(?:e-?\d+)?)\s*$", re.I)


def _values_compared(stated: list[Cell]) -> str:
    """What the papers' values of one setting say together: the papers sharing a value named
    once ('kelp and tides both state “Adam”'), single numbers in order with how far apart they
    are ('2e-5 (kelp, p. 3) < 3e-4 (tides, p. 5): the highest is 15 times the lowest'), else
    each paper's value."""
    groups: dict[str, list[Cell]] = {}
    for c in stated:
        groups.setdefault(c.value.lower(), []).append(c)
    numbers = {k: float(m.group(1)) for k in groups if (m := _ONE_NUMBER.match(k))}
    if len(groups) > 1 and len(numbers) == len(groups):
        ranked = sorted(groups, key=lambda k: numbers[k])
        low, high = numbers[ranked[0]], numbers[ranked[-1]]
        shown = " < ".join(_numbered(groups[k]) for k in ranked)
        if low > 0 and high / low >= 1.05:
            shown += f": the highest is {_times(high / low)} the lowest"
        return shown
    return "; ".join(_group_value(g) for g in groups.values())


def _group_value(cells: list[Cell]) -> str:
    docs = [c.document for c in cells]
    pages = ", ".join(f"p. {c.finding.page}" for c in cells if c.finding)
    if len(cells) == 1:
        return _cite(cells[0])
    every = "both" if len(cells) == 2 else "all"
    return f"{' and '.join(docs)} {every} state “{cells[0].value}” ({pages})"


def _numbered(cells: list[Cell]) -> str:
    """'3e-5 (kelp, p. 3)', '32 (kelp and tides, p. 1, p. 2)'."""
    pages = ", ".join(f"p. {c.finding.page}" for c in cells if c.finding)
    return f"{cells[0].value} ({' and '.join(c.document for c in cells)}, {pages})"


def _times(ratio: float) -> str:
    shown = f"{ratio:.0f}" if ratio >= 10 else f"{ratio:.1f}".removesuffix(".0")
    return f"{shown} times"


def _items(cell: Cell) -> dict[str, str]:
    """A names cell's items, lower case -> as written ('BC5CDR, JNLPBA and SciERC')."""
    parts = _ITEMS.split(_MARKERS.sub(" ", cell.value.removesuffix("…")))
    items = [" ".join(p.split()) for p in parts if p.strip()]
    # one name whatever its version: "PyTorch 0.4.1" and "PyTorch" name the same program
    return {_VERSION.sub("", i).lower(): i for i in items}


def _shared_and_own(aspect: str, stated: list[Cell]) -> str:
    """'On datasets, A and B both name WMT14; only A names Gigaword (p. 3)', or '' when all
    name the same."""
    named: dict[str, list[Cell]] = {}  # item -> the cells naming it, in the papers' order
    written: dict[str, str] = {}
    for c in stated:
        for key, name in _items(c).items():
            named.setdefault(key, []).append(c)
            written.setdefault(key, name)
    if all(len(by) == len(stated) for by in named.values()):
        return ""
    groups: dict[tuple[str, ...], list[str]] = {}
    for key, by in named.items():
        groups.setdefault(tuple(c.document for c in by), []).append(written[key])
    parts = []
    for docs, names in sorted(groups.items(), key=lambda g: -len(g[0])):
        if len(docs) == len(stated):
            every = "both" if len(docs) == 2 else "all"
            parts.append(f"{' and '.join(docs)} {every} name {', '.join(names)}")
        elif len(docs) == 1:
            page = next(c.finding.page for c in stated if c.document == docs[0] and c.finding)
            parts.append(f"only {docs[0]} names {', '.join(names)} (p. {page})")
        else:
            parts.append(f"{' and '.join(docs)} name {', '.join(names)}")
    return f"On {aspect}, " + "; ".join(parts)


def compare_papers(
    papers: list[Paper],
    gazetteer: Gazetteer,
    aspects: list[str] | None = None,
    model: ModelClient | None = None,
) -> Comparison:
    wanted = parse_aspects(",".join(aspects), DEFAULT_ASPECTS) if aspects else list(DEFAULT_ASPECTS)
    cells = [cell_for(p, a, gazetteer, model) for a in wanted for p in papers]
    return Comparison(
        tuple((p.document.id, p.document.title) for p in papers),
        tuple(wanted),
        tuple(cells),
        tuple(differences(wanted, cells)),
    )
