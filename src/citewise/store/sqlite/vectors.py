"""Block vectors, one per block per embedding model, as normalized float16 blobs.

SQLite holds the vectors of record. Search reads them from a memory-mapped matrix file
beside the database (`store/sqlite/vector_index.py`), rebuilt when `vector_changes` says the
rows changed. A vector is normalized in float32 and stored rounded to float16 (512 bytes
for 256 dimensions, half of float32); every score is computed in float32 arithmetic from
the float16 values, and on the dev questions the exact top-10 is the same set as from
float32 vectors. A float32 blob (a library written before, or by an older process) still
reads, rounded the same way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from citewise.store.sqlite.db import transaction

STORED = np.dtype(np.float16)  # how SQLite and the mapped matrix hold vector components


def stored_form(vectors: np.ndarray) -> np.ndarray:
    """`vectors` (n x d) normalized in float32, then rounded to the stored float16."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    stored: np.ndarray = (vectors / np.maximum(norms, 1e-12)).astype(STORED)
    return stored


def decode_blobs(blobs: list[bytes], dimensions: int) -> np.ndarray:
    """Stored blobs of `dimensions`-d vectors as an (n x d) float16 matrix (one pass when
    all are float16, as every row written since they were is)."""
    joined = b"".join(blobs)
    if len(joined) == len(blobs) * dimensions * STORED.itemsize:
        return np.frombuffer(joined, dtype=STORED).reshape(len(blobs), dimensions)
    return np.vstack([decode_blob(b, dimensions) for b in blobs]).reshape(len(blobs), dimensions)


def decode_blob(blob: bytes, dimensions: int) -> np.ndarray:
    """One stored blob as float16: a float32 blob (a library written before vectors were
    float16, or by an older process) is rounded to float16, as the migration rounds it."""
    if len(blob) == 4 * dimensions:
        return np.frombuffer(blob, dtype=np.float32).astype(STORED)
    return np.frombuffer(blob, dtype=STORED)


def register_model(db: sqlite3.Connection, name: str, dimensions: int) -> None:
    if model_dimensions(db, name) is not None:
        return  # no write when known: a read-only library can still be asked
    with transaction(db):
        db.execute(
            "INSERT OR IGNORE INTO embedding_models (name, dimensions) VALUES (?, ?)",
            (name, dimensions),
        )


def blocks_without_vectors(db: sqlite3.Connection, model: str) -> list[tuple[int, str]]:
    """(rowid, text) of trusted blocks that have no vector for `model` yet."""
    rows = db.execute(
        "SELECT b.rowid, b.section_path, b.label, b.text FROM blocks b WHERE b.trusted = 1 "
        "AND NOT EXISTS (SELECT 1 FROM block_vectors v WHERE v.model = ? "
        "AND v.block_rowid = b.rowid) ORDER BY b.rowid",
        (model,),
    ).fetchall()
    return [(r[0], r[3]) for r in rows]


def has_missing_vectors(db: sqlite3.Connection, model: str) -> bool:
    """Whether some trusted block lacks a vector for `model` (counts, no per-block probe)."""
    vectors = vector_count(db, model)
    (blocks,) = db.execute("SELECT count(*) FROM blocks").fetchone()  # an index count
    if vectors >= blocks:
        return False
    (trusted,) = db.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()
    return int(trusted) > vectors


def any_vectors(db: sqlite3.Connection) -> bool:
    """Whether the library holds vectors of any model (else it is keyword-only)."""
    return bool(db.execute("SELECT EXISTS (SELECT 1 FROM block_vectors)").fetchone()[0] == 1)


def save_vectors(
    db: sqlite3.Connection, model: str, rowids: list[int], vectors: np.ndarray
) -> None:
    """Store vectors for blocks, normalized and in float16, in one transaction."""
    vectors = stored_form(vectors)
    with transaction(db):
        # An upsert, not INSERT OR REPLACE: a replaced row must fire the update trigger.
        db.executemany(
            "INSERT INTO block_vectors (model, block_rowid, vector) VALUES (?, ?, ?) "
            "ON CONFLICT (model, block_rowid) DO UPDATE SET vector = excluded.vector",
            [(model, rowid, vec.tobytes()) for rowid, vec in zip(rowids, vectors, strict=True)],
        )


def load_matrix(db: sqlite3.Connection, model: str) -> tuple[np.ndarray, np.ndarray]:
    """(rowids, float16 matrix) of every trusted block's vector for `model`."""
    chunks = list(iter_vectors(db, model))
    if not chunks:
        dimensions = model_dimensions(db, model) or 0
        return np.zeros(0, dtype=np.int64), np.zeros((0, dimensions), dtype=STORED)
    return np.concatenate([r for r, _ in chunks]), np.vstack([m for _, m in chunks])


def vector_count(db: sqlite3.Connection, model: str) -> int:
    (n,) = db.execute("SELECT count(*) FROM block_vectors WHERE model = ?", (model,)).fetchone()
    return int(n)


@dataclass(frozen=True)
class VectorState:
    """How many vector rows of a model were ever inserted, and updated or deleted."""

    inserted: int = 0
    changed: int = 0


def vector_state(db: sqlite3.Connection, model: str) -> VectorState:
    """The change counters of `model` (kept by triggers; one indexed row, cheap per query)."""
    row = db.execute(
        "SELECT inserted, changed FROM vector_changes WHERE model = ?", (model,)
    ).fetchone()
    return VectorState(int(row[0]), int(row[1])) if row else VectorState()


def model_dimensions(db: sqlite3.Connection, model: str) -> int | None:
    row = db.execute("SELECT dimensions FROM embedding_models WHERE name = ?", (model,)).fetchone()
    return int(row[0]) if row else None


def iter_vectors(
    db: sqlite3.Connection, model: str, after_rowid: int = 0, chunk: int = 20_000
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(rowids, float16 matrix) chunks of trusted blocks' vectors with rowid > `after_rowid`,
    in order."""
    dimensions = model_dimensions(db, model) or 0
    last = after_rowid
    while True:
        rows = db.execute(
            "SELECT v.block_rowid, v.vector FROM block_vectors v JOIN blocks b "
            "ON b.rowid = v.block_rowid WHERE v.model = ? AND v.block_rowid > ? "
            "AND b.trusted = 1 ORDER BY v.block_rowid LIMIT ?",
            (model, last, chunk),
        ).fetchall()
        if not rows:
            return
        rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        yield rowids, decode_blobs([r[1] for r in rows], dimensions)
        last = int(rowids[-1])


class SqliteVectors:
    """The VectorRepository over the functions above (one library's SQLite file)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def model_dimensions(self, model: str) -> int | None:
        return model_dimensions(self.db, model)

    def register_model(self, model: str, dimensions: int) -> None:
        register_model(self.db, model, dimensions)

    def any_vectors(self) -> bool:
        return any_vectors(self.db)

    def has_missing_vectors(self, model: str) -> bool:
        return has_missing_vectors(self.db, model)

    def blocks_without_vectors(self, model: str) -> list[tuple[int, str]]:
        return blocks_without_vectors(self.db, model)

    def save_vectors(self, model: str, rowids: list[int], vectors: np.ndarray) -> None:
        save_vectors(self.db, model, rowids, vectors)
