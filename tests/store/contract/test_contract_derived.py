"""The contract of the repositories the agent keeps derived data in: vectors, the dense
index, the learned vocabulary and review log, matrix cells; on every store."""

from __future__ import annotations

import numpy as np

from citewise.store.protocols import Store
from citewise.store.sqlite.vocabulary import Term
from tests.store.contract.conftest import paper


def _stored(store: Store) -> str:
    return store.save_document(paper("a" * 64, "Granite sorting", ["Intro", "Probes", "Echo"]))


def test_vectors_are_saved_once_per_block_and_model_and_searched(store: Store) -> None:
    doc = _stored(store)
    assert not store.vectors.any_vectors()
    store.vectors.register_model("m", 4)
    assert store.vectors.model_dimensions("m") == 4
    todo = store.vectors.blocks_without_vectors("m")
    assert [text for _, text in todo] == ["Intro", "Probes", "Echo"]
    assert store.vectors.has_missing_vectors("m")
    vectors = np.eye(4, dtype=np.float32)[:3] * 3  # normalized on save
    store.vectors.save_vectors("m", [r for r, _ in todo], vectors)
    assert not store.vectors.has_missing_vectors("m") and store.vectors.any_vectors()
    index = store.dense_index("m")
    index.refresh()
    assert len(index) == 3
    rowids, sims = index.search(np.array([0, 1, 0, 0], dtype=np.float32), 2)
    assert int(rowids[0]) == todo[1][0] and np.isclose(sims[0], 1.0)
    restricted, _ = index.search(
        np.array([0, 1, 0, 0], dtype=np.float32), 2, np.array([todo[2][0]])
    )
    assert [int(r) for r in restricted] == [todo[2][0]]
    got = index.vectors([todo[2][0], todo[0][0]])
    assert got is not None and np.allclose(got, np.eye(4, dtype=np.float32)[[2, 0]])
    assert doc


def test_the_dense_index_reads_vectors_saved_after_a_search(store: Store) -> None:
    _stored(store)
    store.vectors.register_model("m", 4)
    todo = [r for r, _ in store.vectors.blocks_without_vectors("m")]
    store.vectors.save_vectors("m", todo, np.eye(4, dtype=np.float32)[:3])
    index = store.dense_index("m")
    index.refresh()
    query = np.array([0, 0, 1, 0], dtype=np.float32)
    assert [int(r) for r in index.search(query, 3)[0]][0] == todo[2]
    first = index.vectors(todo)
    assert first is not None and np.allclose(first, np.eye(4)[:3])
    store.vectors.save_vectors("m", [todo[0]], np.array([[0, 0, 0, 1]], dtype=np.float32))
    index.refresh()  # the change counter moved: nothing read before is served
    again = index.vectors(todo)
    assert again is not None and np.allclose(again[0], [0, 0, 0, 1])
    assert index.vectors([*todo, 10**9]) is None  # a block without a vector


def test_vocabulary_and_reviews(store: Store) -> None:
    doc = _stored(store)
    sha = store.document(doc).sha256  # type: ignore[union-attr]
    assert store.vocabulary.unlearned_documents() == [(doc, sha)]
    terms = [Term(doc, "abbreviation", "LR", "learning rate"), Term(doc, "name", "S2ORC")]
    store.vocabulary.save_terms(doc, sha, terms)
    assert store.vocabulary.unlearned_documents() == []
    assert set(store.vocabulary.all_terms()) == set(terms)
    store.vocabulary.log_review("Which probe?", True, "no_evidence", 0.1, "", [])
    store.vocabulary.log_review("What echo?", False, None, 0.5, "The echo.", ["b1"])
    latest = store.vocabulary.reviews(1)
    assert [(r.question, r.refused, r.citations) for r in latest] == [("What echo?", False, ["b1"])]


def test_matrix_cells_take_a_version_as_wide_as_sqlite_integers(store: Store) -> None:
    doc = _stored(store)
    sha = store.document(doc).sha256  # type: ignore[union-attr]
    version = 2**32 - 7  # an extractor version mixed with a model label's CRC-32
    cell = {"value": "SGD", "quote": "trained with SGD", "page": 1}
    store.matrix_cells.save(doc, sha, version, {"optimizer": cell, "datasets": None})
    assert store.matrix_cells.cells(doc, sha, version) == {"optimizer": cell, "datasets": None}
    assert store.matrix_cells.cells(doc, sha, version - 1) == {}
