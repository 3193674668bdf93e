"""Hybrid retrieval: BM25 (FTS5) and dense top-k, fused by RRF, diversified by MMR,
expanded with neighbouring blocks."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from citewise.embed.base import Embedder
from citewise.retrieval.fusion import mmr, reciprocal_rank_fusion
from citewise.retrieval.terms import content_terms
from citewise.store.library import BlockFilter, LibraryStore, StoredBlock
from citewise.store.vectors import load_matrix, vector_count

log = logging.getLogger(__name__)

CANDIDATES = 50
# Exact words matter most in papers (numbers, names, acronyms); meaning fills the gaps.
FUSION_WEIGHTS = (1.0, 0.5)


@dataclass
class Hit:
    """A retrieved block with how each retriever ranked it (1-based; None if it missed)."""

    block: StoredBlock
    score: float
    bm25_rank: int | None = None
    dense_rank: int | None = None
    dense_similarity: float | None = None
    context: list[StoredBlock] = field(default_factory=list)


class Retriever:
    """Searches one library; keeps the vector matrix warm between queries."""

    def __init__(self, store: LibraryStore, embedder: Embedder | None) -> None:
        self.store = store
        self.embedder = embedder
        self._matrix: tuple[np.ndarray, np.ndarray] | None = None
        self._matrix_count = -1

    def _vectors(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.embedder is None:
            return None
        count = vector_count(self.store.db, self.embedder.name)
        if count != self._matrix_count:
            self._matrix = load_matrix(self.store.db, self.embedder.name)
            self._matrix_count = count
        if self._matrix is None or len(self._matrix[0]) == 0:
            return None
        return self._matrix

    def dense(
        self, query: str, limit: int, where: BlockFilter
    ) -> tuple[list[int], dict[int, float], np.ndarray | None]:
        """(rowids by similarity, rowid -> similarity, query vector)."""
        vectors = self._vectors()
        if vectors is None or self.embedder is None:
            return [], {}, None
        rowids, matrix = vectors
        qvec = self.embedder.encode([query])[0]
        sims = matrix @ qvec
        if where.documents or where.pages or where.kinds:
            clause, params = where.sql()
            allowed = [
                r[0]
                for r in self.store.db.execute(
                    f"SELECT b.rowid FROM blocks b WHERE {clause}", params
                )
            ]
            sims = np.where(np.isin(rowids, allowed), sims, -np.inf)
        top = np.argsort(-sims)[:limit]
        top = top[np.isfinite(sims[top])]
        ranked = [int(rowids[i]) for i in top]
        return ranked, {int(rowids[i]): float(sims[i]) for i in top}, qvec

    def search(
        self,
        query: str,
        k: int = 8,
        where: BlockFilter | None = None,
        terms: list[str] | None = None,
        neighbours: int = 1,
    ) -> list[Hit]:
        """The k best blocks for `query`, diverse, each with its neighbouring blocks."""
        where = where or BlockFilter()
        terms = terms if terms is not None else content_terms(query)
        keyword = [rowid for rowid, _ in self.store.keyword_search(terms, CANDIDATES, where)]
        dense, similarity, _ = self.dense(query, CANDIDATES, where)
        fused = reciprocal_rank_fusion([keyword, dense], weights=FUSION_WEIGHTS)
        pool = sorted(fused, key=lambda r: -fused[r])[: max(3 * k, 20)]
        blocks = self.store.blocks_by_rowid(pool)
        pool = [r for r in pool if r in blocks]
        pool_vectors = self._pool_vectors(pool)
        order = mmr(pool, [fused[r] for r in pool], pool_vectors, k)
        keyword_rank = {r: i for i, r in enumerate(keyword, start=1)}
        dense_rank = {r: i for i, r in enumerate(dense, start=1)}
        hits = []
        for i in order:
            rowid = pool[i]
            block = blocks[rowid]
            hits.append(
                Hit(
                    block=block,
                    score=fused[rowid],
                    bm25_rank=keyword_rank.get(rowid),
                    dense_rank=dense_rank.get(rowid),
                    dense_similarity=similarity.get(rowid),
                    context=self.store.neighbours(block, neighbours) if neighbours else [],
                )
            )
        return hits

    def _pool_vectors(self, pool: list[int]) -> np.ndarray | None:
        vectors = self._vectors()
        if vectors is None or not pool:
            return None
        rowids, matrix = vectors
        positions = np.searchsorted(rowids, pool)
        positions = np.clip(positions, 0, len(rowids) - 1)
        if not np.array_equal(rowids[positions], np.asarray(pool)):
            return None  # some candidates have no vector yet: fall back to relevance order
        return matrix[positions]
