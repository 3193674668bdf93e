"""Dense retrieval over pgvector (the DenseIndex protocol).

pgvector's HNSW index (halfvec, cosine) shortlists; the shortlist's float32 vectors are
rescored exactly here, ties broken by rowid, so the ranking equals the SQLite library's
exact rescoring whenever the shortlist holds it. The vectors a search has read are kept
until the next search (or a move of the model's change counter), so the retriever's later
steps (keyword candidates' similarities, MMR over the pool) read no vector twice.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from citewise.store.postgres.connection import Database
from citewise.store.postgres.vectors import matrix_of, vector_literal
from citewise.store.quantize import top_k

# A filter allowing at most this many blocks is scored exactly (as SQLite does), not by HNSW.
EXACT_BELOW = 1000
# Rows the HNSW index shortlists per search before exact float32 rescoring.
SHORTLIST = 100
# HNSW candidates per shortlisted row: its recall at a fixed ef_search falls as the index
# grows, so a large one searches wider (benchmarks/postgres_scale.py, 1M blocks: dense
# recall@10 0.952 at 2x, 0.971 at 4x; hybrid p50 50 vs 64 ms).
EF_PER_ROW, EF_PER_ROW_LARGE, LARGE = 2, 4, 500_000
# Vectors kept between the steps of searches (256 float32 each: ~20 MB at most).
CACHE_LIMIT = 20_000

_SELECT = (
    "SELECT v.block_rowid, vector_send(v.vector) AS vector FROM block_vectors v "
    "JOIN blocks b ON b.rowid = v.block_rowid WHERE v.model = %s AND b.trusted = 1"
)


class PostgresDenseIndex:
    """The model's vectors as a DenseIndex. `shortlist` rows come from HNSW per search,
    searched with `ef_search` candidates (None: `ef_for`'s)."""

    def __init__(self, db: Database, model: str) -> None:
        self.db = db
        self.model = model
        self.state: tuple[int, int] | None = None
        self.count = 0
        self.dimensions = 0
        self.shortlist = SHORTLIST
        self.ef_search: int | None = None
        self._cache: dict[int, np.ndarray] = {}

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
            self.dimensions, self.state, self._cache = int(dims or 0), state, {}

    def __len__(self) -> int:
        return self.count

    def ef_for(self, shortlist: int) -> int:
        """The ef_search a search for `shortlist` rows uses (at least the shortlist)."""
        per_row = EF_PER_ROW_LARGE if self.count >= LARGE else EF_PER_ROW
        return max(self.ef_search or per_row * shortlist, shortlist)

    def _remember(self, rowids: np.ndarray, matrix: np.ndarray) -> None:
        if len(self._cache) + len(rowids) > CACHE_LIMIT:
            self._cache = {}
        cache = self._cache
        for rowid, vector in zip(rowids.tolist(), matrix, strict=True):
            cache[rowid] = vector

    def _shortlisted(self, query: np.ndarray, k: int, allowed: np.ndarray | None) -> list[Any]:
        """The HNSW shortlist's rows: settings, query and commit in one round trip."""
        dims, shortlist = self.dimensions, max(self.shortlist, 2 * k)
        ef_search = self.ef_for(shortlist)
        distance = f"v.vector::halfvec({dims}) <=> %s::halfvec({dims})"
        restrict = " AND v.block_rowid = ANY(%s)" if allowed is not None else ""
        extra: tuple[Any, ...] = ([int(r) for r in allowed],) if allowed is not None else ()
        sql = f"{_SELECT}{restrict} ORDER BY {distance} LIMIT %s"
        params = (self.model, *extra, vector_literal(query), shortlist)
        with self.db.connect() as conn:
            # One round trip: the settings, the query and their reset go out together (a
            # transaction's BEGIN and COMMIT would each wait for the previous answer).
            with conn.pipeline():
                conn.execute(f"SET hnsw.ef_search = {int(ef_search)}")
                conn.execute("SET hnsw.iterative_scan = relaxed_order")
                cursor = conn.execute(sql, params)
                conn.execute("RESET hnsw.ef_search")
                conn.execute("RESET hnsw.iterative_scan")
            return list(cursor.fetchall())

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        empty = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        if self.state is None:
            self.refresh()
        if k <= 0 or self.count == 0 or (allowed is not None and len(allowed) == 0):
            return empty
        self._cache = {}  # vectors are kept from one search's start to the next's
        if allowed is not None and len(allowed) <= EXACT_BELOW:
            rows = self.db.rows(
                f"{_SELECT} AND v.block_rowid = ANY(%s)", (self.model, [int(r) for r in allowed])
            )
        else:
            rows = self._shortlisted(query, k, allowed)
        if not rows:
            return empty
        rows.sort(key=lambda r: int(r["block_rowid"]))
        rowids, matrix = matrix_of(rows)
        self._remember(rowids, matrix)
        scores = matrix @ np.asarray(query, dtype=np.float32)
        best = top_k(scores, k)
        return rowids[best], scores[best]

    def vectors(self, rowids: list[int]) -> np.ndarray | None:
        if not rowids:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        wanted = [int(r) for r in rowids]
        cache = self._cache
        found = {r: cache[r] for r in wanted if r in cache}
        missing = [r for r in dict.fromkeys(wanted) if r not in found]
        if missing:
            rows = self.db.rows(
                "SELECT block_rowid, vector_send(vector) AS vector FROM block_vectors "
                "WHERE model = %s AND block_rowid = ANY(%s)",
                (self.model, missing),
            )
            if rows:
                ids, matrix = matrix_of(rows)
                found.update(zip(ids.tolist(), matrix, strict=True))
                self._remember(ids, matrix)
        if any(r not in found for r in wanted):
            return None
        return np.array([found[r] for r in wanted], dtype=np.float32)
