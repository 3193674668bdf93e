"""Embedding servers: Ollama's shape replayed through httpx.MockTransport, and the real
OpenAI-compatible `/v1/embeddings` of `python -m llama_cpp.server --embedding true`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest

from citewise.api import Library
from citewise.embed.remote import (
    EmbeddingDimensionsError,
    EmbeddingError,
    EmbeddingUnreachableError,
    HttpEmbedder,
    MalformedEmbeddingError,
    UnknownEmbeddingModelError,
    parse_openai_embeddings,
)
from citewise.embed.settings import EmbedSettings, load_embed_settings, open_embedder
from citewise.ingest import embed_missing
from citewise.retrieval.hybrid import Retriever
from citewise.store.sqlite.vectors import model_dimensions, vector_count
from tests.conftest import has_embedder
from tests.loopback import free_port
from tests.pdfs import write_paper


def ollama_transport(
    seen: list[dict[str, object]], vectors: dict[str, list[float]] | None = None
) -> httpx.MockTransport:
    """Answers like Ollama's /api/embed: {"model", "embeddings": [[...]], durations}."""

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append({"url": str(request.url), **body})
        if body["model"] != "nomic-embed-text":
            return httpx.Response(
                404, json={"error": f'model "{body["model"]}" not found, try pulling it first'}
            )
        table = vectors or {}
        rows = [table.get(t, [1.0, float(len(t)), 0.0, 2.0]) for t in body["input"]]
        return httpx.Response(
            200,
            json={"model": body["model"], "embeddings": rows, "total_duration": 14_000_000,
                  "load_duration": 1_000_000, "prompt_eval_count": 7},
        )  # fmt: skip

    return httpx.MockTransport(handler)


def test_ollama_replay_batches_normalizes_and_names_the_model() -> None:
    seen: list[dict[str, object]] = []
    embedder = HttpEmbedder(
        "ollama", "nomic-embed-text", url="http://gpu-box:11434/v1", batch_size=2,
        transport=ollama_transport(seen, {"a": [3.0, 4.0, 0.0, 0.0]}),
    )  # fmt: skip
    vectors = embedder.encode(["a", "bb", "", "x" * 5000])
    assert embedder.name == "ollama:nomic-embed-text" and embedder.dimensions == 4
    assert vectors.shape == (4, 4) and vectors.dtype == np.float32
    assert np.allclose(vectors[0], [0.6, 0.8, 0.0, 0.0])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert [s["url"] for s in seen] == ["http://gpu-box:11434/api/embed"] * 2  # /v1 dropped
    assert seen[0]["input"] == ["a", "bb"] and seen[0]["truncate"] is True
    assert seen[1]["input"] == [" ", "x" * 2000]  # empty texts padded, long ones cut


def test_ollama_unknown_model_says_to_pull_it() -> None:
    embedder = HttpEmbedder("ollama", "bge-m3", transport=ollama_transport([]))
    with pytest.raises(UnknownEmbeddingModelError, match="bge-m3") as info:
        embedder.encode(["text"])
    assert "ollama pull bge-m3" in info.value.hint


def test_unreachable_server_names_the_url_and_how_to_start_it() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(EmbeddingUnreachableError, match=url.removesuffix("/v1")) as info:
        HttpEmbedder("openai", "nomic", url=url, timeout=2).encode(["text"])
    assert "llama_cpp.server" in info.value.hint and "--embedding true" in info.value.hint
    with pytest.raises(EmbeddingUnreachableError) as info:
        HttpEmbedder("ollama", "nomic", url=url.removesuffix("/v1"), timeout=2).encode(["t"])
    assert "ollama serve" in info.value.hint


