"""Reading the job queue for cancelling (procrastinate's `procrastinate_jobs`, in the
library's schema): jobs by id, a file's ingest jobs (the file, or every file under a
folder), every waiting or running job, the jobs whose outcomes name a follow-up (the files
the vocabulary job serves); and which of a set of documents still wait for
their vocabulary (what a failed vocabulary job left, looked at again once a follow ends).
The cancelling itself goes through procrastinate's job manager (api/queue_cancel.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

_COLUMNS = "SELECT id, task_name, status::text AS status, args FROM procrastinate_jobs "
_BY_ID = _COLUMNS + "WHERE queue_name = %(queue)s AND id = ANY(%(jobs)s) ORDER BY id"
# a file's own jobs, or every file's under a folder (`prefixes`: folders ending in "/")
_BY_PATH = (
    _COLUMNS + "WHERE queue_name = %(queue)s AND task_name = %(task)s AND ("
    "args->>'path' = ANY(%(paths)s) OR EXISTS (SELECT 1 FROM unnest(%(prefixes)s::text[]) "
    "AS p(prefix) WHERE starts_with(args->>'path', p.prefix))) ORDER BY id"
)
_OPEN = _COLUMNS + "WHERE queue_name = %(queue)s AND status IN ('todo', 'doing') ORDER BY id"
# the jobs whose outcome names one of `jobs` as its follow-up (a vocabulary job: the ingest
# jobs of the files it serves)
_SERVED = (
    "SELECT f.id::bigint AS follow_up, o.job_id FROM job_outcomes o "
    "CROSS JOIN LATERAL jsonb_array_elements_text(o.follow_ups) AS f(id) "
    "WHERE f.id::bigint = ANY(%(jobs)s) ORDER BY o.job_id"
)
# as PostgresVocabulary.unlearned_documents: no row, or a row for other bytes; a document
# removed since needs nothing
_UNLEARNED = (
    "SELECT d.id FROM documents d LEFT JOIN vocabulary_documents v ON v.document_id = d.id "
    "WHERE d.id = ANY(%(documents)s) AND (v.sha256 IS NULL OR v.sha256 != d.sha256) "
    "ORDER BY d.id"
)


@dataclass(frozen=True)
class QueuedJob:
    """One job as the queue holds it: its id, task, status and arguments."""

    job: int
    task: str
    status: str  # todo, doing, succeeded, failed, cancelled, aborted
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def subject(self) -> str:
        """What the job works on: its file, document or research task."""
        keys = ("path", "document", "task_id")
        return next((str(self.args[k]) for k in keys if k in self.args), "")


def _jobs(rows: list[dict[str, Any]]) -> list[QueuedJob]:
    found = []
    for row in rows:
        args = row["args"]
        args = json.loads(args) if isinstance(args, str) else args
        found.append(
            QueuedJob(int(row["id"]), str(row["task_name"]), str(row["status"]), dict(args or {}))
        )
    return found


def jobs_by_id(connector: Any, queue: str, jobs: list[int]) -> list[QueuedJob]:
    """Those of `jobs` that `queue` holds (any status)."""
    rows = connector.get_sync_connector().execute_query_all(_BY_ID, queue=queue, jobs=list(jobs))
    return _jobs(rows)


def jobs_by_path(connector: Any, queue: str, task: str, paths: list[str]) -> list[QueuedJob]:
    """`queue`'s `task` jobs (any status) whose `path` argument is one of `paths` or lies
    under one of them (a folder)."""
    prefixes = [p.rstrip("/") + "/" for p in paths]
    rows = connector.get_sync_connector().execute_query_all(
        _BY_PATH, queue=queue, task=task, paths=list(paths), prefixes=prefixes
    )
    return _jobs(rows)


def open_queue_jobs(connector: Any, queue: str) -> list[QueuedJob]:
    """Every job of `queue` waiting or running now."""
    return _jobs(connector.get_sync_connector().execute_query_all(_OPEN, queue=queue))


def served_by(connector: Any, jobs: list[int]) -> dict[int, list[int]]:
    """For each of `jobs` some outcome names as a follow-up, the jobs whose outcomes name
    it (for the shared vocabulary job: the ingest jobs of every file it serves)."""
    rows = connector.get_sync_connector().execute_query_all(_SERVED, jobs=list(jobs))
    found: dict[int, list[int]] = {}
    for row in rows:
        found.setdefault(int(row["follow_up"]), []).append(int(row["job_id"]))
    return found


def unlearned_documents(connector: Any, documents: list[str]) -> list[str]:
    """Those of `documents` (still in the library) whose vocabulary is not learned."""
    if not documents:
        return []
    rows = connector.get_sync_connector().execute_query_all(_UNLEARNED, documents=list(documents))
    return [str(r["id"]) for r in rows]
