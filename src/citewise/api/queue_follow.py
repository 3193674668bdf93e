"""Following what one `ingest --queue` caused, stage by stage, to its very end.

An ingest job stores a file and defers follow-ups: the document's embedding and the
(debounced, shared) vocabulary job. A library is searchable as a user expects only once
those ran too, so the follower learns them from each ingest job's recorded outcome
(store/postgres/queue.py `job_outcomes`) and ends when every ingest, embedding and
vocabulary job it caused has succeeded or failed, naming each failure's file and why.
A job whose row left the queue before it finished (deleted by hand, the queue reset)
will never finish: it is a failure too (JOB_GONE, with its file), never counted as done;
one that finished before its row went (retention) keeps the status it was seen with. A
job cancelled before a worker took it, or aborted while it ran (procrastinate's
`cancelled` and `aborted`), did not do its work either: a failure (JOB_CANCELLED, with
its file), which the same `ingest --queue` run again queues anew.

A vocabulary job that failed while a later one of the same follow succeeded may have had
its work done by that one (each learns every document not learned yet): once the follow
ends, the documents it left unlearned are looked at again, and if every one is learned
now its failure is `recovered` (reported, not a failure) instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from citewise.errors import JobCancelledError, Kind, LibraryError
from citewise.store.postgres.queue import JobOutcome, job_outcomes, job_states
from citewise.store.postgres.queue_jobs import unlearned_documents
from citewise.workers.app import EMBED_DOCUMENT, INGEST, VOCABULARY

STAGES = ("ingest", "embedding", "vocabulary")
STAGE_OF = {INGEST: "ingest", EMBED_DOCUMENT: "embedding", VOCABULARY: "vocabulary"}
FINISHED = ("succeeded", "failed", "cancelled", "aborted", "gone")  # gone: deleted since
CANCELLED = ("cancelled", "aborted")  # by a user (procrastinate's cancel/abort) or a worker
UNFINISHED = ("failed", "gone", *CANCELLED)  # reported as a failure, with its file
UNKNOWN_FAILURE = "the job failed (its worker recorded no reason: see the worker's log)"
NAMED = 5  # files a failed vocabulary job's message names (all are in `files`)


class JobGoneError(LibraryError):
    """A followed job's row left the queue before it finished (deleted by hand, or the
    queue's tables were reset): it will never finish, so following it ends here."""

    code = "JOB_GONE"
    kind: Kind = "not_found"


def gone_message(jobs: list[int]) -> str:
    named = ", ".join(str(j) for j in jobs)
    return f"job {named} is no longer in the queue (deleted before it finished)"


def cancelled(job: int, status: str) -> JobCancelledError:
    """Why a followed job that was cancelled or aborted did not do its work."""
    how = (
        "was cancelled before a worker ran it"
        if status == "cancelled"
        else "was aborted while it ran"
    )
    return JobCancelledError(
        f"job {job} {how}",
        hint="run the same `citewise ingest --queue` again: it queues the job anew",
    )


@dataclass(frozen=True)
class JobFailure:
    """A job that failed for good: its stage, the file it was for (a vocabulary job serves
    a batch: "", and its message names them), the error's code and message, and `files`:
    every followed file the job served (the ones to queue again once the cause is fixed).
    `brief` is the message for a line that names the files already (`subject`)."""

    stage: str
    file: str
    code: str
    message: str
    files: tuple[str, ...] = ()
    brief: str = ""
    job: int = 0

    @property
    def subject(self) -> str:
        """What a one-line report names first: the file, else the batch's files."""
        return self.file or ", ".join(self.files) or self.stage

    @property
    def text(self) -> str:
        """The message, for a line that starts with `subject`."""
        return self.brief or self.message

    def to_dict(self) -> dict[str, object]:
        return {
            "stage": self.stage,
            "file": self.file,
            "code": self.code,
            "message": self.message,
            "files": list(self.files),
        }


@dataclass(frozen=True)
class StageProgress:
    stage: str
    total: int  # jobs of this stage known so far (follow-ups appear as files are stored)
    finished: int
    failed: int

    def to_dict(self) -> dict[str, int]:
        return {"total": self.total, "finished": self.finished, "failed": self.failed}


