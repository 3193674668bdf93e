"""Block vectors in pgvector, one per block per embedding model, normalized float32.

Each model gets a partial HNSW index on `vector::halfvec(n)` with cosine distance when it
is registered: half the size of float32, and on normalized MiniLM-class vectors the
ranking it returns matches the exact one (measured in tests/store/postgres).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from citewise.store.filters import BlockFilter
from citewise.store.postgres.blocks import filter_clause
from citewise.store.postgres.connection import Database
from citewise.store.quantize import top_k

# A filter allowing at most this many blocks is scored exactly (as SQLite does), not by HNSW.
EXACT_BELOW = 1000
# Rows the HNSW index shortlists per search before exact float32 rescoring.
SHORTLIST = 100


def _index_name(model: str) -> str:
    return "block_vectors_hnsw_" + re.sub(r"[^a-z0-9]+", "_", model.lower()).strip("_")[:40]


def _literal(vector: np.ndarray) -> str:
    # numpy's float32 repr is the shortest that reads back to the same float32
    return "[" + ",".join(str(v) for v in np.asarray(vector, dtype=np.float32)) + "]"


def create_index(conn: Any, model: str, dimensions: int) -> None:
    """The model's partial HNSW index (cosine on halfvec), unless it exists."""
    quoted = model.replace("'", "''")
    conn.execute(
        f"CREATE INDEX IF NOT EXISTS {_index_name(model)} ON block_vectors USING hnsw "
        f"((vector::halfvec({int(dimensions)})) halfvec_cosine_ops) WHERE model = '{quoted}'"
    )


class PostgresVectors:
    def __init__(self, db: Database) -> None:
        self.db = db

    def model_dimensions(self, model: str) -> int | None:
        n = self.db.value("SELECT dimensions FROM embedding_models WHERE name = %s", (model,))
        return int(n) if n is not None else None

    def register_model(self, model: str, dimensions: int) -> None:
        if self.model_dimensions(model) is not None:
            return
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO embedding_models (name, dimensions) VALUES (%s, %s) "
                "ON CONFLICT DO NOTHING",
                (model, dimensions),
            )
            create_index(conn, model, dimensions)

    def has_missing_vectors(self, model: str) -> bool:
        """Whether some trusted block lacks a vector for `model` (counts, no per-block probe)."""
        vectors = self.vector_count(model)
        if vectors >= int(self.db.value("SELECT count(*) FROM blocks") or 0):
            return False
        return int(self.db.value("SELECT count(*) FROM blocks WHERE trusted = 1") or 0) > vectors

    def any_vectors(self) -> bool:
        return bool(self.db.value("SELECT EXISTS (SELECT 1 FROM block_vectors)"))

    def vector_count(self, model: str) -> int:
        n = self.db.value("SELECT count(*) FROM block_vectors WHERE model = %s", (model,))
        return int(n or 0)

    def blocks_without_vectors(self, model: str) -> list[tuple[int, str]]:
        rows = self.db.rows(
            "SELECT b.rowid, b.text FROM blocks b WHERE b.trusted = 1 AND NOT EXISTS "
            "(SELECT 1 FROM block_vectors v WHERE v.model = %s AND v.block_rowid = b.rowid) "
            "ORDER BY b.rowid",
            (model,),
        )
        return [(int(r["rowid"]), r["text"]) for r in rows]

    def save_vectors(self, model: str, rowids: list[int], vectors: np.ndarray) -> None:
        vectors = np.asarray(vectors, dtype=np.float32)
        vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        with self.db.transaction() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO block_vectors (model, block_rowid, vector) VALUES (%s, %s, %s) "
                "ON CONFLICT (model, block_rowid) DO UPDATE SET vector = excluded.vector",
                [(model, int(r), _literal(v)) for r, v in zip(rowids, vectors, strict=True)],
            )

    def load_matrix(self, model: str) -> tuple[np.ndarray, np.ndarray]:
        rows = self.db.rows(
            "SELECT v.block_rowid, v.vector::text AS vector FROM block_vectors v JOIN blocks b "
            "ON b.rowid = v.block_rowid WHERE v.model = %s AND b.trusted = 1 "
            "ORDER BY v.block_rowid",
            (model,),
        )
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
        rowids = np.fromiter((r["block_rowid"] for r in rows), dtype=np.int64, count=len(rows))
        matrix = np.array([np.fromstring(r["vector"][1:-1], sep=",") for r in rows])
        return rowids, matrix.astype(np.float32)

    def nearest(
        self, model: str, query: np.ndarray, k: int, where: BlockFilter | None = None
    ) -> list[tuple[int, float]]:
        """(block rowid, cosine similarity) of the `k` nearest trusted blocks, through the
        model's HNSW index (ef_search raised to 4k so filtered searches keep their recall)."""
        dims = self.model_dimensions(model)
        if dims is None:
            return []
        clause, params = filter_clause(where or BlockFilter())
        with self.db.transaction() as conn:
            conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, 4 * int(k))}")
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            rows = conn.execute(
                f"SELECT v.block_rowid, 1 - (v.vector::halfvec({dims}) <=> %s::halfvec({dims})) "
                "AS score FROM block_vectors v JOIN blocks b ON b.rowid = v.block_rowid "
                f"WHERE v.model = %s AND {clause} "
                f"ORDER BY v.vector::halfvec({dims}) <=> %s::halfvec({dims}) LIMIT %s",
                (_literal(query), model, *params, _literal(query), k),
            ).fetchall()
        return [(int(r["block_rowid"]), float(r["score"])) for r in rows]


