"""A memory-mapped vector matrix beside library.db, kept consistent with SQLite.

SQLite's `block_vectors` is the record; reading a million BLOBs per process start would
take seconds, so each model's vectors are mirrored into flat files under `vectors/`:

    <slug>.json          which rows the files hold, and the `vector_changes` counters then
    <slug>.<gen>.rowids  int64 block rowids, ascending
    <slug>.<gen>.f32     float32 rows (n x d), memory-mapped: only rows read are paged in
    <slug>.<gen>.bits    sign bits (n x words uint64), loaded whole (32 MB per 1M 256-d rows)

When the counters show only inserts since the files were written, the new rows are
appended; any update or delete rewrites a new generation and switches `<slug>.json` to it
atomically. Readers holding an older generation keep a valid (if stale) view.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import re
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from citewise.store.index_source import file_lock
from citewise.store.quantize import binary_codes, rescored_top_k, words_for
from citewise.store.vectors import VectorState, iter_vectors, model_dimensions, vector_state

FOLDER = "vectors"
# Rows shortlisted by sign bits before exact rescoring (the whole matrix when smaller).
SHORTLIST = 1000


@dataclass(frozen=True)
class MatrixMeta:
    model: str
    dimensions: int
    count: int
    max_rowid: int
    inserted: int
    changed: int
    generation: int

    @property
    def state(self) -> VectorState:
        return VectorState(self.inserted, self.changed)


def model_slug(model: str) -> str:
    """A file-name-safe, collision-free name for a model."""
    readable = re.sub(r"[^A-Za-z0-9]+", "-", model).strip("-")[:40]
    return f"{readable}-{hashlib.sha256(model.encode()).hexdigest()[:8]}"


def _mapped(path: Path, count: int) -> np.ndarray:
    """The first `count` float32 values of a file, memory-mapped read-only (a plain ndarray:
    np.memmap's indexing overhead costs more than the read at query time)."""
    with open(path, "rb") as handle:
        mapping = mmap.mmap(handle.fileno(), count * 4, access=mmap.ACCESS_READ)
    return np.frombuffer(mapping, dtype=np.float32, count=count)


class VectorIndex:
    """One model's vectors as mapped files; `refresh` before reading after writes."""

    def __init__(self, library_dir: Path, model: str) -> None:
        self.folder = library_dir / FOLDER
        self.model = model
        self.slug = model_slug(model)
        self.meta: MatrixMeta | None = None
        self.rowids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.codes = np.zeros((0, 0), dtype=np.uint64)

    def __len__(self) -> int:
        return len(self.rowids)

    # -- files -----------------------------------------------------------------------

    def _path(self, generation: int, suffix: str) -> Path:
        return self.folder / f"{self.slug}.{generation}.{suffix}"

    def _read_meta(self) -> MatrixMeta | None:
        try:
            meta = MatrixMeta(**json.loads((self.folder / f"{self.slug}.json").read_text()))
        except (OSError, ValueError, TypeError):
            return None
        return meta if meta.model == self.model else None

    def _write_meta(self, meta: MatrixMeta) -> None:
        tmp = self.folder / f"{self.slug}.json.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(asdict(meta)))
        os.replace(tmp, self.folder / f"{self.slug}.json")

    def _files_hold(self, meta: MatrixMeta) -> bool:
        """Whether the files are at least as long as `meta` says (a crash may cut them)."""
        sizes = {"rowids": 8, "f32": 4 * meta.dimensions, "bits": 8 * words_for(meta.dimensions)}
        try:
            return all(
                self._path(meta.generation, s).stat().st_size >= meta.count * size
                for s, size in sizes.items()
            )
        except OSError:
            return False

    def _load(self, meta: MatrixMeta) -> None:
        n, d = meta.count, meta.dimensions
        if n == 0:
            self.rowids = np.zeros(0, dtype=np.int64)
            self.matrix = np.zeros((0, d), dtype=np.float32)
            self.codes = np.zeros((words_for(d), 0), dtype=np.uint64)
        else:
            self.rowids = np.fromfile(self._path(meta.generation, "rowids"), np.int64, n)
            self.matrix = _mapped(self._path(meta.generation, "f32"), n * d).reshape(n, d)
            bits = np.fromfile(self._path(meta.generation, "bits"), np.uint64, n * words_for(d))
            self.codes = np.ascontiguousarray(bits.reshape(n, words_for(d)).T)
        self.meta = meta

    def _append(self, generation: int, rowids: np.ndarray, matrix: np.ndarray) -> None:
        codes = np.ascontiguousarray(binary_codes(matrix).T)  # row-major on disk: appendable
        for suffix, data in (("rowids", rowids), ("f32", matrix), ("bits", codes)):
            with open(self._path(generation, suffix), "ab") as handle:
                handle.write(np.ascontiguousarray(data).tobytes())

    def _rebuild(self, db: sqlite3.Connection, state: VectorState, dimensions: int) -> MatrixMeta:
        previous = self._read_meta()
        generation = (previous.generation + 1) if previous else 1
        for suffix in ("rowids", "f32", "bits"):
            self._path(generation, suffix).unlink(missing_ok=True)
            self._path(generation, suffix).touch()
        count, max_rowid = 0, 0
        for rowids, matrix in iter_vectors(db, self.model):
            self._append(generation, rowids, matrix)
            count, max_rowid = count + len(rowids), int(rowids[-1])
        meta = MatrixMeta(
            self.model, dimensions, count, max_rowid, state.inserted, state.changed, generation
        )
        self._write_meta(meta)
        for old in self.folder.glob(f"{self.slug}.*.*"):
            if (
                old.suffix in (".rowids", ".f32", ".bits")
                and old.stem != f"{self.slug}.{generation}"
            ):
                old.unlink(missing_ok=True)  # mapped elsewhere? POSIX keeps it until unmapped
        return meta

    def _extend(
        self, db: sqlite3.Connection, meta: MatrixMeta, state: VectorState
    ) -> MatrixMeta | None:
        """Append rows inserted since `meta`; None when they are not all beyond its end."""
        expected = state.inserted - meta.inserted
        chunks = list(iter_vectors(db, self.model, after_rowid=meta.max_rowid))
        if sum(len(r) for r, _ in chunks) != expected:
            return None
        count, max_rowid = meta.count, meta.max_rowid
        for rowids, matrix in chunks:
            self._append(meta.generation, rowids, matrix)
            count, max_rowid = count + len(rowids), int(rowids[-1])
        extended = MatrixMeta(
            self.model,
            meta.dimensions,
            count,
            max_rowid,
            state.inserted,
            state.changed,
            meta.generation,
        )
        self._write_meta(extended)
        return extended

    # -- public ----------------------------------------------------------------------

    def refresh(self, db: sqlite3.Connection) -> None:
        """Make the mapped view match SQLite: a no-op (one tiny query) when it already does."""
        state = vector_state(db, self.model)
        if self.meta is not None and self.meta.state == state:
            return
        meta = self._read_meta()
        if meta is None or meta.state != state or not self._files_hold(meta):
            dimensions = model_dimensions(db, self.model)
            if dimensions is None:  # model never registered: nothing to search
                self.meta = MatrixMeta(self.model, 0, 0, 0, state.inserted, state.changed, 0)
                self.rowids = np.zeros(0, dtype=np.int64)
                return
            self.folder.mkdir(parents=True, exist_ok=True)
            with file_lock(self.folder / f"{self.slug}.lock"):
                meta = self._read_meta()  # another process may have just done the work
                if meta is None or meta.state != state or not self._files_hold(meta):
                    appendable = (
                        meta is not None
                        and meta.changed == state.changed
                        and meta.inserted <= state.inserted
                        and meta.dimensions == dimensions
                        and self._files_hold(meta)
                    )
                    extended = self._extend(db, meta, state) if appendable and meta else None
                    meta = extended or self._rebuild(db, state, dimensions)
        self._load(meta)

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, cosine similarities) of the k nearest vectors, best first.

        `allowed` (block rowids) restricts the search to those blocks.
        """
        if len(self.rowids) == 0 or k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        positions = None
        if allowed is not None:
            positions = self.positions(np.asarray(allowed, dtype=np.int64))
            if len(positions) == 0:
                return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        found, scores = rescored_top_k(self.codes, self.matrix, query, k, SHORTLIST, positions)
        return self.rowids[found], scores

    def positions(self, rowids: np.ndarray) -> np.ndarray:
        """Matrix rows of those `rowids` that have a vector (in the order given)."""
        if len(self.rowids) == 0:
            return np.zeros(0, dtype=np.int64)
        where = np.clip(np.searchsorted(self.rowids, rowids), 0, len(self.rowids) - 1)
        return where[self.rowids[where] == rowids]

    def vectors(self, rowids: list[int]) -> np.ndarray | None:
        """The float vectors of `rowids`, in order; None if any of them has none."""
        wanted = np.asarray(rowids, dtype=np.int64)
        positions = self.positions(wanted)
        if len(positions) != len(wanted):
            return None
        return np.asarray(self.matrix[positions], dtype=np.float32)
