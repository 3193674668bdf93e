"""Loading many vectors at once into PostgreSQL: binary COPY, then the HNSW index built over
them, whose search (shortlist, exact rescoring) finds what exact search finds."""

from __future__ import annotations

import numpy as np

from citewise.store.postgres import PostgresLibraryStore
from citewise.store.postgres.vectors import HnswSettings
from citewise.store.quantize import top_k
from tests.store.contract.conftest import paper


def test_copied_vectors_read_back_and_the_rebuilt_index_matches_exact_search(
    pg_url: str,
) -> None:
    rng = np.random.default_rng(3)
    with PostgresLibraryStore(pg_url) as store:
        for n in range(3):
            store.save_document(paper(f"{n}a", f"Paper {n}", [f"b{i}" for i in range(400)]))
        store.vectors.register_model("m-1", 32)
        store.vectors.drop_index("m-1")
        rowids = [r for r, _ in store.vectors.blocks_without_vectors("m-1")]
        vectors = rng.normal(size=(len(rowids), 32)).astype(np.float32)
        store.vectors.copy_vectors("m-1", rowids[:700], vectors[:700])
        store.vectors.copy_vectors("m-1", rowids[700:], vectors[700:])
        assert not store.vectors.has_missing_vectors("m-1")
        found, matrix = store.vectors.load_matrix("m-1")
        assert list(found) == rowids
        normalized = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        assert np.array_equal(matrix, normalized.astype(np.float32))  # float32 exact
        store.vectors.build_index("m-1", HnswSettings(m=8, ef_construction=32, workers=0))
        names = [r["indexname"] for r in store.db.rows(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'block_vectors' "
            "AND indexdef LIKE %s", ("%USING hnsw%",))]  # fmt: skip
        assert names == ["block_vectors_hnsw_m_1"]
        index = store.dense_index("m-1")
        index.refresh()
        assert len(index) == 1200
        recalls = []
        for query in normalized[rng.integers(0, 1200, size=20)] + 0.3 * rng.normal(size=(20, 32)):
            query = (query / np.linalg.norm(query)).astype(np.float32)
            exact = set(found[top_k(matrix @ query, 10)].tolist())
            got, scores = index.search(query, 10)
            assert np.all(np.diff(scores) <= 1e-6)  # best first
            recalls.append(len(exact & set(got.tolist())) / 10)
        assert np.mean(recalls) >= 0.95
