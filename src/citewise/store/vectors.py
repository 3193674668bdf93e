"""Block vectors, one per block per embedding model, as normalized float32 blobs.

Dense search is brute force over a matrix held in memory: exact, and fast enough for a
personal library (a million 384-d vectors are 1.5 GB as float32).
"""

from __future__ import annotations

import sqlite3

import numpy as np

from citewise.store.db import transaction


def register_model(db: sqlite3.Connection, name: str, dimensions: int) -> None:
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


def save_vectors(
    db: sqlite3.Connection, model: str, rowids: list[int], vectors: np.ndarray
) -> None:
    """Store normalized float32 vectors for blocks, in one transaction."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.maximum(norms, 1e-12)
    with transaction(db):
        db.executemany(
            "INSERT OR REPLACE INTO block_vectors (model, block_rowid, vector) VALUES (?, ?, ?)",
            [(model, rowid, vec.tobytes()) for rowid, vec in zip(rowids, vectors, strict=True)],
        )


def load_matrix(db: sqlite3.Connection, model: str) -> tuple[np.ndarray, np.ndarray]:
    """(rowids, matrix) of every trusted block's vector for `model`."""
    rows = db.execute(
        "SELECT v.block_rowid, v.vector FROM block_vectors v JOIN blocks b "
        "ON b.rowid = v.block_rowid WHERE v.model = ? AND b.trusted = 1 ORDER BY v.block_rowid",
        (model,),
    ).fetchall()
    if not rows:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
    rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
    return rowids, matrix


def vector_count(db: sqlite3.Connection, model: str) -> int:
    (n,) = db.execute("SELECT count(*) FROM block_vectors WHERE model = ?", (model,)).fetchone()
    return int(n)
