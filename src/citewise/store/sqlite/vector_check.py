"""Whether a vector index's files say what SQLite says, row for row.

The index checks itself whenever it opens files it did not write (cheap: file lengths
against the manifest's count, ascending rowids, and a sample of rows compared byte for byte
with SQLite); `citewise doctor --check` compares every row. Pure comparisons over the
mapped arrays and the SQLite rows; `vector_index.py` decides what to rebuild.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass, field

import numpy as np

from citewise.store.quantize import binary_codes, words_for
from citewise.store.sqlite.vectors import STORED, decode_blob, iter_vectors

SAMPLE = 8  # rows compared with SQLite each time an index is opened


def row_bytes(dimensions: int) -> dict[str, int]:
    """Bytes per row of each index file."""
    return {"rowids": 8, "f16": STORED.itemsize * dimensions, "bits": 8 * words_for(dimensions)}


def length_problems(sizes: dict[str, int], count: int, dimensions: int) -> list[str]:
    """Each file whose length is not exactly `count` rows."""
    problems = []
    for suffix, size in row_bytes(dimensions).items():
        if sizes[suffix] != count * size:
            problems.append(
                f".{suffix} holds {sizes[suffix]} bytes, the manifest counts {count * size}"
            )
    return problems


def order_problems(rowids: np.ndarray, max_rowid: int) -> list[str]:
    """Rowids must ascend strictly (lookups are binary searches) and end at `max_rowid`."""
    problems = []
    if len(rowids) > 1 and not bool(np.all(rowids[1:] > rowids[:-1])):
        problems.append("rowids do not ascend (rows appended after stale ones)")
    if len(rowids) and int(rowids[-1]) != max_rowid:
        problems.append(f"last rowid {int(rowids[-1])}, the manifest says {max_rowid}")
    return problems


def _sql_rows(db: sqlite3.Connection, model: str, rowids: list[int]) -> dict[int, bytes]:
    marks = ",".join("?" * len(rowids))
    rows = db.execute(
        "SELECT v.block_rowid, v.vector FROM block_vectors v JOIN blocks b "
        f"ON b.rowid = v.block_rowid WHERE v.model = ? AND b.trusted = 1 "
        f"AND v.block_rowid IN ({marks})",
        (model, *rowids),
    ).fetchall()
    return {int(r[0]): bytes(r[1]) for r in rows}


def sample_mismatches(
    db: sqlite3.Connection,
    model: str,
    arrays: tuple[np.ndarray, np.ndarray, np.ndarray],
    sample: int = SAMPLE,
) -> int:
    """How many of `sample` evenly spread rows (first and last included) differ from SQLite:
    no such vector there, other float16 bytes, or other sign bits."""
    rowids, matrix, codes = arrays
    if len(rowids) == 0:
        return 0
    spread = np.linspace(0, len(rowids) - 1, min(sample, len(rowids))).astype(int)
    # (not np.unique: it imports numpy.ma, ~20 ms of every `ask` that opens an index)
    positions = np.array(sorted(set(spread.tolist())))
    held = _sql_rows(db, model, [int(r) for r in rowids[positions]])
    bad = 0
    for p in positions:
        row = np.asarray(matrix[p], dtype=STORED)
        blob = held.get(int(rowids[p]))
        whole = blob is not None and len(blob) in (2 * len(row), 4 * len(row))
        same = whole and decode_blob(bytes(blob or b""), len(row)).tobytes() == row.tobytes()
        bad += not (same and np.array_equal(codes[:, p], binary_codes(row[None, :])[:, 0]))
    return bad


def full_mismatches(
    db: sqlite3.Connection,
    model: str,
    arrays: tuple[np.ndarray, np.ndarray, np.ndarray],
    upto_rowid: int | None = None,
) -> int:
    """Positions whose rowid, float row or sign bits differ from SQLite's rows in order
    (up to `upto_rowid` when the index is behind by inserts), plus rows missing or extra."""
    rowids, matrix, codes = arrays
    offset, bad = 0, 0
    for sql_rowids, sql_matrix in iter_vectors(db, model):
        if upto_rowid is not None:
            keep = sql_rowids <= upto_rowid
            sql_rowids, sql_matrix = sql_rowids[keep], sql_matrix[keep]
        n = len(sql_rowids)
        m = max(0, min(n, len(rowids) - offset))
        if m and sql_matrix.shape[1] != matrix.shape[1]:
            bad += m  # another dimensionality: every row differs
        elif m:
            window = slice(offset, offset + m)
            same = rowids[window] == sql_rowids[:m]
            floats = np.asarray(matrix[window], dtype=STORED).view(np.uint16)
            same &= (floats == sql_matrix[:m].view(np.uint16)).all(axis=1)
            same &= (codes[:, window] == binary_codes(sql_matrix[:m])).all(axis=0)
            bad += int(m - same.sum())
        bad += n - m
        offset += n
    return bad + max(0, len(rowids) - offset)


@dataclass(frozen=True)
class IndexCheck:
    """One model's vector index against SQLite: what was wrong, and whether it was put right."""

    model: str
    vectors: int  # trusted blocks' vectors SQLite holds for the model
    indexed: int  # rows the index files hold after the check
    mismatches: int  # discrepancies found (files, order, rows), before any repair
    problems: list[str] = field(default_factory=list)
    repaired: bool = False
    remaining: int = 0  # discrepancies left after the repair

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class IndexReport:
    """`citewise doctor --check`: every model's vector index checked and repaired."""

    models: list[IndexCheck] = field(default_factory=list)

    @property
    def mismatches(self) -> int:
        return sum(m.mismatches for m in self.models)

    @property
    def ok(self) -> bool:
        return all(m.remaining == 0 for m in self.models)

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "mismatches": self.mismatches,
            "remaining": sum(m.remaining for m in self.models),
            "repaired": any(m.repaired for m in self.models),
            "vectors": sum(m.vectors for m in self.models),
            "models": [m.to_dict() for m in self.models],
        }
