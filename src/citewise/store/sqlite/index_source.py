"""What indexes beside the database read from it: change counters and trusted blocks."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from citewise.store.filters import BlockFilter

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no fcntl module on Windows: locking is skipped


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (created if missing) while an index file is rebuilt, so
    two processes never write the same files at once (no lock where fcntl is missing)."""
    with open(path, "a+b") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield


@dataclass(frozen=True)
class BlockState:
    """How many blocks were ever inserted, deleted and updated (kept by triggers)."""

    inserted: int = 0
    deleted: int = 0
    updated: int = 0


def block_state(db: sqlite3.Connection) -> BlockState:
    """The block change counters: one row, cheap enough to read before every query."""
    row = db.execute("SELECT inserted, deleted, updated FROM block_changes WHERE id = 1").fetchone()
    return BlockState(int(row[0]), int(row[1]), int(row[2])) if row else BlockState()


def iter_trusted_blocks(
    db: sqlite3.Connection, after_rowid: int = 0, chunk: int = 50_000
) -> Iterator[list[tuple[int, str, str, str]]]:
    """(rowid, text, section path, label) of trusted blocks past `after_rowid`, in chunks."""
    last = after_rowid
    while True:
        rows = db.execute(
            "SELECT rowid, text, section_path, coalesce(label, '') FROM blocks "
            "WHERE rowid > ? AND trusted = 1 ORDER BY rowid LIMIT ?",
            (last, chunk),
        ).fetchall()
        if not rows:
            return
        yield [(int(r[0]), r[1], r[2], r[3]) for r in rows]
        last = int(rows[-1][0])


def trusted_rowids(db: sqlite3.Connection) -> np.ndarray:
    """Every trusted block's rowid, ascending."""
    rows = db.execute("SELECT rowid FROM blocks WHERE trusted = 1 ORDER BY rowid")
    return np.fromiter((r[0] for r in rows), dtype=np.int64)


def filter_clause(where: BlockFilter, alias: str = "b") -> tuple[str, list[object]]:
    """The WHERE clause (blocks table as `alias`) and parameters of a BlockFilter."""
    clauses: list[str] = [f"{alias}.trusted = 1"]
    params: list[object] = []
    for column, values in (
        ("document_id", where.documents),
        ("page", where.pages),
        ("kind", where.kinds),
    ):
        if values:
            clauses.append(f"{alias}.{column} IN ({','.join('?' * len(values))})")
            params.extend(values)
    return " AND ".join(clauses), params


def filtered_rowids(db: sqlite3.Connection, where: BlockFilter) -> np.ndarray:
    """Rowids of the trusted blocks `where` allows, ascending."""
    clause, params = filter_clause(where)
    rows = db.execute(f"SELECT b.rowid FROM blocks b WHERE {clause} ORDER BY b.rowid", params)
    return np.fromiter((r[0] for r in rows), dtype=np.int64)
