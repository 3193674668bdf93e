from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citewise.api import Library
from citewise.embed.base import DEFAULT_MODEL, MINILM, load_embedder
from citewise.embed.static import STATIC_MODEL
from citewise.ingest import embed_missing
from citewise.retrieval.hybrid import Retriever
from citewise.store.sqlite.vectors import vector_count
from tests.conftest import has_transformer

needs_transformer = pytest.mark.skipif(
    not has_transformer(), reason="the [transformer] extra (sentence-transformers) is not installed"
)


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
    assert not vectors[3].any()  # no token: a zero vector, not NaN
    assert embedder.encode([]).shape == (0, embedder.dimensions)


def test_vectors_carry_their_model_name_and_a_lost_model_reembeds(
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
        hits = Retriever(store, static).search("accuracy when the blocks are wet", k=3)
        assert any(h.dense_rank is not None for h in hits)

        # A library embedded only with an earlier default is re-embedded when it answers.
        earlier = "all-MiniLM-L6-v2-static256-v1"
        store.db.execute("INSERT INTO embedding_models VALUES (?, ?)", (earlier, static.dimensions))
        store.db.execute(
            "INSERT INTO block_vectors SELECT ?, block_rowid, vector FROM block_vectors"
            " WHERE model = ?",
            (earlier, STATIC_MODEL),
        )
        store.db.execute("DELETE FROM embedding_models WHERE name = ?", (STATIC_MODEL,))
        assert vector_count(store.db, STATIC_MODEL) == 0
        assert vector_count(store.db, earlier) == trusted
    with Library(library_dir) as lib:
        answer = lib.ask("What happens to accuracy when the blocks are wet?")
        assert vector_count(lib.store.db, STATIC_MODEL) == trusted
        assert "78.0%" in answer.answer


@needs_transformer
def test_the_transformer_model_embeds_again_and_searches_its_own_vectors(
    paper: Path, library_dir: Path
) -> None:
    with Library(library_dir) as lib:
        lib.ingest([paper])
        store = lib.store
        trusted = store.db.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()[0]
        static = lib.embedder
        minilm = load_embedder(MINILM)
        assert static is not None and minilm is not None
        assert embed_missing(store, minilm) == trusted  # another model: every block again
        assert vector_count(store.db, MINILM) == trusted
        for embedder in (minilm, static):
            hits = Retriever(store, embedder).search("accuracy when the blocks are wet", k=3)
            assert any(h.dense_rank is not None for h in hits)
