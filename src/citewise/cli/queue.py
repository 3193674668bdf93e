"""`citewise queue cancel`: stop queued work of a PostgreSQL library (api/queue_cancel.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, out, settings

if TYPE_CHECKING:
    from citewise.api.queue_cancel import CancelReport

queue_app = cli.App(
    help="The job queue of a postgresql:// library (what `ingest --queue` and "
    "`research --queue` defer for `citewise worker`).",
    no_args_is_help=True,
)
app.add_group(queue_app, name="queue")

SAID = {
    "cancelled": "cancelled (waiting: no worker runs it)",
    "aborting": "asked to abort (running: it stops at its next safe point)",
    "finished": "finished already",
    "kept": "kept running (--all --running asks it to abort)",
}
SHARED = "kept: the vocabulary job is shared by every file stored meanwhile"
SERVED = "every file it serves is cancelled"  # why cancelling files stopped the vocabulary job


@queue_app.command("list")
def list_jobs(
    as_json: Annotated[bool, cli.Option("--json", help="Print the jobs as JSON.")] = False,
) -> None:
    """The jobs waiting or running now: id, kind, status and what each works on."""
    from citewise.api.queue_cancel import open_jobs

    jobs = open_jobs(settings())
    if as_json:
        emit_json([j.to_dict() for j in jobs])
        return
    from citewise.report.terminal import plain

    if not jobs:
        out.print("no job waits or runs in the library's queue")
    for job in jobs:
        sys.stdout.write(plain(f"{job.job}\t{job.status}\t{job.kind}\t{job.subject}") + "\n")


@queue_app.command("cancel")
def cancel(
    targets: Annotated[
        list[str] | None,
        cli.Argument(
            metavar="JOB|PATH...",
            help="Job ids (digits), or files and folders (the jobs of every file under it).",
        ),
    ] = None,
    every: Annotated[
        bool, cli.Option("--all", help="Every waiting job of the library's queue.")
    ] = False,
    running: Annotated[
        bool, cli.Option("--running", help="With --all: ask running jobs to abort too.")
    ] = False,
    as_json: Annotated[bool, cli.Option("--json", help="Print what was done as JSON.")] = False,
) -> None:
    """Cancel queued jobs: a waiting job never runs, a running one is asked to abort and
    stops at its next safe point (nothing half stored). The same `ingest --queue` later
    queues the files anew and finishes them."""
    from citewise.api.queue_cancel import cancel_files, cancel_jobs, cancel_waiting

    given = list(targets or [])
    if every == bool(given) or (running and not every):
        raise cli.BadParameter("give job ids or paths, or --all (and --running only with --all)")
    if every:
        report = cancel_waiting(settings(), running=running)
    elif all(t.isdigit() for t in given):
        report = cancel_jobs(settings(), [int(t) for t in given])
    elif any(t.isdigit() for t in given):
        raise cli.BadParameter("give job ids or paths, not both (a file named 12: ./12)")
    else:
        report = cancel_files(settings(), [Path(t) for t in given])
        _said(report, as_json, by_files=True)
        return
    _said(report, as_json)


def _said(report: CancelReport, as_json: bool, by_files: bool = False) -> None:
    from citewise.report.terminal import plain

    if as_json:
        emit_json(report.to_dict())
        return
    groups = report.groups()
    if not any(groups.values()):
        out.print("no job waits or runs in the library's queue")
    for name, entries in groups.items():
        for entry in entries:
            said = SHARED if name == "kept" and entry.kind == "vocabulary" else SAID[name]
            if by_files and name in ("cancelled", "aborting") and entry.kind == "vocabulary":
                said = f"{said}; {SERVED}"
            line = f"job {entry.job} {entry.kind} {entry.subject}".rstrip()
            state = f"{entry.status}, " if name == "finished" else ""
            sys.stdout.write(plain(f"{line}: {state}{said}") + "\n")
