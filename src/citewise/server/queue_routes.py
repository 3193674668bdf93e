"""Job queue routes of a PostgreSQL library: cancel queued work (api/queue_cancel.py),
beside the research task routes. The same rules as every route that changes something:
a bearer token off loopback, a `write` user with `serve --users`, a line in the audit log."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field, model_validator

from citewise.api.queue_cancel import (
    CancelReport,
    cancel_files,
    cancel_jobs,
    cancel_subject,
    cancel_waiting,
    open_jobs,
)
from citewise.server.limits import MAX_LIST_ITEMS
from citewise.server.tasks import request_actor


class CancelRequest(BaseModel):
    """Which jobs to cancel: ids, files (absolute paths; a folder: every file's under it),
    or `all` waiting jobs (with `running`: running ones asked to abort too). One of them."""

    jobs: list[int] = Field(default_factory=list, max_length=MAX_LIST_ITEMS)
    files: list[str] = Field(default_factory=list, max_length=MAX_LIST_ITEMS)
    all: bool = False
    running: bool = Field(False, description="With `all`: ask running jobs to abort too.")

    @model_validator(mode="after")
    def _one(self) -> CancelRequest:
        chosen = sum((bool(self.jobs), bool(self.files), self.all))
        if chosen != 1:
            raise ValueError("give exactly one of jobs, files or all")
        if self.running and not self.all:
            raise ValueError("running goes with all")
        if any(not f.startswith("/") for f in self.files):
            raise ValueError("files are absolute paths, as the workers see them")
        if any(len(f) > 4096 for f in self.files):
            raise ValueError("a path is at most 4096 characters")
        return self


def _done(request: Request, report: CancelReport, subject: str) -> dict[str, Any]:
    svc = request.app.state.service
    with svc.lock:
        detail: dict[str, object] = {"jobs": report.job_ids()}
        svc.library.record_action(request_actor(request), "cancel", subject, detail)
    return report.to_dict()


def queue_routes(app: FastAPI) -> None:
    """GET /queue/jobs, POST /queue/cancel and DELETE /queue/jobs/{job_id}."""

    @app.get("/queue/jobs", tags=["queue"])
    def queued_jobs(request: Request) -> list[dict[str, object]]:
        """The jobs waiting or running now, as `citewise queue list --json`."""
        settings = request.app.state.service.library.settings
        return [j.to_dict() for j in open_jobs(settings)]

    @app.post("/queue/cancel", tags=["queue"])
    def cancel_queued(body: CancelRequest, request: Request) -> dict[str, Any]:
        """Cancel queued jobs: waiting ones never run (`cancelled`), running ones are asked
        to abort (`aborting`: they stop at their next safe point); also `finished` and
        `kept` (the shared vocabulary job while it serves other files; running jobs
        unless `running`). 404 for an
        unknown job id or a file no job names, 409 when they all finished already."""
        settings = request.app.state.service.library.settings
        subject = cancel_subject(body.jobs, body.files, body.all)
        if body.all:
            return _done(request, cancel_waiting(settings, body.running), subject)
        if body.jobs:
            return _done(request, cancel_jobs(settings, body.jobs), subject)
        from pathlib import Path

        return _done(request, cancel_files(settings, [Path(f) for f in body.files]), subject)

    @app.delete("/queue/jobs/{job_id}", tags=["queue"])
    def cancel_job(job_id: int, request: Request) -> dict[str, Any]:
        """Cancel one job (as `citewise queue cancel JOB`); 404 unknown, 409 finished."""
        settings = request.app.state.service.library.settings
        return _done(request, cancel_jobs(settings, [job_id]), cancel_subject([job_id], [], False))
