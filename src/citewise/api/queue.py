"""Ingest (and research) as jobs of a PostgreSQL library's queue, for the faces:
enqueue files, follow the jobs to their end (an ingest's: its files' embedding and
vocabulary jobs too, api/queue_follow.py), run a worker (`citewise worker`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.api.queue_follow import (
    IngestProgress,
    JobFailure,
    JobGoneError,
    StageProgress,
    follow_jobs,
    gone_message,
)
from citewise.config import Settings
from citewise.errors import LibraryError
from citewise.store.postgres.queue import QueuePruned, job_states, prune_queue
from citewise.workers.app import (
    INGEST,
    INTERACTIVE,
    QUEUE,
    RESEARCH,
    VOCABULARY,
    ingest_priority,
    queue_app,
)

if TYPE_CHECKING:
    from citewise.ingest import IngestFailure
    from citewise.inputs import FileFilter

__all__ = [
    "IngestProgress",
    "JobFailure",
    "JobGoneError",
    "JobsProgress",
    "QueuedJobs",
    "StageProgress",
    "enqueue_ingest",
    "prune_finished",
    "follow_ingest",
    "library_queue",
]

DONE = ("succeeded", "failed", "cancelled", "aborted")
GONE = "unknown"  # a followed job whose row is no longer in the queue


def _gone(jobs: list[int]) -> JobGoneError:
    return JobGoneError(
        gone_message(jobs),
        hint="queue it again (a research task resumes from its last committed stage: "
        "`citewise tasks resume TASK` runs it here); `citewise worker` logs what ran",
    )


@dataclass
class QueuedJobs:
    """Jobs deferred for the given paths (job id -> path), and paths that are not files;
    `vocabulary`: the vocabulary job waiting as they were queued (None: none waits), which
    the files stored before it starts share (one stored after it started defers another)."""

    jobs: dict[int, str] = field(default_factory=dict)
    failed: list[IngestFailure] = field(default_factory=list)
    vocabulary: int | None = None


@dataclass
class JobsProgress:
    """Where a set of jobs stands: job id -> status (todo, doing, succeeded, failed, ...)."""

    status: dict[int, str]

    @property
    def finished(self) -> int:
        return sum(s in DONE for s in self.status.values())

    @property
    def done(self) -> bool:
        return self.finished == len(self.status)

    def with_status(self, *wanted: str) -> list[int]:
        return sorted(j for j, s in self.status.items() if s in wanted)


def library_queue(
    settings: Settings,
    message: str = "jobs need a library on PostgreSQL",
    hint: str = "pass --library postgresql://… (a library folder ingests in this process)",
) -> Any:
    """The procrastinate App of the library's job queue; a library that is not on
    PostgreSQL has none: QUEUE_UNAVAILABLE, saying `message` with `hint`."""
    if settings.database is None:
        raise LibraryError(message, hint=hint, code="QUEUE_UNAVAILABLE")
    return queue_app(settings.database)


def enqueue_ingest(
    settings: Settings, paths: list[Path], selection: FileFilter | None = None
) -> QueuedJobs:
    """One ingest job per file (folders searched recursively, their files kept as
    `selection` says), bigger files first; a file already waiting in the queue keeps its
    one job."""
    app = library_queue(settings)  # (a library folder has none: no procrastinate needed)
    from procrastinate import exceptions

    from citewise.ingest import IngestFailure, expand_paths

    queued = QueuedJobs()
    with app.open():
        for found in expand_paths(paths, selection):
            if isinstance(found, IngestFailure):
                queued.failed.append(found)
                continue
            path = str(found.expanduser().resolve())
            priority = ingest_priority(found.stat().st_size) if found.exists() else 0
            job = app.configure_task(
                INGEST, queue=QUEUE, lock=path, queueing_lock=path, priority=priority
            )
            try:
                queued.jobs[int(job.defer(path=path))] = path
            except exceptions.AlreadyEnqueued:
                waiting = app.job_manager.list_jobs(queueing_lock=path, status="todo")
                queued.jobs.update((int(j.id), path) for j in waiting)
        vocabulary = app.job_manager.list_jobs(queueing_lock=VOCABULARY, status="todo")
        queued.vocabulary = int(vocabulary[0].id) if vocabulary else None
    return queued


def prune_finished(settings: Settings) -> QueuePruned:
    """Remove the library's jobs finished more than `settings.queue_retention_days` days
    ago and their outcomes (waiting and running jobs, and what a follower still needs,
    stay); `citewise compact` and every worker (at start, then hourly) run it."""
    if settings.database is None:
        return QueuePruned()
    return prune_queue(settings.database, QUEUE, settings.queue_retention_days)


def enqueue_research(settings: Settings, task_id: str) -> int:
    """A job that runs research task `task_id` to its end on some worker; its job id. It
    goes before every waiting file (a person waits for it; workers/app.py's bands)."""
    app = library_queue(settings)
    with app.open():
        job = app.configure_task(
            RESEARCH, queue=QUEUE, lock=f"research:{task_id}", priority=INTERACTIVE
        )
        return int(job.defer(task_id=task_id))


def job_progress(settings: Settings, jobs: list[int]) -> JobsProgress:
    app = library_queue(settings)
    with app.open():
        return _progress(app, jobs)


def _progress(app: Any, jobs: list[int]) -> JobsProgress:
    states = job_states(app.connector, jobs)
    return JobsProgress({j: states[j].status if j in states else GONE for j in jobs})


def follow(
    settings: Settings,
    jobs: list[int],
    progress: Callable[[JobsProgress], None] | None = None,
    poll: float = 0.5,
    timeout: float | None = None,
) -> JobsProgress:
    """Wait until every job finished (or `timeout` seconds passed), reporting each change.
    A job whose row is gone from the queue before it finished raises JobGoneError."""
    app = library_queue(settings)
    started, last = time.monotonic(), None
    with app.open():
        while True:
            now = _progress(app, jobs)
            if progress is not None and now.status != last:
                progress(now)
            last = now.status
            if gone := now.with_status(GONE):
                raise _gone(gone)
            if now.done or (timeout is not None and time.monotonic() - started > timeout):
                return now
            time.sleep(poll)


def follow_ingest(
    settings: Settings,
    queued: QueuedJobs,
    progress: Callable[[IngestProgress], None] | None = None,
    poll: float = 0.5,
    timeout: float | None = None,
) -> IngestProgress:
    """Wait until the queued files' ingest jobs and every embedding and vocabulary job
    they deferred finished (or `timeout` seconds passed), reporting each change; the
    failures name their file and why."""
    app = library_queue(settings)
    with app.open():
        return follow_jobs(app, queued.jobs, progress, poll, timeout)