@dataclass
class IngestProgress:
    """Where the jobs of one queued ingest stand: job id -> stage, status and file."""

    stage: dict[int, str] = field(default_factory=dict)
    status: dict[int, str] = field(default_factory=dict)
    file: dict[int, str] = field(default_factory=dict)
    failures: list[JobFailure] = field(default_factory=list)
    # failed vocabulary jobs whose documents a later job learned (not failures)
    recovered: list[JobFailure] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return all(self.status.get(j) in FINISHED for j in self.stage)

    @property
    def finished(self) -> int:
        return sum(self.status.get(j) in FINISHED for j in self.stage)

    def stages(self) -> list[StageProgress]:
        found = []
        for name in STAGES:
            jobs = [j for j, s in self.stage.items() if s == name]
            done = sum(self.status.get(j) in FINISHED for j in jobs)
            back = {f.job for f in self.recovered}
            failed = sum(self.status.get(j) in UNFINISHED and j not in back for j in jobs)
            found.append(StageProgress(name, len(jobs), done, failed))
        return found

    def files_by_status(self) -> dict[str, list[str]]:
        """The ingest jobs' files by their status (`ingest --queue --json`'s old keys)."""
        by: dict[str, list[str]] = {}
        for job in sorted(j for j, s in self.stage.items() if s == "ingest"):
            by.setdefault(self.status.get(job, "todo"), []).append(self.file[job])
        return by

    def to_dict(self) -> dict[str, Any]:
        return {
            "finished": self.finished,
            "total": len(self.stage),
            "stages": {s.stage: s.to_dict() for s in self.stages()},
            "failures": [f.to_dict() for f in self.failures],
            "recovered": [{**f.to_dict(), "job": f.job} for f in self.recovered],
        }


class _Follower:
    """One look at a time at the followed jobs; outcomes of finished jobs read once."""

    def __init__(self, connector: Any, jobs: dict[int, str]) -> None:
        self.connector = connector
        self.progress = IngestProgress(
            stage={j: "ingest" for j in jobs}, status={j: "todo" for j in jobs}, file=dict(jobs)
        )
        self.outcomes: dict[int, JobOutcome] = {}
        self.served: dict[int, list[str]] = {}  # follow-up job -> the files it serves

    def look(self) -> IngestProgress:
        now = self.progress
        for _ in range(len(STAGES)):  # follow-ups found this look are looked at too
            # a finished job keeps its status: its row may be pruned (retention) since
            open_jobs = [j for j in now.stage if now.status[j] not in FINISHED]
            states = job_states(self.connector, open_jobs)
            for job in open_jobs:
                state = states.get(job)
                now.status[job] = state.status if state else "gone"
                if state is not None:
                    now.stage[job] = STAGE_OF.get(state.task, now.stage[job])
            if not self._read_outcomes():
                break
        failed = [j for j in sorted(now.stage) if now.status[j] in UNFINISHED]
        now.failures = [self._failure(j) for j in failed]
        if now.done:
            self._recover(now)
        return now

    def _recover(self, now: IngestProgress) -> None:
        """At the end: a failed vocabulary job whose documents are all learned now (a
        later job learned them) is recovered, not a failure."""
        back = {f.job for f in now.recovered}
        for failure in [f for f in now.failures if f.stage == "vocabulary"]:
            if failure.job in back or self._learned_since(failure.job):
                now.failures.remove(failure)
                if failure.job not in back:
                    now.recovered.append(failure)

    def _learned_since(self, job: int) -> bool:
        """Whether every document failed vocabulary job `job` left (its outcome's covers;
        an older worker's: its files' documents) is learned now."""
        if self.progress.status[job] != "failed":
            return False  # cancelled or gone: the follower cannot tell what it would do
        outcome = self.outcomes.get(job)
        if outcome is not None and outcome.covers is not None:
            documents = list(outcome.covers)
        else:
            served = set(self.served.get(job, ()))
            documents = [
                o.document
                for j, o in self.outcomes.items()
                if o.document
                and self.progress.stage.get(j) == "ingest"
                and self.progress.file.get(j) in served
            ]
        if not documents:
            return False
        try:
            return not unlearned_documents(self.connector, documents)
        except Exception:  # cannot tell (the library's tables unreadable): keep the failure
            return False

    def _read_outcomes(self) -> bool:
        """Read the outcomes of newly finished jobs; whether they named new follow-ups."""
        now = self.progress
        wanted = [j for j in now.stage if now.status[j] in FINISHED and j not in self.outcomes]
        if not wanted:
            return False
        found = job_outcomes(self.connector, wanted)
        self.outcomes.update(found)
        new = False
        for job, outcome in sorted(found.items()):
            if now.status[job] != "succeeded" or now.stage[job] != "ingest":
                continue
            for follow in outcome.follow_ups:
                served = self.served.setdefault(follow, [])
                if now.file[job] not in served:
                    served.append(now.file[job])
                if follow not in now.stage:
                    now.stage[follow], now.status[follow], new = "follow-up", "todo", True
                    now.file[follow] = now.file[job]  # an embedding: this file's document
        return new

    def _failure(self, job: int) -> JobFailure:
        now, outcome = self.progress, self.outcomes.get(job)
        stage, hint = now.stage[job], ""
        if now.status[job] == "gone":
            code, message = JobGoneError.code, gone_message([job])
        elif now.status[job] in CANCELLED:
            error = cancelled(job, now.status[job])
            code, message, hint = error.code, error.message, error.hint
        elif outcome is None or outcome.message is None:
            code, message = "JOB_FAILED", UNKNOWN_FAILURE
        else:
            code, message = outcome.code or "JOB_FAILED", outcome.message
        if stage != "vocabulary":
            file, message = now.file.get(job, ""), f"{message}; {hint}" if hint else message
            return JobFailure(stage, file, code, message, (file,) if file else (), job=job)
        files, others = self._left_unlearned(job)
        return JobFailure(
            stage,
            "",
            code,
            batch_message(files, message, others),
            files,
            batch_message(files, message, others, named=False),
            job,
        )

    def _left_unlearned(self, job: int) -> tuple[tuple[str, ...], int]:
        """The followed files a failed vocabulary job left unlearned, and how many
        documents of the library that are none of the followed files it did (it tries
        every one not learned yet; a followed file another vocabulary job served is that
        job's to report); the files it served when its outcome does not say (recorded
        by an older worker)."""
        served = tuple(self.served.get(job, ()))
        outcome = self.outcomes.get(job)
        if outcome is None or outcome.covers is None:
            return served, 0
        document = {
            self.progress.file[j]: o.document
            for j, o in self.outcomes.items()
            if self.progress.stage.get(j) == "ingest" and o.document
        }
        left = set(outcome.covers)
        files = tuple(f for f in served if document.get(f) in left)
        return files, len(left - set(document.values()))


