"""Compare papers: an aspect x paper table of cited cells and a key-differences paragraph.

A cell is a short value that occurs verbatim in its quote, or "not stated". The
differences paragraph is written by code from the cells alone, each sentence citing the
cells it names, so nothing in it lacks an address.
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.agent.aspects import Paper, find_aspect, parse_aspects
from citewise.agent.extract_model import model_finding
from citewise.agent.extraction import NOT_STATED, Finding, merged_value
from citewise.agent.gazetteer import Gazetteer
from citewise.agent.matrix_cells import whole_phrase
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


def differences(aspects: list[str], cells: list[Cell]) -> list[Difference]:
    """One sentence per aspect where the papers differ, built only from the cells."""
    out = []
    for aspect in aspects:
        row = [c for c in cells if c.aspect == aspect]
        stated = [c for c in row if c.finding]
        if not stated:
            continue
        values = {c.value.lower() for c in stated}
        silent = [c.document for c in row if not c.finding]
        if len(values) == 1 and not silent:
            continue  # the papers agree
        text = f"On {aspect}, " + "; ".join(_cite(c) for c in stated)
        if silent:
            text += "; " + ", ".join(silent) + (" does" if len(silent) == 1 else " do")
            text += " not state it"
        out.append(Difference(text + ".", tuple(c.finding.block_id for c in stated if c.finding)))
    return out


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
