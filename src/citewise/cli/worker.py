"""`citewise worker` (run jobs of a PostgreSQL library) and `citewise ingest --queue`
(enqueue files as jobs and follow them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out, progress_bar, settings

if TYPE_CHECKING:
    from citewise.api.ingested import FileFilter
    from citewise.api.queue import IngestProgress, JobsProgress, QueuedJobs
    from citewise.api.research import ResearchOptions

STAGES = ("ingest", "embedding", "vocabulary")  # the bars of a followed ingest


@app.command()
def worker(
    concurrency: Annotated[
        int, cli.Option("--concurrency", min=1, help="Jobs run at once by this worker.")
    ] = 1,
    heartbeat: Annotated[
        float, cli.Option("--heartbeat", min=0.1, help="Seconds between heartbeats.")
    ] = 10.0,
    stalled_after: Annotated[
        float,
        cli.Option(
            "--stalled-after",
            min=0.5,
            help="Seconds without a heartbeat after which a worker's jobs run elsewhere.",
        ),
    ] = 30.0,
    until_done: Annotated[
        bool, cli.Option("--until-done", help="Stop when the queue is empty.")
    ] = False,
    name: Annotated[str | None, cli.Option("--name", help="This worker's name.")] = None,
) -> None:
    """Run ingest, embedding and research jobs of a postgresql:// library (one per machine;
    stop with Ctrl-C or SIGTERM: the job in hand finishes first)."""
    # workers/ is a face of its own (it runs jobs through api/): the command starts it
    from citewise.workers.run import WorkerOptions, run_worker

    run_worker(settings(), WorkerOptions(concurrency, heartbeat, stalled_after, until_done, name))


def queued_ingest(
    paths: list[Path], detach: bool, as_json: bool, selection: FileFilter | None = None
) -> None:
    """Defer one job per file, then (unless `detach`) follow them, and the embedding and
    vocabulary jobs they cause, to the end: one bar per stage."""
    from citewise.api.queue import JobsProgress, enqueue_ingest, follow_ingest
    from citewise.report.terminal import plain

    queued = enqueue_ingest(settings(), paths, selection)
    for failure in queued.failed:
        sys.stderr.write(plain(f"error: {failure.path}: {failure.reason} ({failure.code})") + "\n")
    ids = sorted(queued.jobs)
    if detach or not ids:
        _summary(JobsProgress({j: "todo" for j in ids}), queued, as_json)
        return
    with progress_bar(not as_json) as bar:
        bars = {stage: bar.add_task(stage, total=None) for stage in STAGES}

        def advance(now: IngestProgress) -> None:
            if as_json:
                _event({"event": "progress", **now.to_dict()})
            for stage in now.stages():
                bar.update(bars[stage.stage], total=stage.total, completed=stage.finished)

        final = follow_ingest(settings(), queued, advance)
    _followed(final, len(ids), as_json)
    if final.failures or queued.failed:
        raise cli.Exit(1)


def _followed(final: IngestProgress, jobs: int, as_json: bool) -> None:
    """The end of a followed ingest: each stage's counts, each failure's file and why."""
    from citewise.report.terminal import plain

    if as_json:
        _event({"event": "done", "jobs": jobs, **final.files_by_status(), **final.to_dict()})
        return
    for stage in final.stages():
        done = stage.finished - stage.failed
        out.print(f"{stage.stage}: {done} of {stage.total} done, {stage.failed} failed")
    for back in final.recovered:  # its documents are learned now: not a failure
        line = (
            f"recovered: vocabulary job {back.job} failed ({back.code}), but a later "
            "vocabulary job learned every document it left unlearned"
        )
        sys.stdout.write(plain(line) + "\n")
    for failure in final.failures:  # a vocabulary job's line names its batch's files
        line = f"error: {failure.subject}: {failure.text} ({failure.code}, {failure.stage})"
        sys.stderr.write(plain(line) + "\n")  # one line, unwrapped: a script may grep it


def _event(data: dict[str, object]) -> None:
    """One JSON object per line (`--json` of a followed queue: events as they happen)."""
    # ASCII: every control or non-ASCII character escaped, nothing can drive a terminal
    sys.stdout.write(json.dumps(data, ensure_ascii=True) + "\n")
    sys.stdout.flush()


def _summary(progress: JobsProgress, queued: QueuedJobs, as_json: bool) -> None:
    """What `--detach` queued: files by status; with --json also each file's job id and
    the vocabulary job waiting now (what `citewise queue cancel JOB` takes)."""
    from citewise.report.terminal import plain

    paths = queued.jobs
    by_status: dict[str, list[str]] = {}
    for job, status in sorted(progress.status.items()):
        by_status.setdefault(status, []).append(paths[job])
    if as_json:
        jobs = [{"job": job, "file": paths[job]} for job in sorted(paths)]
        _event(
            {"event": "done", "jobs": len(paths), **by_status, "queued": jobs,
             "vocabulary": queued.vocabulary}
        )  # fmt: skip
        return
    for status, files in sorted(by_status.items()):
        out.print(f"{status}: {len(files)} file(s)")
        if status == "failed":
            for path in files:
                err.print(plain(f"error: {path}: the job failed (see the worker's log)"))


def queued_research(topic: str, options: ResearchOptions, as_json: bool) -> None:
    """Create the task, defer its job, follow it; `citewise tasks resume ID` then writes the
    report files of the completed task."""
    from citewise.api.queue import enqueue_research, follow
    from citewise.api.research import task_store

    with open_library(embeddings=False) as lib:
        task = task_store(lib).create(topic, options)
    job = enqueue_research(settings(), task.id)
    err.print(f"task {task.id}: queued as job {job}")
    with progress_bar(not as_json) as bar:
        bar.add_task("waiting for a worker", total=None)
        final = follow(settings(), [job])
    with open_library(embeddings=False) as lib:
        state = task_store(lib).get(task.id).state
    if as_json:
        emit_json({"task": task.id, "job": job, "job_status": final.status[job], "state": state})
    else:
        out.print(f"task {task.id} · {state} (job {final.status[job]})")
        out.print(f"report files: citewise tasks resume {task.id}")
    if state != "completed":
        raise cli.Exit(1)