def batch_message(files: tuple[str, ...], reason: str, others: int = 0, named: bool = True) -> str:
    """Why a vocabulary job failed, naming the followed files it left unlearned (unless
    `named` is false: a line that lists them already) and counting the `others`: the
    library's other documents it tried too."""
    batch = f"{len(files)} file{'s' if len(files) != 1 else ''}" if files else ""
    if files and named:
        listed = ", ".join(files[:NAMED])
        more = f" and {len(files) - NAMED} more" if len(files) > NAMED else ""
        batch = f"{batch} ({listed}{more})"
    noun = f"document{'s' if others != 1 else ''} of the library"
    if files and others:
        return (
            f"the vocabulary of {batch} and of {others} other {noun} was not learned: "
            f"{reason}; queue the files again once fixed (that learns the others too)"
        )
    if others:
        return (
            f"the vocabulary of {others} {noun} (none of these files) was not learned: "
            f"{reason}; queue a file again once fixed (that learns them)"
        )
    batch = batch or "a batch"
    return f"the vocabulary of {batch} was not learned: {reason}; queue them again once fixed"


def follow_jobs(
    app: Any,
    jobs: dict[int, str],
    progress: Callable[[IngestProgress], None] | None = None,
    poll: float = 0.5,
    timeout: float | None = None,
) -> IngestProgress:
    """Wait (on an open procrastinate `app`) until the ingest `jobs` (id -> file) and every
    embedding and vocabulary job they deferred finished, or `timeout` seconds passed;
    `progress` is called on every change."""
    follower = _Follower(app.connector, jobs)
    started, last = time.monotonic(), None
    while True:
        now = follower.look()
        seen = (dict(now.status), dict(now.stage))
        if progress is not None and seen != last:
            progress(now)
        last = seen
        if now.done or (timeout is not None and time.monotonic() - started > timeout):
            return now
        time.sleep(poll)
