"""What the job queue holds (procrastinate's tables, in the library's schema), and what
citewise adds beside them: one outcome row per job (`job_outcomes`), because procrastinate
keeps a job's status but neither what it returned nor why it failed.

An ingest job's outcome names the document it stored and the follow-up jobs it deferred
or found waiting (its embedding, the vocabulary), so `ingest --queue` can follow exactly
the jobs its files caused; a failed attempt's outcome keeps the error's code and message,
so the follower names each failed file and why; a failed vocabulary job's outcome also
names the documents it left unlearned (`covers`: it tries every one the library has, not
only the followed files).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, LiteralString

_OPEN_JOBS = (
    "SELECT count(*) AS n FROM procrastinate_jobs "
    "WHERE queue_name = %(queue)s AND status IN ('todo', 'doing')"
)
_SCHEMA_LOCK = 0x71756575  # pg_advisory_xact_lock key for creating the queue ("queu")
_OUTCOMES = """
CREATE TABLE IF NOT EXISTS job_outcomes (
    job_id bigint PRIMARY KEY,
    task text NOT NULL,
    subject text NOT NULL DEFAULT '',
    document text,
    follow_ups jsonb NOT NULL DEFAULT '[]',
    code text,
    message text,
    covers jsonb,
    recorded_at timestamptz NOT NULL DEFAULT now()
)
"""
# a table made before `covers` gains it (looked up first: ALTER locks the table)
_HAS_COVERS = (
    "SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('job_outcomes') "
    "AND attname = 'covers' AND NOT attisdropped"
)
_COVERS = "ALTER TABLE job_outcomes ADD COLUMN IF NOT EXISTS covers jsonb"
_RECORD = (
    "INSERT INTO job_outcomes (job_id, task, subject, document, follow_ups, code, message, "
    "covers) VALUES (%(job)s, %(task)s, %(subject)s, %(document)s, %(follow_ups)s::jsonb, "
    "%(code)s, %(message)s, %(covers)s::jsonb) ON CONFLICT (job_id) DO UPDATE SET "
    "task = EXCLUDED.task, subject = EXCLUDED.subject, document = EXCLUDED.document, "
    "follow_ups = EXCLUDED.follow_ups, code = EXCLUDED.code, message = EXCLUDED.message, "
    "covers = EXCLUDED.covers, recorded_at = now()"
)
_READ = (
    "SELECT job_id, task, subject, document, follow_ups, code, message, covers "
    "FROM job_outcomes WHERE job_id = ANY(%(jobs)s)"
)
# Retention: a job (of `queue`) finished more than `days` days ago (its last event) goes,
# and an outcome older than that whose job row is gone; never a waiting or running job,
# nor an outcome (or its job) naming a follow-up that still waits or runs: a follower of
# that ingest learns the follow-up from it.
_NEEDED = """
SELECT o.job_id FROM job_outcomes o
WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text(o.follow_ups) AS f(id)
    JOIN procrastinate_jobs w ON w.id = f.id::bigint WHERE w.status IN ('todo', 'doing'))
"""
_PRUNE_JOBS = f"""
DELETE FROM procrastinate_jobs j
WHERE j.queue_name = %(queue)s
  AND j.status IN ('succeeded', 'failed', 'cancelled', 'aborted')
  AND (SELECT max(e.at) FROM procrastinate_events e WHERE e.job_id = j.id)
      < now() - make_interval(days => %(days)s)
  AND j.id NOT IN ({_NEEDED})
"""
_PRUNE_OUTCOMES = f"""
DELETE FROM job_outcomes o
WHERE o.recorded_at < now() - make_interval(days => %(days)s)
  AND NOT EXISTS (SELECT 1 FROM procrastinate_jobs j WHERE j.id = o.job_id)
  AND o.job_id NOT IN ({_NEEDED})
