"""A real `python -m llama_cpp.server --embedding true` serving SmolLM2 on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.smollm2 import llama_server


@pytest.fixture(scope="session")
def embedding_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (…/v1) of a llama.cpp server answering /v1/embeddings as model 'smollm2'."""
    with llama_server(tmp_path_factory.mktemp("llama-embed"), 1024, "--embedding", "true") as url:
        yield url
