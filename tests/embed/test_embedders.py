from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citewise.api import Library
from citewise.embed.base import DEFAULT_MODEL, MINILM, load_embedder
from citewise.embed.static import STATIC_MODEL
from citewise.ingest import embed_missing
from citewise.retrieval.hybrid import Retriever
from citewise.store.vectors import vector_count
from tests.conftest import has_embedder

pytestmark = pytest.mark.skipif(not has_embedder(), reason="embedding model not installed")


def test_static_model_is_the_default_and_encodes_normalized_vectors() -> None:
    assert DEFAULT_MODEL == STATIC_MODEL
    embedder = load_embedder(STATIC_MODEL)
    assert embedder is not None and embedder.name == STATIC_MODEL
    vectors = embedder.encode(
        [
            "The classifier reached an accuracy of 93.4% on held-out granite blocks.",
            "On the held-out blocks the classifier was 93.4% accurate.",
            "The telescope observed a bright supernova remnant.",
            "",
        ]
    )
    assert vectors.shape == (4, embedder.dimensions) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    assert embedder.encode([]).shape == (0, embedder.dimensions)


def test_vectors_carry_their_model_name_and_a_new_model_reembeds(
    paper: Path, library_dir: Path
) -> None:
    with Library(library_dir) as lib:
        report = lib.ingest([paper])
        store = lib.store
        trusted = store.db.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()[0]
        assert report.embedding_model == STATIC_MODEL
        assert vector_count(store.db, STATIC_MODEL) == trusted
        static = lib.embedder
        assert static is not None
        assert embed_missing(store, static) == 0  # nothing left to do

        minilm = load_embedder(MINILM)
        assert minilm is not None
        assert embed_missing(store, minilm) == trusted  # another model: every block again
        assert vector_count(store.db, MINILM) == trusted
        # Each model searches its own vectors.
        for embedder in (minilm, static):
            hits = Retriever(store, embedder).search("accuracy when the blocks are wet", k=3)
            assert any(h.dense_rank is not None for h in hits)

        # A library embedded only with an earlier default is re-embedded when it answers.
        store.db.execute("DELETE FROM embedding_models WHERE name = ?", (STATIC_MODEL,))
        assert vector_count(store.db, STATIC_MODEL) == 0
    with Library(library_dir) as lib:
        answer = lib.ask("What happens to accuracy when the blocks are wet?")
        assert vector_count(lib.store.db, STATIC_MODEL) == trusted
        assert "78.0%" in answer.answer
