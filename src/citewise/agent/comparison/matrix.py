"""The literature matrix: one row per paper, one cited cell per column, cached in the library.

A rerun computes only the cells the cache lacks (new papers, new columns, changed files);
the gazetteer that names datasets and models is built only when something is computed.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citewise.agent.comparison.aspects import load_paper, parse_aspects
from citewise.agent.comparison.compare import Cell, cell_for
from citewise.agent.comparison.extraction import Finding
from citewise.agent.comparison.gazetteer import Gazetteer
from citewise.agent.comparison.matrix_columns import DEFAULT_COLUMNS as DEFAULT_COLUMNS
from citewise.agent.comparison.settings.matrix_settings import learn_software, software_names
from citewise.llm.client import ModelClient
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredDocument


def extractor_files() -> list[Path]:
    """The files whose text makes a cell: every module of this folder and its subfolders, and
    every file of agent/data (the readers load lists under many names — limitation_words.txt,
    datasets_words.txt, section_roles.yaml —, so a name pattern would miss the next one)."""
    here = Path(__file__).parent
    data = here.parent / "data"
    code = sorted(here.rglob("*.py"))
    lists = sorted(p for p in data.iterdir() if p.is_file())
    return [*code, *lists]


def _extractor_version() -> int:
    """A checksum of the extraction code: when it changes, cached cells are recomputed."""
    text = "".join(p.read_text(encoding="utf-8") for p in extractor_files())
    return zlib.crc32(text.encode())


EXTRACTOR_VERSION = _extractor_version()


@dataclass(frozen=True)
class MatrixRow:
    document: str
    title: str
    year: int | None
    path: str
    cells: tuple[Cell, ...]

    def cell(self, column: str) -> Cell:
        return next(c for c in self.cells if c.aspect == column)

    def to_dict(self) -> dict[str, object]:
        return {
            "document": self.document,
            "title": self.title,
            "year": self.year,
            "path": self.path,
            "cells": {c.aspect: c.to_dict() for c in self.cells},
        }


@dataclass(frozen=True)
class Matrix:
    columns: tuple[str, ...]
    rows: tuple[MatrixRow, ...]
    computed: int  # cells computed in this run
    cached: int  # cells read from the library's cache

    @property
    def fill_rate(self) -> float:
        cells = [c for r in self.rows for c in r.cells]
        return sum(c.stated for c in cells) / len(cells) if cells else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "columns": list(self.columns),
            "rows": [r.to_dict() for r in self.rows],
            "fill_rate": round(self.fill_rate, 3),
            "computed": self.computed,
            "cached": self.cached,
        }


NAMES = "_names"  # the cache row holding a paper's dataset and model names


def cached_gazetteer(store: Store) -> Gazetteer:
    """The library's gazetteer, each paper's names read from the cache when computed before
    (so a comparison in a large library parses only papers it has not seen)."""
    cache = store.matrix_cells
    gazetteer = Gazetteer()
    software: Counter[str] = Counter()
    for doc in store.documents():
        names = cache.cells(doc.id, doc.sha256, EXTRACTOR_VERSION).get(NAMES)
        if names is None:
            own = Gazetteer()
            paper = load_paper(store, doc)
            own.add_units(paper.units)
            own.add_tables(paper.tables)
            names = {kind: sorted(values) for kind, values in own.names.items()}
            names["software"] = sorted(learn_software(paper.units))
            cache.save(doc.id, doc.sha256, EXTRACTOR_VERSION, {NAMES: names})
        software.update(names.get("software", []))
        for kind, values in names.items():
            if kind != "software":
                gazetteer.names.setdefault(kind, set()).update(values)
    others = set().union(*gazetteer.names.values())
    gazetteer.names["software"] = software_names(dict(software), others)
    return gazetteer


def _finding(column: str, data: dict[str, Any] | None) -> Finding | None:
    if not data:
        return None
    return Finding(
        column,
        data["value"],
        data["quote"],
        data["page"],
        data["block"],
        data["section"],
        0.0,
        bool(data.get("cut")),
    )


def build_matrix(
    store: Store,
    docs: list[StoredDocument],
    columns: list[str],
    progress: Callable[[str], None] | None = None,
    model: ModelClient | None = None,
) -> Matrix:
    wanted = parse_aspects(",".join(columns), DEFAULT_COLUMNS)
    # cells a model helped fill are cached apart from the purely extractive ones
    version = EXTRACTOR_VERSION ^ (zlib.crc32(model.label.encode()) if model else 0)
    cache = store.matrix_cells
    gazetteer: Gazetteer | None = None
    rows, computed, cached = [], 0, 0
    for doc in docs:
        known = cache.cells(doc.id, doc.sha256, version)
        missing = [c for c in wanted if c not in known]
        if missing:
            if gazetteer is None:
                gazetteer = cached_gazetteer(store)
            paper = load_paper(store, doc)
            new = {c: cell_for(paper, c, gazetteer, model) for c in missing}
            cache.save(
                doc.id,
                doc.sha256,
                version,
                {c: cell.finding.to_dict() if cell.finding else None for c, cell in new.items()},
            )
            known.update({c: cell.finding.to_dict() if cell.finding else None
                          for c, cell in new.items()})  # fmt: skip
        computed += len(missing)
        cached += len(wanted) - len(missing)
        cells = tuple(Cell(doc.id, c, _finding(c, known[c])) for c in wanted)
        rows.append(MatrixRow(doc.id, doc.title, doc.year, doc.path, cells))
        if progress:
            progress(doc.id)
    return Matrix(tuple(wanted), tuple(rows), computed, cached)
