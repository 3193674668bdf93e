"""Real `python -m llama_cpp.server` processes serving SmolLM2 on loopback, one per session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.smollm2 import llama_server


@pytest.fixture(scope="session")
def smollm2_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (…/v1) of a llama.cpp server serving SmolLM2 as model 'smollm2'."""
    with llama_server(tmp_path_factory.mktemp("llama-server")) as url:
        yield url


@pytest.fixture(scope="session")
def smollm2_small_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same model with a 512-token context: long prompts overflow it."""
    with llama_server(tmp_path_factory.mktemp("llama-small"), 512) as url:
        yield url
