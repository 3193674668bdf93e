"""Cancelling queued work, for the faces (`citewise queue cancel`, `POST /queue/cancel`,
`DELETE /queue/jobs/{id}`): jobs by id, a file's jobs (its ingest job and its embedding;
a folder: every file's under it), or every waiting job of the library's queue.

A waiting job is cancelled (no worker takes it: procrastinate's `cancelled`). A running
one is asked to abort (procrastinate's abort request): citewise's jobs stop at their next
safe point (workers/tasks.py: before a file is parsed, after it is stored and before its
follow-ups are deferred, before each of a document's embedding batches), so nothing is half
stored and the same `ingest --queue` run later finishes the work. The vocabulary job is
shared by every file stored meanwhile: cancelling files keeps it while it serves another
file too (it learns only what is stored), and cancels it once every file it serves is
among them; cancelling it by id or with everything waiting stops it too."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citewise.api.queue import library_queue
from citewise.api.queue_follow import FINISHED, STAGE_OF
from citewise.config import Settings
from citewise.errors import QueueJobFinishedError, QueueJobNotFoundError
from citewise.store.postgres.queue import job_outcomes
from citewise.store.postgres.queue_jobs import (
    QueuedJob,
    jobs_by_id,
    jobs_by_path,
    open_queue_jobs,
    served_by,
)
from citewise.workers.app import EMBED_DOCUMENT, INGEST, QUEUE, RESEARCH

KINDS = {**STAGE_OF, RESEARCH: "research"}


@dataclass(frozen=True)
class JobEntry:
    """One job a cancel request touched: id, kind (ingest, embedding, ...), what it works
    on, and its status before the request."""

    job: int
    kind: str
    subject: str
    status: str

    def to_dict(self) -> dict[str, object]:
        return {"job": self.job, "kind": self.kind, "subject": self.subject, "status": self.status}


@dataclass
class CancelReport:
    """What a cancel request did: `cancelled` (were waiting: no worker runs them),
    `aborting` (were running: asked to abort, they stop at their next safe point),
    `finished` (had finished already) and `kept` (left to run: the shared vocabulary job
    while it serves other files too, or running jobs when only waiting ones were asked
    for)."""

    cancelled: list[JobEntry] = field(default_factory=list)
    aborting: list[JobEntry] = field(default_factory=list)
    finished: list[JobEntry] = field(default_factory=list)
    kept: list[JobEntry] = field(default_factory=list)

    def groups(self) -> dict[str, list[JobEntry]]:
        return {
            "cancelled": self.cancelled,
            "aborting": self.aborting,
            "finished": self.finished,
            "kept": self.kept,
        }

    def to_dict(self) -> dict[str, object]:
        return {name: [e.to_dict() for e in group] for name, group in self.groups().items()}

    def job_ids(self) -> list[int]:
        """Every job the request touched, group by group (the audit log's `jobs`)."""
        return [e.job for group in self.groups().values() for e in group]


def cancel_subject(jobs: list[int], files: list[str], everything: bool) -> str:
    """What a cancel request names, as the audit log's subject (HTTP and MCP alike): "queue"
    for every waiting job, else the job ids or the paths as given, comma-separated."""
    if everything:
        return "queue"
    return ", ".join(map(str, jobs)) if jobs else ", ".join(files)


def _entry(job: QueuedJob) -> JobEntry:
    return JobEntry(job.job, KINDS.get(job.task, job.task), job.subject, job.status)


def _open_app(settings: Settings) -> Any:
    return library_queue(
        settings,
        "only a library on PostgreSQL has a job queue",
        hint="pass --library postgresql://… (a library folder runs no jobs to cancel)",
    )


def _cancel(app: Any, jobs: list[QueuedJob], report: CancelReport, running: bool) -> None:
    """Cancel the waiting `jobs`, ask the running ones to abort (unless not `running`:
    kept); a job that finished meanwhile is reported as finished."""
    for job in jobs:
        entry = _entry(job)
        if job.status in FINISHED:
            report.finished.append(entry)
        elif job.status == "doing" and not running:
            report.kept.append(entry)
        elif app.job_manager.cancel_job_by_id(job.job, abort=True):
            (report.cancelled if job.status == "todo" else report.aborting).append(entry)
        else:  # it finished between the look and the request
            now = jobs_by_id(app.connector, QUEUE, [job.job])
            report.finished.append(_entry(now[0]) if now else entry)


def _finished_error(what: str, jobs: list[QueuedJob]) -> QueueJobFinishedError:
    said = ", ".join(f"job {j.job} {j.status}" for j in jobs[:5])
    more = f" and {len(jobs) - 5} more" if len(jobs) > 5 else ""
    return QueueJobFinishedError(
        f"{what} finished already ({said}{more}): nothing to cancel",
        hint="a finished job stays as it is; `citewise remove FILE` takes a stored file out",
    )


def cancel_jobs(settings: Settings, ids: list[int]) -> CancelReport:
    """Cancel the jobs `ids` (waiting: cancelled; running: asked to abort). An id the
    queue does not hold, or a job finished already, is an error and nothing is cancelled."""
    app = _open_app(settings)
    with app.open():
        found = {j.job: j for j in jobs_by_id(app.connector, QUEUE, ids)}
        if missing := [i for i in ids if i not in found]:
            raise QueueJobNotFoundError(
                f"no job {', '.join(map(str, missing))} in the library's queue",
                hint="a job id is the one `ingest --queue` and the worker's log name; "
                "finished jobs are removed after [queue] retention_days",
            )
        if done := [found[i] for i in ids if found[i].status in FINISHED]:
            raise _finished_error("job" if len(done) == 1 else "jobs", done)
        report = CancelReport()
        _cancel(app, [found[i] for i in dict.fromkeys(ids)], report, running=True)
    return report


def _file_jobs(app: Any, paths: list[str], report: CancelReport) -> list[QueuedJob]:
    """The ingest jobs of `paths` (files, or folders: every file under them), the embedding
    jobs they deferred, and the open vocabulary job they share when it serves no other
    file (else it goes to `kept`)."""
    ingest = jobs_by_path(app.connector, QUEUE, INGEST, paths)
    for path in paths:
        under = path.rstrip("/") + "/"
        if not any(j.subject == path or j.subject.startswith(under) for j in ingest):
            raise QueueJobNotFoundError(
                f"no job of the library's queue is for {path}",
                hint="jobs name files by absolute path, as `ingest --queue` was given them",
            )
    outcomes = job_outcomes(app.connector, [j.job for j in ingest])
    follow_ups = {f for o in outcomes.values() for f in o.follow_ups}
    seen = {j.job for j in ingest}
    later = [j for j in jobs_by_id(app.connector, QUEUE, sorted(follow_ups)) if j.job not in seen]
    shared = [j for j in later if j.task != EMBED_DOCUMENT and j.status not in FINISHED]
    alone = _serving_only(app, shared, seen)
    report.kept.extend(_entry(j) for j in shared if j.job not in alone)  # serves other files
    return (
        ingest
        + [j for j in later if j.task == EMBED_DOCUMENT]
        + [j for j in shared if j.job in alone]
    )


def _serving_only(app: Any, shared: list[QueuedJob], ingest: set[int]) -> set[int]:
    """Those of the open `shared` (vocabulary) jobs that serve only files whose ingest jobs
    are `ingest`: every outcome naming them is one of these jobs, and no other file is
    being ingested now (it may be about to name one)."""
    if not shared:
        return set()
    if any(
        j.task == INGEST and j.status == "doing" and j.job not in ingest
        for j in open_queue_jobs(app.connector, QUEUE)
    ):
        return set()
    served = served_by(app.connector, [j.job for j in shared])
    return {j.job for j in shared if set(served.get(j.job, ())) <= ingest}


def cancel_files(settings: Settings, paths: list[Path]) -> CancelReport:
    """Cancel the jobs of these files (a folder: of every file under it): their ingest
    jobs and embedding jobs, and the vocabulary job they share when every file it serves
    is among them. A path no job names is an error; so is one whose jobs all finished
    already (nothing is cancelled then)."""
    resolved = [str(p.expanduser().resolve()) for p in paths]
    app = _open_app(settings)
    with app.open():
        report = CancelReport()
        jobs = _file_jobs(app, resolved, report)
        if all(j.status in FINISHED for j in jobs):
            raise _finished_error("every job for " + ", ".join(resolved), jobs)
        _cancel(app, jobs, report, running=True)
    return report


def open_jobs(settings: Settings) -> list[JobEntry]:
    """Every job of the library's queue waiting or running now (what may be cancelled)."""
    app = _open_app(settings)
    with app.open():
        return [_entry(j) for j in open_queue_jobs(app.connector, QUEUE)]


def cancel_waiting(settings: Settings, running: bool = False) -> CancelReport:
    """Cancel every waiting job of the library's queue; with `running`, ask every running
    one to abort too (else they are `kept`). Nothing waiting is no error."""
    app = _open_app(settings)
    with app.open():
        report = CancelReport()
        _cancel(app, open_queue_jobs(app.connector, QUEUE), report, running=running)
    return report