def test_wrong_dimensions_are_an_error_never_stored() -> None:
    embedder = HttpEmbedder(
        "ollama", "nomic-embed-text", dimensions=768, transport=ollama_transport([])
    )
    with pytest.raises(EmbeddingDimensionsError, match="4-dimensional.*768 expected"):
        embedder.encode(["text"])
    # The width a library already stores for the model is the one expected.
    stored = open_embedder(
        EmbedSettings(model="ollama:nomic-embed-text"),
        stored_dimensions={"ollama:nomic-embed-text": 768}.get,
        transport=ollama_transport([]),
    )
    assert stored is not None and stored.dimensions == 768
    with pytest.raises(EmbeddingDimensionsError, match="nomic-embed-text"):
        stored.encode(["text"])
    ragged = HttpEmbedder(
        "ollama", "nomic-embed-text",
        transport=ollama_transport([], {"a": [1.0, 2.0], "b": [1.0, 2.0, 3.0]}),
    )  # fmt: skip
    with pytest.raises(EmbeddingDimensionsError):
        ragged.encode(["a", "b"])


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("<html>proxy error</html>", "Expecting value"),
        ({"data": [{"embedding": [0.1, 0.2]}]}, "1 embeddings for 2 inputs"),
        ({"data": [{"embedding": [0.1, "x"]}, {"embedding": [0.1, 0.2]}]}, "not a finite"),
        ({"data": [{"embedding": [0.1, None]}, {"embedding": [1, 2]}]}, "not a finite"),
        ({"object": "list"}, "no 'data' list"),
    ],
)
def test_malformed_replies_are_named(reply: object, why: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        text = reply if isinstance(reply, str) else json.dumps(reply)
        return httpx.Response(200, text=text)

    embedder = HttpEmbedder("openai", "m", url="http://embed.local/v1",
                            transport=httpx.MockTransport(handler))  # fmt: skip
    with pytest.raises(MalformedEmbeddingError, match="http://embed.local/v1/embeddings") as info:
        embedder.encode(["a", "b"])
    assert why in info.value.message


def test_openai_shape_is_ordered_by_index_and_per_token_vectors_are_pooled() -> None:
    body = {"data": [{"index": 1, "embedding": [0.0, 1.0]},
                     {"index": 0, "embedding": [[1.0, 0.0], [3.0, 2.0]]}]}  # fmt: skip
    assert parse_openai_embeddings(body, 2) == [[2.0, 1.0], [0.0, 1.0]]


def test_settings_come_from_the_embed_table_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITEWISE_EMBED", raising=False)
    monkeypatch.delenv("CITEWISE_EMBED_URL", raising=False)
    monkeypatch.setenv("CITEWISE_CONFIG", str(tmp_path / "citewise.toml"))
    (tmp_path / "citewise.toml").write_text(
        '[embed]\nmodel = "ollama:nomic-embed-text"\nurl = "http://gpu:11434"\ndimensions = 4\n'
    )
    settings = load_embed_settings()
    assert (settings.model, settings.url, settings.dimensions) == (
        "ollama:nomic-embed-text", "http://gpu:11434", 4,
    )  # fmt: skip
    embedder = open_embedder(settings, transport=ollama_transport([]))
    assert isinstance(embedder, HttpEmbedder) and embedder.encode(["a"]).shape == (1, 4)
    monkeypatch.setenv("CITEWISE_EMBED", "openai:bge")
    monkeypatch.setenv("CITEWISE_EMBED_URL", "http://other/v1")
    chosen = load_embed_settings()
    assert (chosen.model, chosen.url, chosen.dimensions) == ("openai:bge", "http://other/v1", None)
    with pytest.raises(EmbeddingError, match="unknown embedding model 'bert'"):
        open_embedder(EmbedSettings(model="bert"))
    (tmp_path / "citewise.toml").write_text('[embed]\nmodel = "ollama:x"\ndimensions = "many"\n')
    with pytest.raises(Exception, match="embed"):
        load_embed_settings()


# --- the real server --------------------------------------------------------------------


@pytest.fixture
def remote_env(embedding_server: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("CITEWISE_EMBED", "openai:smollm2")
    monkeypatch.setenv("CITEWISE_EMBED_URL", embedding_server)
    monkeypatch.delenv("CITEWISE_CONFIG", raising=False)
    yield embedding_server


def test_llama_cpp_server_embeddings_are_stored_searched_and_swapped(
    remote_env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paper = write_paper(tmp_path / "granite.pdf")
    with Library(tmp_path / "lib") as lib:
        report = lib.ingest([paper])
        db = lib.store.db
        trusted = db.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()[0]
        assert report.embedding_model == "openai:smollm2" and report.embedded_blocks == trusted
        assert vector_count(db, "openai:smollm2") == trusted
        assert model_dimensions(db, "openai:smollm2") == 576  # SmolLM2-135M's hidden size
        embedder = lib.embedder
        assert embedder is not None
        hits = Retriever(lib.store, embedder).search("accuracy on wet blocks", k=3)
        assert any(h.dense_rank is not None for h in hits)
        assert embed_missing(lib.store, embedder) == 0

    if has_embedder():  # back to the bundled model: the library re-embeds when it answers
        monkeypatch.delenv("CITEWISE_EMBED")
        with Library(tmp_path / "lib") as lib:
            lib.ask("What happens to accuracy when the blocks are wet?")
            bundled = lib.embedder
            assert bundled is not None and bundled.name != "openai:smollm2"
            assert vector_count(lib.store.db, bundled.name) == trusted
            # Only the configured model's vectors are searched.
            assert Retriever(lib.store, bundled)._index is not None
            assert Retriever(lib.store, bundled)._index.model == bundled.name  # type: ignore[union-attr]


def test_cli_ingest_and_doctor_with_an_embedding_server(
    embedding_server: str, tmp_path: Path
) -> None:
    env = {**os.environ, "CITEWISE_CONFIG": str(tmp_path / "none.toml")}
    env.pop("CITEWISE_EMBED", None)
    paper = write_paper(tmp_path / "granite.pdf")
    base = [sys.executable, "-m", "citewise", "--library", str(tmp_path / "lib"),
            "--embed", "openai:smollm2", "--embed-url", embedding_server]  # fmt: skip
    done = subprocess.run([*base, "ingest", str(paper), "--json"],
                          capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["embedding_model"] == "openai:smollm2"
    doctor = subprocess.run([*base, "doctor", "--json"],
                            capture_output=True, text=True, env=env, timeout=60)  # fmt: skip
    assert doctor.returncode == 0, doctor.stderr
    check = json.loads(doctor.stdout)["embedding"]
    assert check["ok"] and "576-dimensional" in check["detail"]
    down = [*base[:-1], f"http://127.0.0.1:{free_port()}/v1", "doctor", "--json"]
    failed = subprocess.run(down, capture_output=True, text=True, env=env, timeout=60)
    assert failed.returncode == 1
    assert "cannot reach the embedding server" in json.loads(failed.stdout)["embedding"]["detail"]