def _floats(sent: bytes) -> np.ndarray:
    """A vector from pgvector's binary form (`vector_send`: two int16, then big-endian
    float32s): 3x quicker to read than a float4[] or the text form."""
    return np.frombuffer(bytes(sent), dtype=">f4", offset=4).astype(np.float32)


def _matrix(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    rowids = np.fromiter((r["block_rowid"] for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.array([_floats(r["vector"]) for r in rows], dtype=np.float32)
    return rowids, matrix


class PostgresDenseIndex:
    """Dense retrieval over pgvector (the DenseIndex protocol): pgvector's HNSW index
    shortlists, the float32 vectors are rescored exactly here, ties broken by rowid, so the
    ranking equals the SQLite library's exact rescoring whenever the shortlist holds it."""

    def __init__(self, db: Database, model: str) -> None:
        self.db = db
        self.model = model
        self.state: tuple[int, int] | None = None
        self.count = 0
        self.dimensions = 0

    def refresh(self) -> None:
        row = self.db.one(
            "SELECT inserted, changed FROM vector_changes WHERE model = %s", (self.model,)
        )
        state = (int(row["inserted"]), int(row["changed"])) if row else (0, 0)
        if state != self.state:
            self.count = int(
                self.db.value(
                    "SELECT count(*) FROM block_vectors v JOIN blocks b ON b.rowid = "
                    "v.block_rowid WHERE v.model = %s AND b.trusted = 1",
                    (self.model,),
                )
                or 0
            )
            dims = self.db.value(
                "SELECT dimensions FROM embedding_models WHERE name = %s", (self.model,)
            )
            self.dimensions, self.state = int(dims or 0), state

    def __len__(self) -> int:
        return self.count

    def _rows(self, sql: str, params: tuple[Any, ...], ef_search: int) -> list[dict[str, Any]]:
        with self.db.transaction() as conn:
            conn.execute(f"SET LOCAL hnsw.ef_search = {int(ef_search)}")
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            return list(conn.execute(sql, params).fetchall())

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        empty = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        if self.state is None:
            self.refresh()
        if k <= 0 or self.count == 0 or (allowed is not None and len(allowed) == 0):
            return empty
        select = (
            "SELECT v.block_rowid, vector_send(v.vector) AS vector FROM block_vectors v "
            "JOIN blocks b ON b.rowid = v.block_rowid WHERE v.model = %s AND b.trusted = 1"
        )
        if allowed is not None and len(allowed) <= EXACT_BELOW:
            rows = self.db.rows(
                f"{select} AND v.block_rowid = ANY(%s)", (self.model, [int(r) for r in allowed])
            )
        else:
            dims, shortlist = self.dimensions, max(SHORTLIST, 2 * k)
            distance = f"v.vector::halfvec({dims}) <=> %s::halfvec({dims})"
            restrict = " AND v.block_rowid = ANY(%s)" if allowed is not None else ""
            extra: tuple[Any, ...] = ([int(r) for r in allowed],) if allowed is not None else ()
            rows = self._rows(
                f"{select}{restrict} ORDER BY {distance} LIMIT %s",
                (self.model, *extra, _literal(query), shortlist),
                2 * shortlist,
            )
        if not rows:
            return empty
        rows.sort(key=lambda r: int(r["block_rowid"]))
        rowids, matrix = _matrix(rows)
        scores = matrix @ np.asarray(query, dtype=np.float32)
        best = top_k(scores, k)
        return rowids[best], scores[best]

    def vectors(self, rowids: list[int]) -> np.ndarray | None:
        if not rowids:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        rows = self.db.rows(
            "SELECT block_rowid, vector_send(vector) AS vector FROM block_vectors "
            "WHERE model = %s AND block_rowid = ANY(%s)",
            (self.model, [int(r) for r in rowids]),
        )
        found = {int(r["block_rowid"]): _floats(r["vector"]) for r in rows}
        if any(int(r) not in found for r in rowids):
            return None
        return np.array([found[int(r)] for r in rowids], dtype=np.float32)
