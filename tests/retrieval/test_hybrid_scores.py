"""Hybrid fusion scores keyword candidates the dense shortlist missed by their real cosine."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from citewise.retrieval.hybrid import Retriever, dense_scores
from citewise.store.sqlite.library import LibraryStore
from tests.retrieval.test_vector_index import DIMS, _document, _embed


class RandomVectors:
    """The embedder a Retriever holds; these tests hand it query vectors directly."""

    name = "m"
    dimensions = DIMS

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        raise AssertionError("not used: the query vector is given")


def test_keyword_candidates_get_their_exact_similarity_floored_at_the_shortlist(
    tmp_path: Path,
) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("basalt", 40))
    _embed(store, "m", 7)
    retriever = Retriever(store, RandomVectors())  # type: ignore[arg-type]
    index = retriever._vectors()
    assert index is not None
    rowids = [int(r) for r in index.rowids]
    query = index.vectors([rowids[3]])
    assert query is not None
    qvec = query[0] / np.linalg.norm(query[0])
    top, sims = index.search(qvec, 5)
    shortlist = {int(r): float(s) for r, s in zip(top, sims, strict=True)}
    outside = [r for r in rowids if r not in shortlist]
    vectors = index.vectors(outside)
    assert vectors is not None
    exact = dict(zip(outside, (float(s) for s in vectors @ qvec), strict=True))

    scores = dense_scores(shortlist, outside[:10], qvec, index)
    low = min(shortlist.values())
    assert {r: scores[r] for r in shortlist} == shortlist  # the shortlist keeps its scores
    for rowid in outside[:10]:
        assert np.isclose(scores[rowid], max(exact[rowid], low))
    assert set(scores) == set(shortlist) | set(outside[:10])
    # nothing missing, or no query vector: the shortlist as it was
    assert dense_scores(shortlist, list(shortlist), qvec, index) == shortlist
    assert dense_scores(shortlist, outside, None, index) == shortlist
