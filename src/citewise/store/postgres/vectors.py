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