"""
_STATES = (
    "SELECT id, task_name, status::text AS status FROM procrastinate_jobs WHERE id = ANY(%(jobs)s)"
)


@dataclass(frozen=True)
class JobOutcome:
    """What one job did (its last attempt): the file or document it worked on, the
    document an ingest stored, the follow-up job ids it answers for, or why it failed."""

    job: int
    task: str
    subject: str = ""
    document: str | None = None
    follow_ups: tuple[int, ...] = ()
    code: str | None = None
    message: str | None = None
    covers: tuple[str, ...] | None = None  # a failed vocabulary job: documents left unlearned


@dataclass(frozen=True)
class JobState:
    job: int
    task: str
    status: str  # todo, doing, succeeded, failed, cancelled, aborted


@dataclass(frozen=True)
class QueuePruned:
    """What one retention pass removed: finished jobs and job outcomes."""

    jobs: int = 0
    outcomes: int = 0


def prune_queue(url: str, queue: str, days: int) -> QueuePruned:
    """Remove `queue`'s jobs finished more than `days` days ago and outcomes as old whose
    job is gone (never a waiting or running job, nor what a follower still needs: see
    _NEEDED); nothing when the queue's tables do not exist yet."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        row = conn.execute("SELECT to_regclass('job_outcomes')").fetchone()
        if row is None or row[0] is None:
            return QueuePruned()
        params = {"queue": queue, "days": int(days)}
        jobs = conn.execute(_PRUNE_JOBS, params).rowcount
        outcomes = conn.execute(_PRUNE_OUTCOMES, params).rowcount
    return QueuePruned(max(jobs, 0), max(outcomes, 0))


def ensure_queue_tables(url: str, procrastinate_schema: LiteralString) -> None:
    """procrastinate's tables (its own DDL, given) when missing, and `job_outcomes`."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
        if row is None or row[0] is None:
            conn.execute(procrastinate_schema)  # no parameters: % stays as written
        conn.execute(_OUTCOMES)
        if conn.execute(_HAS_COVERS).fetchone() is None:
            conn.execute(_COVERS)


async def open_jobs(connector: Any, queue: str) -> int:
    """Jobs of `queue` waiting or running now, through procrastinate's own connector."""
    row = await connector.execute_query_one_async(_OPEN_JOBS, queue=queue)
    return int(row["n"])


def record_outcome(connector: Any, outcome: JobOutcome) -> None:
    """Keep what a job's attempt did (a later attempt replaces it). Called from a job's
    thread, through procrastinate's connector (sync)."""
    connector.get_sync_connector().execute_query(
        _RECORD,
        job=outcome.job,
        task=outcome.task,
        subject=outcome.subject,
        document=outcome.document,
        follow_ups=json.dumps(list(outcome.follow_ups)),
        code=outcome.code,
        message=outcome.message,
        covers=None if outcome.covers is None else json.dumps(list(outcome.covers)),
    )


def job_outcomes(connector: Any, jobs: list[int]) -> dict[int, JobOutcome]:
    """The recorded outcomes of `jobs` (a job that has not finished an attempt has none)."""
    rows = connector.get_sync_connector().execute_query_all(_READ, jobs=list(jobs))
    found = {}
    for row in rows:
        follow, covers = (
            json.loads(v) if isinstance(v, str) else v for v in (row["follow_ups"], row["covers"])
        )
        found[int(row["job_id"])] = JobOutcome(
            int(row["job_id"]),
            str(row["task"]),
            str(row["subject"] or ""),
            row["document"],
            tuple(int(j) for j in follow or ()),
            row["code"],
            row["message"],
            None if covers is None else tuple(str(d) for d in covers),
        )
    return found


def job_states(connector: Any, jobs: list[int]) -> dict[int, JobState]:
    """Each of `jobs` as procrastinate holds it now (a job deleted since is absent)."""
    rows = connector.get_sync_connector().execute_query_all(_STATES, jobs=list(jobs))
    return {
        int(r["id"]): JobState(int(r["id"]), str(r["task_name"]), str(r["status"])) for r in rows
    }
