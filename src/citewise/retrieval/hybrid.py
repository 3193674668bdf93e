"""Hybrid retrieval: BM25 and dense top-k, fused by min-max normalized scores (0.6/0.4),
diversified by MMR, expanded with neighbouring blocks.

Both retrievers read indexes that follow the store's change counters: BM25 over
memory-mapped postings in the store's local folder (keyword_index.py), and the store's
dense index: on SQLite sign-bit vector codes with exact float rescoring
(store/sqlite/vector_index.py), on PostgreSQL pgvector's HNSW index (store/postgres/vectors.py).
Each stays in the low milliseconds at 1M blocks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from citewise.retrieval.fusion import convex_fusion, mmr
from citewise.retrieval.keyword_index import KeywordIndex
from citewise.retrieval.postings import Cover
from citewise.retrieval.terms import content_terms
from citewise.store.filters import BlockFilter
from citewise.store.protocols import DenseIndex, Store
from citewise.store.quantize import row_dots
from citewise.store.sqlite.library import StoredBlock

if TYPE_CHECKING:  # the model's module is imported by whoever loads one
    from citewise.embed.base import Embedder

log = logging.getLogger(__name__)

CANDIDATES = 50
QUERY_CACHE = 256
# Exact words matter most in papers (numbers, names, acronyms); meaning fills the gaps.
FUSION_WEIGHTS = (0.6, 0.4)


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
    """Searches one library; keeps the model and the mapped indexes warm."""

    def __init__(self, store: Store, embedder: Embedder | None) -> None:
        self.store = store
        self.embedder = embedder
        self._index = store.dense_index(embedder.name) if embedder else None
        self._keywords = KeywordIndex(store.directory)
        self._queries: dict[str, np.ndarray] = {}

    def refresh(self, cover: Cover | None = None) -> None:
        """Bring both indexes up to date now (otherwise the next search does it); `cover`:
        blocks analysed ahead for the keyword index (keyword_index.TermsAhead.cover)."""
        self._keywords.refresh(self.store, cover)
        self._vectors()

    def _allowed(self, where: BlockFilter) -> np.ndarray | None:
        """Rowids a filtered search may return; None when only trust restricts it."""
        if not (where.documents or where.pages or where.kinds):
            return None
        return self.store.candidates(where)

    def keyword(self, terms: list[str], limit: int, where: BlockFilter) -> dict[int, float]:
        """rowid -> BM25 score of the best matches for any of `terms`, best first."""
        self._keywords.refresh(self.store)
        return dict(self._keywords.search(terms, limit, self._allowed(where)))

    def document_frequencies(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        """(trusted blocks, trusted blocks holding each term) in the library, for IDF."""
        self._keywords.refresh(self.store)
        return len(self._keywords), self._keywords.frequencies(terms)

    def document_term_counts(
        self, terms: list[str], documents: list[str]
    ) -> dict[str, tuple[int, dict[str, int]]]:
        """Per document: (trusted blocks, those holding each term), for in-paper IDF; read
        from the keyword postings, so the cost follows the terms, not the library."""
        self._keywords.refresh(self.store)
        counts: dict[str, tuple[int, dict[str, int]]] = {}
        for doc_id in documents:
            allowed = self.store.candidates(BlockFilter(documents=(doc_id,)))
            counts[doc_id] = (len(allowed), self._keywords.frequencies(terms, allowed))
        return counts

    def _vectors(self) -> DenseIndex | None:
        """The vector index, current with the store (one small query when nothing changed)."""
        if self._index is None:
            return None
        self._index.refresh()
        return self._index if len(self._index) else None

    def query_vector(self, query: str) -> np.ndarray | None:
        """The query's embedding, remembered for repeated questions and sub-questions."""
        if self.embedder is None:
            return None
        if query not in self._queries:
            if len(self._queries) >= QUERY_CACHE:
                self._queries.pop(next(iter(self._queries)))
            self._queries[query] = self.embedder.encode([query])[0]
        return self._queries[query]

    def similarities(self, query: str, texts: list[str]) -> np.ndarray | None:
        """Cosine of the query and each text under the library's embedding model (None
        without one): how close in meaning a candidate sentence is to the question."""
        qvec = self.query_vector(query)
        if qvec is None or self.embedder is None or not texts:
            return None
        return np.asarray(self.embedder.encode(texts) @ qvec, dtype=np.float32)

    def dense(
        self, query: str, limit: int, where: BlockFilter, index: DenseIndex | None
    ) -> tuple[list[int], dict[int, float], np.ndarray | None]:
        """(rowids by similarity, rowid -> similarity, query vector) from `index`."""
        if index is None:
            return [], {}, None
        qvec = self.query_vector(query)
        assert qvec is not None
        rowids, sims = index.search(qvec, limit, self._allowed(where))
        ranked = [int(r) for r in rowids]
        return ranked, dict(zip(ranked, (float(s) for s in sims), strict=True)), qvec

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
        keyword = self.keyword(terms, CANDIDATES, where)
        index = self._vectors()  # one freshness check serves the whole search
        _, similarity, qvec = self.dense(query, CANDIDATES, where, index)
        fused = convex_fusion(
            [keyword, dense_scores(similarity, list(keyword), qvec, index)], FUSION_WEIGHTS
        )
        # Every candidate read, so equal scores are ordered by the block's place in the
        # library (document ID, then reading order), never by when it was stored.
        blocks = self.store.blocks_by_rowid(sorted(fused))
        place = {r: (b.document_id, b.ordinal) for r, b in blocks.items()}
        pool = sorted(place, key=lambda r: (-fused[r], place[r]))[: max(3 * k, 20)]
        # None when some candidates have no vector yet: MMR then keeps relevance order.
        pool_vectors = index.vectors(pool) if index is not None and pool else None
        order = mmr(pool, [fused[r] for r in pool], pool_vectors, k)
        keyword_rank = _ranks(keyword, place)
        dense_rank = _ranks(similarity, place)
        chosen = [pool[i] for i in order]
        contexts = (
            self.store.neighbours_of([blocks[r] for r in chosen], neighbours)
            if neighbours
            else [[] for _ in chosen]
        )
        return [
            Hit(
                block=blocks[rowid],
                score=fused[rowid],
                bm25_rank=keyword_rank.get(rowid),
                dense_rank=dense_rank.get(rowid),
                dense_similarity=similarity.get(rowid),
                context=context,
            )
            for rowid, context in zip(chosen, contexts, strict=True)
        ]


def _ranks(scores: dict[int, float], place: dict[int, tuple[str, int]]) -> dict[int, int]:
    """1-based rank of each candidate by score, equal scores by their place in the library."""
    ranked = sorted(scores, key=lambda r: (-scores[r], place.get(r, ("", r))))
    return {r: i for i, r in enumerate(ranked, start=1)}


def dense_scores(
    similarity: dict[int, float],
    others: list[int],
    qvec: np.ndarray | None,
    index: DenseIndex | None,
) -> dict[int, float]:
    """The dense top-k's similarities, plus the exact similarity of keyword candidates
    the dense shortlist missed (a missing score is unknown, not zero), floored at the
    shortlist's lowest so normalization keeps the shortlist's scale."""
    missing = [r for r in others if r not in similarity]
    if index is None or qvec is None or not missing or not similarity:
        return similarity
    vectors = index.vectors(missing)
    if vectors is None:
        return similarity
    low = min(similarity.values())
    scores = dict(similarity)
    for rowid, sim in zip(missing, row_dots(vectors, qvec), strict=True):
        scores[rowid] = max(float(sim), low)
    return scores
