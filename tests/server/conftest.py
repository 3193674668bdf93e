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
import pymupdf
import pytest

from citewise.agent.research import ResearchOptions
from citewise.agent.research.tasks import TaskStore
from citewise.api import Library
from tests.loopback import free_port, stop
from tests.pdfs import write_paper

STALLING = Path(__file__).parents[1] / "research" / "stalling.py"  # one stage waits
TIGHT = Path(__file__).parent / "tight.py"  # small server limits (and maybe a stalling stage)
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


def serve_command(
    library: Path, port: int, *extra: str, stall: str | None = None, tight: bool = False
) -> list[str]:
    if tight:
        entry = [str(TIGHT), stall or "-"]
    else:
        entry = [str(STALLING), stall] if stall else ["-m", "citewise"]
    return [sys.executable, *entry, "--library", str(library), "serve", "--port", str(port), *extra]


def environment(**extra: str) -> dict[str, str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("CITEWISE_TOKEN", None)
    return {**env, **extra}


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    library: Path

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


def start(
    library: Path,
    *extra: str,
    stall: str | None = None,
    tight: bool = False,
    env: dict[str, str] | None = None,
) -> Iterator[Server]:
    port = free_port()
    process = subprocess.Popen(
        serve_command(library, port, *extra, stall=stall, tight=tight),
        env=environment(**(env or {})),
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


BROKEN_MODEL = "llamacpp:/nonexistent/broken.gguf"  # configured in citewise.toml, cannot load
GIANT_SIDES = (10000, 14400)  # points; 14,400 is the largest page PDF allows
ALLOWED_NAME = "citewise.lan"


@dataclass
class Hostile:
    server: Server
    stuck_task: str  # in `planning` for ever: nothing runs it
    cancelled_task: str
    giant: str  # document ID of the giant-page PDF


def write_giant_pdf(path: Path) -> Path:
    """A few hundred bytes of PDF whose pages are GIANT_SIDES points square."""
    doc = pymupdf.open()
    for side in GIANT_SIDES:
        page = doc.new_page(width=side, height=side)
        page.insert_text((72, 72), f"A page of {side} points each side, to test render limits.")
    doc.save(path)
    return path


@pytest.fixture(scope="session")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hostile]:
    """A server with small limits (tests/server/tight.py) whose tasks stall in `extracting`,
    over a library with a giant-page PDF, a task nobody runs, a cancelled task, and a
    citewise.toml naming a model file that does not exist (for a role research does not use
    unless asked)."""
    folder = tmp_path_factory.mktemp("hostile")
    library = make_library(folder)
    (library / "citewise.toml").write_text(f'[roles]\nextract = "{BROKEN_MODEL}"\n')
    with Library(library, embeddings=False) as lib:
        report = lib.ingest([write_giant_pdf(folder / "giant.pdf")])
        assert not report.failed
        giant = next(d.id for d in lib.documents() if Path(d.path).name == "giant.pdf")
        tasks = TaskStore(lib.store.tasks)
        stuck = tasks.create("a task nobody runs", ResearchOptions()).id
        cancelled = tasks.create("a task cancelled at once", ResearchOptions()).id
        tasks.cancel(cancelled)
    for server in start(library, "--allow-host", ALLOWED_NAME, stall="extracting", tight=True):
        yield Hostile(server, stuck, cancelled, giant)
