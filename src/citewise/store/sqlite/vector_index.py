"""A memory-mapped vector matrix beside library.db, kept consistent with SQLite.

SQLite's `block_vectors` is the record; reading a million BLOBs per process start would
take seconds, so each model's vectors are mirrored into flat files under `vectors/`:

    <slug>.json          which rows the files hold, and the `vector_changes` counters then
    <slug>.<gen>.rowids  int64 block rowids, ascending
    <slug>.<gen>.f16     float16 rows as SQLite holds them (n x d), memory-mapped
    <slug>.<gen>.bits    sign bits (n x words uint64), loaded whole (32 MB per 1M 256-d rows)

A manifest of another `format` (float32 `.f32` files, before format 2) is rebuilt. When
the counters show only inserts since the files were written, the new rows are appended;
any update or delete rewrites a new generation and switches `<slug>.json` to it
atomically. Readers holding an older generation keep a valid (if stale) view.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from citewise.store.quantize import binary_codes, rescored_top_k, unit_rows, words_for
from citewise.store.sqlite.db import READ_ONLY, storage_error
from citewise.store.sqlite.index_files import file_sizes, mapped_values, publish, write_rows
from citewise.store.sqlite.index_source import file_lock
from citewise.store.sqlite.vector_check import (
    SAMPLE,
    IndexCheck,
    IndexReport,
    full_mismatches,
    length_problems,
    order_problems,
    row_bytes,
    sample_mismatches,
)
from citewise.store.sqlite.vectors import (
    STORED,
    VectorState,
    iter_vectors,
    load_matrix,
    model_dimensions,
    vector_state,
)

log = logging.getLogger(__name__)

FOLDER = "vectors"
SUFFIXES = ("rowids", "f16", "bits")
FORMAT = 2  # 1: float32 rows in .f32 files; 2: float16 rows in .f16 files
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
    format: int = 1  # manifests written before float16 rows say nothing: float32

    @property
    def state(self) -> VectorState:
        return VectorState(self.inserted, self.changed)


def model_slug(model: str) -> str:
    """A file-name-safe, collision-free name for a model."""
    readable = re.sub(r"[^A-Za-z0-9]+", "-", model).strip("-")[:40]
    return f"{readable}-{hashlib.sha256(model.encode()).hexdigest()[:8]}"


class VectorIndex:
    """One model's vectors as mapped files; `refresh` before reading after writes."""

    def __init__(self, library_dir: Path, model: str) -> None:
        self.folder = library_dir / FOLDER
        self.model = model
        self.slug = model_slug(model)
        self.meta: MatrixMeta | None = None
        self.rowids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, 0), dtype=STORED)
        self.codes = np.zeros((0, 0), dtype=np.uint64)

    def __len__(self) -> int:
        return len(self.rowids)

    # -- files -----------------------------------------------------------------------

    def _path(self, generation: int, suffix: str) -> Path:
        return self.folder / f"{self.slug}.{generation}.{suffix}"

    def _read_meta(self, any_format: bool = False) -> MatrixMeta | None:
        try:
            meta = MatrixMeta(**json.loads((self.folder / f"{self.slug}.json").read_text()))
        except (OSError, ValueError, TypeError):
            return None
        usable = any_format or meta.format == FORMAT
        return meta if meta.model == self.model and usable else None

    def _write_meta(self, meta: MatrixMeta) -> None:
        publish(self.folder / f"{self.slug}.json", json.dumps(asdict(meta)))

    def _sizes(self, meta: MatrixMeta) -> dict[str, int] | None:
        return file_sizes({s: self._path(meta.generation, s) for s in SUFFIXES})

    def _load(self, meta: MatrixMeta) -> None:
        n, d = meta.count, meta.dimensions
        if n == 0:
            self.rowids = np.zeros(0, dtype=np.int64)
            self.matrix = np.zeros((0, d), dtype=STORED)
            self.codes = np.zeros((words_for(d), 0), dtype=np.uint64)
        else:
            self.rowids = np.fromfile(self._path(meta.generation, "rowids"), np.int64, n)
            rows = mapped_values(self._path(meta.generation, "f16"), n * d, STORED)
            self.matrix = rows.reshape(n, d)
            bits = np.fromfile(self._path(meta.generation, "bits"), np.uint64, n * words_for(d))
            self.codes = np.ascontiguousarray(bits.reshape(n, words_for(d)).T)
        self.meta = meta

    def _open_files(self, meta: MatrixMeta) -> list[str] | None:
        """Load `meta`'s files when they hold its rows, returning how their lengths differ
        from its count (longer: an append cut before its manifest); None when they are
        missing or cut short."""
        sizes = self._sizes(meta)
        rows = row_bytes(meta.dimensions)
        if sizes is None or any(sizes[s] < meta.count * rows[s] for s in SUFFIXES):
            return None
        self._load(meta)
        return length_problems(sizes, meta.count, meta.dimensions)

    def _opened(self, db: sqlite3.Connection, meta: MatrixMeta) -> tuple[list[str], bool]:
        """The check on open: (what is wrong, whether the rows the manifest counts are
        sound: whole files, ascending rowids, a sample of rows equal to SQLite's)."""
        problems = self._open_files(meta)
        if problems is None:
            return ["index files missing or cut short"], False
        found = order_problems(self.rowids, meta.max_rowid)
        bad = sample_mismatches(db, self.model, (self.rowids, self.matrix, self.codes))
        if bad:
            found.append(f"{bad} of {min(SAMPLE, meta.count)} sampled rows differ from SQLite")
        return problems + found, not found

    def _cut_tails(self, meta: MatrixMeta) -> None:
        """Drop bytes past the manifest's count (readers map only counted rows)."""
        for suffix, size in row_bytes(meta.dimensions).items():
            os.truncate(self._path(meta.generation, suffix), meta.count * size)

    def _append(self, generation: int, start: int, rowids: np.ndarray, matrix: np.ndarray) -> None:
        """Write rows from row `start` of each file on, durable before a manifest counts them."""
        codes = np.ascontiguousarray(binary_codes(matrix).T)  # row-major on disk: appendable
        sizes = row_bytes(matrix.shape[1])
        for suffix, data in (("rowids", rowids), ("f16", matrix.astype(STORED)), ("bits", codes)):
            raw = np.ascontiguousarray(data).tobytes()
            write_rows(self._path(generation, suffix), start * sizes[suffix], raw)

    def _rebuild(self, db: sqlite3.Connection, state: VectorState, dimensions: int) -> MatrixMeta:
        previous = self._read_meta(any_format=True)  # never reuse the files of one in use
        generation = (previous.generation + 1) if previous else 1
        empty = np.zeros((0, dimensions), dtype=STORED)
        self._append(generation, 0, np.zeros(0, dtype=np.int64), empty)  # fresh, empty files
        count, max_rowid = 0, 0
        for rowids, matrix in iter_vectors(db, self.model):
            self._append(generation, count, rowids, matrix)
            count, max_rowid = count + len(rowids), int(rowids[-1])
        meta = MatrixMeta(self.model, dimensions, count, max_rowid, state.inserted,
                          state.changed, generation, FORMAT)  # fmt: skip
        self._write_meta(meta)
        for old in self.folder.glob(f"{self.slug}.*.*"):
            if (
                old.suffix in (".rowids", ".f16", ".f32", ".bits")
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
            self._append(meta.generation, count, rowids, matrix)
            count, max_rowid = count + len(rowids), int(rowids[-1])
        extended = MatrixMeta(
            self.model,
            meta.dimensions,
            count,
            max_rowid,
            state.inserted,
            state.changed,
            meta.generation,
            FORMAT,
        )
        self._write_meta(extended)
        return extended

    def _update(self, db: sqlite3.Connection, rebuild: bool = False) -> list[str]:
        """Under the lock: make the files match SQLite (cut stale tails, append, or
        rebuild); returns what the check on open found wrong on the way."""
        dimensions = model_dimensions(db, self.model)
        if dimensions is None:  # model never registered: nothing to search
            state = vector_state(db, self.model)
            self.meta = MatrixMeta(self.model, 0, 0, 0, state.inserted, state.changed, 0, FORMAT)
            self.rowids = np.zeros(0, dtype=np.int64)
            return []
        self.folder.mkdir(parents=True, exist_ok=True)
        with file_lock(self.folder / f"{self.slug}.lock"):
            state = vector_state(db, self.model)  # another process may have just done the work
            meta = self._read_meta()
            problems: list[str] = []
            sound = False
            if meta is not None and meta.dimensions == dimensions and not rebuild:
                problems, sound = self._opened(db, meta)
                if sound and problems:
                    self._cut_tails(meta)  # an append cut before its manifest: drop its rows
            if sound and meta is not None and meta.state == state:
                self._load(meta)
                return problems
            appendable = (
                sound
                and meta is not None
                and meta.changed == state.changed
                and meta.inserted <= state.inserted
            )
            extended = self._extend(db, meta, state) if appendable and meta else None
            self._load(extended or self._rebuild(db, state, dimensions))
        return problems

    # -- public ----------------------------------------------------------------------

    def refresh(self, db: sqlite3.Connection) -> None:
        """Make the mapped view match SQLite: a no-op (one tiny query) when it already does.

        Files another process wrote are checked on open (lengths, order, a sample of rows
        against SQLite) and cut back, extended or rebuilt when they do not hold.
        """
        state = vector_state(db, self.model)
        if self.meta is not None and self.meta.state == state:
            return
        meta = self._read_meta()
        if meta is not None and meta.state == state and self._opened(db, meta) == ([], True):
            return
        self.meta = None
        try:
            problems = self._update(db)
        except OSError as exc:
            self.meta = None
            if exc.errno not in READ_ONLY:
                raise storage_error(exc, self.folder) or exc from exc
            self._load_from_sqlite(db)  # a read-only library: search from memory
            return
        if problems:
            log.warning("vector index %s repaired: %s", self.slug, "; ".join(problems))

    def _load_from_sqlite(self, db: sqlite3.Connection) -> None:
        """The whole matrix read from SQLite into memory, when no file can be written."""
        state = vector_state(db, self.model)
        dimensions = model_dimensions(db, self.model) or 0
        rowids, matrix = load_matrix(db, self.model)
        matrix = matrix.reshape(len(rowids), dimensions)
        self.rowids, self.matrix, self.codes = rowids, matrix, binary_codes(matrix)
        max_rowid = int(rowids[-1]) if len(rowids) else 0
        self.meta = MatrixMeta(
            self.model, dimensions, len(rowids), max_rowid, state.inserted, state.changed, 0,
            FORMAT,
        )  # fmt: skip

    def check(self, db: sqlite3.Connection) -> IndexCheck:
        """The full check (every row against SQLite), the repair it calls for, and the full
        check again: `citewise doctor --check`."""
        mismatches, problems = self._full_check(db)
        self.meta = None
        repaired = bool(mismatches)
        try:
            problems += self._update(db, rebuild=repaired)
        except OSError as exc:
            if exc.errno not in READ_ONLY:
                raise storage_error(exc, self.folder) or exc from exc
            problems.append("the library is read-only: nothing repaired")
            repaired = False
        remaining, _ = self._full_check(db)
        (vectors,) = db.execute(
            "SELECT count(*) FROM block_vectors v JOIN blocks b ON b.rowid = v.block_rowid "
            "WHERE v.model = ? AND b.trusted = 1",
            (self.model,),
        ).fetchone()
        return IndexCheck(
            self.model, int(vectors), len(self), mismatches, problems, repaired, remaining
        )

    def _full_check(self, db: sqlite3.Connection) -> tuple[int, list[str]]:
        """(discrepancies, what they are) between the files and SQLite, changing nothing;
        a row that differs counts once. An index behind SQLite by inserts is compared as far
        as it goes; one behind by updates or deletes is only due for a rebuild."""
        dimensions = model_dimensions(db, self.model)
        if dimensions is None:
            return 0, []
        meta = self._read_meta()
        if meta is None:
            built = any(self.folder.glob(f"{self.slug}.*.f16"))
            return (1, ["manifest missing or unreadable"]) if built else (0, [])
        if meta.dimensions != dimensions:
            return 1, ["dimensions differ from the model's"]
        problems = self._open_files(meta)
        if problems is None:
            return 1, ["index files missing or cut short"]
        problems += order_problems(self.rowids, meta.max_rowid)
        state = vector_state(db, self.model)
        rows = 0
        if meta.changed == state.changed:
            upto = None if meta.state == state else meta.max_rowid
            rows = full_mismatches(db, self.model, (self.rowids, self.matrix, self.codes), upto)
        count = len(problems) + rows
        if rows:
            problems.append(f"{rows} rows differ from SQLite (rowid, float16 row or sign bits)")
        return count, problems

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
        rows: np.ndarray = where[self.rowids[where] == rowids]
        return rows

    def vectors(self, rowids: list[int]) -> np.ndarray | None:
        """The unit float32 vectors of `rowids`, in order; None if any of them has none."""
        wanted = np.asarray(rowids, dtype=np.int64)
        positions = self.positions(wanted)
        if len(positions) != len(wanted):
            return None
        return unit_rows(self.matrix[positions])


def check_vector_indexes(directory: Path, db: sqlite3.Connection) -> IndexReport:
    """Every embedding model's index beside the library checked row by row and repaired."""
    models = [r[0] for r in db.execute("SELECT name FROM embedding_models ORDER BY name")]
    return IndexReport([VectorIndex(directory, m).check(db) for m in models])


class SqliteDenseIndex:
    """A VectorIndex bound to the SQLite connection it follows (the DenseIndex protocol)."""

    def __init__(self, directory: Path, model: str, db: sqlite3.Connection) -> None:
        self.index = VectorIndex(directory, model)
        self.model = model
        self.db = db

    @property
    def rowids(self) -> np.ndarray:
        """The block rowids the mapped matrix holds, ascending."""
        return self.index.rowids

    def refresh(self) -> None:
        self.index.refresh(self.db)

    def __len__(self) -> int:
        return len(self.index)

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        return self.index.search(query, k, allowed)

    def vectors(self, rowids: list[int]) -> np.ndarray | None:
        return self.index.vectors(rowids)
