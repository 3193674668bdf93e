"""A real `citewise serve` (uvicorn) on a free loopback port, over a library of PDFs the
tests write; tests talk to it with httpx."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from citewise.api import Library
from tests.loopback import free_port, stop
from tests.pdfs import write_paper

STALLING = Path(__file__).parents[1] / "research" / "stalling.py"  # one stage waits
TOKEN = "s3cret-token"
BEE_TITLE = "Honeybee Foraging Under Artificial Light"
BEE_SECTIONS = [
    (
        "1 Introduction",
        ["Street lamps change when honeybees leave the hive. We tracked foragers at night."],
    ),
    (
        "2 Results",
        [
            "Colonies near sodium lamps made 17% more foraging trips after dusk than colonies "
            "in dark fields. Trips under LED lamps did not differ from dark fields."
        ],
    ),
]


def make_library(folder: Path) -> Path:
    """Two ingested papers (no embeddings: keyword search keeps start-up quick)."""
    folder.mkdir(parents=True, exist_ok=True)
    granite = write_paper(folder / "granite.pdf")
    bees = write_paper(folder / "bees.pdf", title=BEE_TITLE, sections=BEE_SECTIONS)
    library = folder / "library"
    with Library(library, embeddings=False) as lib:
        report = lib.ingest([granite, bees])
    assert not report.failed
    return library


def serve_command(library: Path, port: int, *extra: str, stall: str | None = None) -> list[str]:
    entry = [str(STALLING), stall] if stall else ["-m", "citewise"]
    return [sys.executable, *entry, "--library", str(library), "serve", "--port", str(port), *extra]


def environment() -> dict[str, str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("CITEWISE_TOKEN", None)
    return env


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    library: Path

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


def start(library: Path, *extra: str, stall: str | None = None) -> Iterator[Server]:
    port = free_port()
    process = subprocess.Popen(
        serve_command(library, port, *extra, stall=stall),
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    try:
        while True:
            if process.poll() is not None:
                stderr = process.stderr.read().decode() if process.stderr else ""
                raise AssertionError(f"server exited {process.returncode}: {stderr}")
            try:
                httpx.get(f"{url}/openapi.json", timeout=1)  # any answer (401 too) means up
                break
            except httpx.TransportError:
                assert time.time() < deadline, "server did not start within 30 s"
                time.sleep(0.1)
        yield Server(url, process, library)
    finally:
        stop(process, grace=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A plain loopback server, no token."""
    yield from start(make_library(tmp_path_factory.mktemp("served")))


@pytest.fixture(scope="session")
def guarded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with --token whose research tasks stall mid-way in `extracting`, so a test
    can cancel a task while it is running."""
    library = make_library(tmp_path_factory.mktemp("guarded"))
    yield from start(library, "--token", TOKEN, stall="extracting")
