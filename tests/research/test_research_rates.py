"""A research run searches the sources many times (every sub-question, every round); each
source's configured rate must hold across the whole run, and across processes sharing the
library, as the request log's timestamps show."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
import yaml

import citewise
from citewise.agent.research import ResearchOptions
from citewise.api import Library
from citewise.api.research import ResearchDesk
from citewise.sources.net.http import reset_breakers
from citewise.store.sqlite.db import connect
from tests.pdfs import write_paper
from tests.research.test_research_remote import LOCAL_PAPER, TOPIC
from tests.sources.loopback import serve_fixtures
from tests.sources.replay import ReplayServer

# The subprocesses import the citewise under test (and the tests beside it).
SRC = Path(citewise.__file__).resolve().parents[1]
ROOT = Path(__file__).resolve().parents[2]
# Short intervals keep the test quick; the limiter does not care how long they are.
RATES = {"arxiv": (5.0, 1), "openalex": (4.0, 2)}  # requests per second, burst


@pytest.fixture(autouse=True)
def clean_limits() -> Iterator[None]:
    reset_breakers()
    yield
    reset_breakers()


def write_config(path: Path, server: ReplayServer) -> Path:
    config = {
        name: {
            "base_url": f"{server.base_url}/{name}",
            "rate_limit": {"requests_per_second": rate, "burst": burst},
            "max_concurrency": 4,
            "timeout": 5.0,
            "max_retries": 0,
            "cache_ttl": 0,  # every search really asks
        }
        for name, (rate, burst) in RATES.items()
    }
    path.write_text(yaml.safe_dump(config), "utf-8")
    return path


def request_starts(db_path: Path, source: str) -> list[float]:
    """Unix times at which requests to `source` left (cache hits excluded), from the log."""
    db = connect(db_path)
    try:
        rows = db.execute(
            "SELECT time FROM http_requests WHERE source = ? AND cache_hit = 0 ORDER BY time",
            (source,),
        ).fetchall()
    finally:
        db.close()
    return [datetime.fromisoformat(r[0]).timestamp() for r in rows]


def assert_within_rate(times: list[float], rate: float, burst: int) -> None:
    """No window of burst / rate seconds holds more than `burst` request starts (the log
    keeps milliseconds, hence the 1 ms)."""
    window = burst / rate
    for j in range(len(times) - burst):
        gap = times[j + burst] - times[j]
        assert gap >= window - 0.001, (
            f"requests {j}..{j + burst} started within {gap:.3f} s; at most {burst} may "
            f"start within {window:.3f} s"
        )


def test_a_research_run_keeps_every_sources_rate(tmp_path: Path) -> None:
    paper = write_paper(tmp_path / "gat.pdf", "Graph Attention for Molecules", LOCAL_PAPER)
    with Library(tmp_path / "library", embeddings=False) as lib, ReplayServer() as server:
        lib.ingest([paper])
        serve_fixtures(server, only=list(RATES))
        options = ResearchOptions(
            sources=["local", *RATES],
            sources_config=str(write_config(tmp_path / "sources.yaml", server)),
        )
        outcome = ResearchDesk(lib).research(TOPIC, options)
    assert outcome.task.state == "completed"
    for source, (rate, burst) in RATES.items():
        times = request_starts(tmp_path / "library" / "library.db", source)
        # Research sends each distinct remote query once per round (remote_query.py), so a
        # run makes fewer requests than one per sub-question; enough to fill a window.
        assert len(times) >= burst + 1, f"{source}: only {len(times)} requests"
        assert_within_rate(times, rate, burst)


SEARCHER = """
import sys
from pathlib import Path
from citewise.sources import search_sources
from citewise.sources.config import SourcesConfig
from citewise.store.sqlite.db import connect
from citewise.store.sqlite.audit import SqliteAuditLog

db = connect(Path(sys.argv[1]))
config = SourcesConfig.load(sys.argv[2], env={})
for n in range(int(sys.argv[3])):
    query = f"graph {sys.argv[4]} {n}"
    result = search_sources(query, ["arxiv"], audit=SqliteAuditLog(db), config=config)
    assert not result.warnings, result.warnings
db.close()
"""


def test_processes_sharing_a_library_share_each_sources_rate(tmp_path: Path) -> None:
    db_path = tmp_path / "library" / "library.db"
    connect(db_path).close()  # migrated once, before the processes start
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{ROOT}"}
    with ReplayServer() as server:
        serve_fixtures(server, only=["arxiv"])
        config = write_config(tmp_path / "sources.yaml", server)
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", SEARCHER, str(db_path), str(config), "4", name],
                env=env,
                stderr=subprocess.PIPE,
            )
            for name in ("first", "second")
        ]
        errors = [run.communicate(timeout=120)[1].decode() for run in runs]
        assert [run.returncode for run in runs] == [0, 0], errors
        arrived = sorted(seen.at for seen in server.seen("/arxiv"))
    times = request_starts(db_path, "arxiv")
    assert len(times) == len(arrived) == 8
    rate, burst = RATES["arxiv"]
    assert_within_rate(times, rate, burst)
    # The server saw the eight spread over seven intervals, give or take how late the
    # first one reached it (a busy machine); unlimited, they arrive within a few tenths.
    assert arrived[-1] - arrived[0] >= 7 * burst / rate - 0.5
