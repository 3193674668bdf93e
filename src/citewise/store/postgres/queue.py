"""What the job queue holds (procrastinate's tables, in the library's schema), and what
citewise adds beside them: one outcome row per job (`job_outcomes`), because procrastinate
keeps a job's status but neither what it returned nor why it failed.

An ingest job's outcome names the document it stored and the follow-up jobs it deferred
or found waiting (its embedding, the vocabulary), so `ingest --queue` can follow exactly
the jobs its files caused; a failed attempt's outcome keeps the error's code and message,
so the follower names each failed file and why.
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
    recorded_at timestamptz NOT NULL DEFAULT now()
)
"""
_RECORD = (
    "INSERT INTO job_outcomes (job_id, task, subject, document, follow_ups, code, message) "
    "VALUES (%(job)s, %(task)s, %(subject)s, %(document)s, %(follow_ups)s::jsonb, %(code)s, "
    "%(message)s) ON CONFLICT (job_id) DO UPDATE SET task = EXCLUDED.task, "
    "subject = EXCLUDED.subject, document = EXCLUDED.document, "
    "follow_ups = EXCLUDED.follow_ups, code = EXCLUDED.code, message = EXCLUDED.message, "
    "recorded_at = now()"
)
_READ = (
    "SELECT job_id, task, subject, document, follow_ups, code, message FROM job_outcomes "
    "WHERE job_id = ANY(%(jobs)s)"
)
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


@dataclass(frozen=True)
class JobState:
    job: int
    task: str
    status: str  # todo, doing, succeeded, failed, cancelled, aborted


def ensure_queue_tables(url: str, procrastinate_schema: LiteralString) -> None:
    """procrastinate's tables (its own DDL, given) when missing, and `job_outcomes`."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
        if row is None or row[0] is None:
            conn.execute(procrastinate_schema)  # no parameters: % stays as written
        conn.execute(_OUTCOMES)


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
    )


def job_outcomes(connector: Any, jobs: list[int]) -> dict[int, JobOutcome]:
    """The recorded outcomes of `jobs` (a job that has not finished an attempt has none)."""
    rows = connector.get_sync_connector().execute_query_all(_READ, jobs=list(jobs))
    found = {}
    for row in rows:
        follow = row["follow_ups"]
        follow = json.loads(follow) if isinstance(follow, str) else follow
        found[int(row["job_id"])] = JobOutcome(
            int(row["job_id"]),
            str(row["task"]),
            str(row["subject"] or ""),
            row["document"],
            tuple(int(j) for j in follow or ()),
            row["code"],
            row["message"],
        )
    return found


def job_states(connector: Any, jobs: list[int]) -> dict[int, JobState]:
    """Each of `jobs` as procrastinate holds it now (a job deleted since is absent)."""
    rows = connector.get_sync_connector().execute_query_all(_STATES, jobs=list(jobs))
    return {
        int(r["id"]): JobState(int(r["id"]), str(r["task_name"]), str(r["status"])) for r in rows
    }
