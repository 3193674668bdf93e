from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.postgres.server import pg_server, pg_url

__all__ = ["pg_server", "pg_url"]


@pytest.fixture
def workers(pg_url: str, tmp_path: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """The worker processes a test starts: SIGTERM after it, then killed if they linger."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in started:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
