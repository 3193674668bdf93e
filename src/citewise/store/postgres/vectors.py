"""Block vectors in pgvector, one per block per embedding model, normalized float32.

Each model gets a partial HNSW index on `vector::halfvec(n)` with cosine distance when it
is registered: half the size of float32, and on normalized MiniLM-class vectors the
ranking it returns matches the exact one (measured in tests/store/postgres).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from citewise.store.filters import BlockFilter
from citewise.store.postgres.blocks import filter_clause
from citewise.store.postgres.connection import Database

# save_vectors' staging table: one per session, emptied when its transaction commits.
_STAGED = "pg_temp.citewise_staged_vectors"
_STAGE = (
    f"CREATE TEMP TABLE IF NOT EXISTS {_STAGED.split('.')[1]} "
    "(model TEXT, block_rowid BIGINT, vector vector) ON COMMIT DELETE ROWS"
)
# Without TEMP on the database (a lab may revoke it from the citewise role): the vectors go
# as two arrays, unnested by the upsert itself (text literals that read back exact float32).
_UNNEST = (
    "INSERT INTO block_vectors (model, block_rowid, vector) SELECT %s, r, v::vector "
    "FROM unnest(%s::bigint[], %s::text[]) AS s(r, v) ORDER BY r "
    "ON CONFLICT (model, block_rowid) DO UPDATE SET vector = excluded.vector"
)
_MAY_STAGE = "SELECT has_database_privilege(current_user, current_database(), 'TEMP')"
# Vectors per transaction of copy_vectors (10 x 1,000 took 0.56x the time of 1 x 10,000).
COPY_BATCH = 1000


def _index_name(model: str) -> str:
    return "block_vectors_hnsw_" + re.sub(r"[^a-z0-9]+", "_", model.lower()).strip("_")[:40]


def vector_literal(vector: np.ndarray) -> str:
    # numpy's float32 repr is the shortest that reads back to the same float32
    return "[" + ",".join(str(v) for v in np.asarray(vector, dtype=np.float32)) + "]"


@dataclass(frozen=True)
class HnswSettings:
    """How an HNSW index is built: pgvector's graph parameters and the server's memory and
    parallel workers for the build (None: the server's own setting)."""

    m: int = 16
    ef_construction: int = 64
    maintenance_work_mem: str | None = None
    workers: int | None = None


def create_index(
    conn: Any, model: str, dimensions: int, settings: HnswSettings | None = None
) -> None:
    """The model's partial HNSW index (cosine on halfvec), unless it exists."""
    settings = settings or HnswSettings()
    quoted = model.replace("'", "''")
    if settings.maintenance_work_mem:
        mem = re.sub(r"[^0-9A-Za-z]", "", settings.maintenance_work_mem)
        conn.execute(f"SET maintenance_work_mem = '{mem}'")
    if settings.workers is not None:
        conn.execute(f"SET max_parallel_maintenance_workers = {int(settings.workers)}")
    conn.execute(
        f"CREATE INDEX IF NOT EXISTS {_index_name(model)} ON block_vectors USING hnsw "
        f"((vector::halfvec({int(dimensions)})) halfvec_cosine_ops) "
        f"WITH (m = {int(settings.m)}, ef_construction = {int(settings.ef_construction)}) "
        f"WHERE model = '{quoted}'"
    )


def _copy_data(model: str, rowids: list[int], vectors: np.ndarray) -> bytes:
    """Rows (model, block_rowid, vector) in COPY's binary format, built by numpy: a
    vector field is pgvector's `vector_recv` form (int16 dimensions, int16 0, float32s)."""
    name = model.encode()
    n, dims = vectors.shape
    row = np.dtype(
        [
            ("fields", ">i2"),
            ("name_len", ">i4"),
            ("name", f"S{len(name)}"),
            ("rowid_len", ">i4"),
            ("rowid", ">i8"),
            ("vector_len", ">i4"),
            ("dims", ">i2"),
            ("unused", ">i2"),
            ("vector", ">f4", (dims,)),
        ]
    )
    rows = np.zeros(n, dtype=row)
    rows["fields"], rows["name_len"], rows["name"] = 3, len(name), name
    rows["rowid_len"], rows["rowid"] = 8, np.asarray(rowids, dtype=np.int64)
    rows["vector_len"], rows["dims"], rows["vector"] = 4 + 4 * dims, dims, vectors
    header = b"PGCOPY\n\xff\r\n\x00" + bytes(8)  # signature, flags, no extension
    return header + rows.tobytes() + b"\xff\xff"


class PostgresVectors:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._may_stage: bool | None = None  # TEMP privilege, asked once per store

    def may_stage(self) -> bool:
        """Whether this role may create the session's temporary staging table."""
        if self._may_stage is None:
            self._may_stage = bool(self.db.value(_MAY_STAGE))
        return self._may_stage

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
        """Add or replace vectors (normalized float32, exact): binary COPY into a staging
        table of the session, then one upsert statement, so the change counter's trigger
        and the parse of each vector happen once per call, not once per row. A role
        without TEMP on the database sends them as arrays to one upsert instead."""
        vectors = np.asarray(vectors, dtype=np.float32)
        vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        last = {int(r): i for i, r in enumerate(rowids)}  # a rowid given twice: the last wins
        if len(last) < len(rowids):
            rowids, vectors = list(last), vectors[list(last.values())]
        if not len(rowids):
            return
        ids = [int(r) for r in rowids]
        if not self.may_stage():
            literals = [vector_literal(v) for v in vectors]
            with self.db.transaction() as conn:
                conn.execute(_UNNEST, (model, ids, literals))
            return
        with self.db.transaction() as conn, conn.cursor() as cur:
            cur.execute(_STAGE)
            with cur.copy(f"COPY {_STAGED} FROM STDIN (FORMAT BINARY)") as copy:
                copy.write(_copy_data(model, ids, vectors))
            cur.execute(
                f"INSERT INTO block_vectors (model, block_rowid, vector) SELECT model, "
                f"block_rowid, vector FROM {_STAGED} ORDER BY block_rowid "
                "ON CONFLICT (model, block_rowid) DO UPDATE SET vector = excluded.vector"
            )

    def copy_vectors(self, model: str, rowids: list[int], vectors: np.ndarray) -> None:
        """Add many new vectors at once (COPY, binary): loading a large library. Unlike
        save_vectors no row may exist yet; normalized the same way. Committed every
        COPY_BATCH rows (chosen when the change counter's trigger still ran per row, and
        each update of its row within one transaction cost more than the last; it now runs
        once per COPY)."""
        vectors = np.asarray(vectors, dtype=np.float32)
        vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        sql = "COPY block_vectors (model, block_rowid, vector) FROM STDIN (FORMAT BINARY)"
        for start in range(0, len(rowids), COPY_BATCH):
            end = start + COPY_BATCH
            with self.db.transaction() as conn, conn.cursor() as cur, cur.copy(sql) as copy:
                copy.write(_copy_data(model, rowids[start:end], vectors[start:end]))

    def drop_index(self, model: str) -> None:
        """Drop the model's HNSW index (before a bulk load; build_index puts it back)."""
        with self.db.connect() as conn:
            conn.execute(f"DROP INDEX IF EXISTS {_index_name(model)}")

    def build_index(self, model: str, settings: HnswSettings | None = None) -> None:
        """(Re)build the model's HNSW index over the vectors there now."""
        dims = self.model_dimensions(model)
        if dims is None:
            return
        self.drop_index(model)
        with self.db.connect() as conn:
            create_index(conn, model, dims, settings)
            conn.execute("RESET maintenance_work_mem")
            conn.execute("RESET max_parallel_maintenance_workers")

    def load_matrix(self, model: str) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, float32 matrix) of the model's vectors of trusted blocks, by rowid."""
        rowids, parts, last = [], [], -1
        while True:
            rows = self.db.rows(
                "SELECT v.block_rowid, vector_send(v.vector) AS vector FROM block_vectors v "
                "JOIN blocks b ON b.rowid = v.block_rowid WHERE v.model = %s "
                "AND b.trusted = 1 AND v.block_rowid > %s ORDER BY v.block_rowid LIMIT 50000",
                (model, last),
            )
            if not rows:
                break
            ids, matrix = matrix_of(rows)
            rowids.append(ids)
            parts.append(matrix)
            last = int(ids[-1])
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
        return np.concatenate(rowids), np.concatenate(parts)

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
                (vector_literal(query), model, *params, vector_literal(query), k),
            ).fetchall()
        return [(int(r["block_rowid"]), float(r["score"])) for r in rows]


def _floats(sent: bytes) -> np.ndarray:
    """A vector from pgvector's binary form (`vector_send`: two int16, then big-endian
    float32s): 3x quicker to read than a float4[] or the text form."""
    return np.frombuffer(bytes(sent), dtype=">f4", offset=4).astype(np.float32)


def matrix_of(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    rowids = np.fromiter((r["block_rowid"] for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.array([_floats(r["vector"]) for r in rows], dtype=np.float32)
    return rowids, matrix
