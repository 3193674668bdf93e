"""Research task routes: start a task in the background, follow it, read its report, cancel.

A task is a row in the library's task store from the moment POST /tasks returns, so it
outlives the server: one killed mid-way finishes with `citewise tasks resume ID`. Each task
runs in a worker thread with its own Library (its own SQLite connection), so requests stay
answered while it works; DELETE marks it cancelled and it stops at its next checkpoint.
"""

from __future__ import annotations

import logging
import threading
from contextlib import AbstractContextManager
from typing import Annotated, Any, Literal, Protocol

from fastapi import FastAPI, Header, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, StreamingResponse
from pydantic import BaseModel, Field, field_validator

from citewise.api import Library
from citewise.api.models import parse_spec
from citewise.api.research import ResearchDesk, ResearchOptions, TaskStateError, TaskStore
from citewise.errors import CitewiseError
from citewise.server.events import EventStreams, resume_after
from citewise.server.limits import MAX_LIST_ITEMS, MAX_TOPIC_CHARS, Limits, TooManyTasksError
from citewise.server.permissions import ADMIN

log = logging.getLogger(__name__)

LOCAL = "local"
# The HTML report names sources it did not write: nothing in it may run or load.
REPORT_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)


def known_sources() -> tuple[str, ...]:
    try:
        from citewise.api.sources import SOURCE_NAMES
    except ImportError:
        return (LOCAL,)
    return (LOCAL, *SOURCE_NAMES)


class TaskRequest(BaseModel):
    topic: str = Field(min_length=1, max_length=MAX_TOPIC_CHARS, description="The research topic.")
    sources: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=lambda: [LOCAL], min_length=1, max_length=MAX_LIST_ITEMS
    )
    rounds: int = Field(3, ge=1, le=10, description="Search rounds at most.")
    max_papers: int = Field(12, ge=1, le=200, description="Papers to include at most.")
    budget_tokens: int | None = Field(None, ge=1, description="Model token budget.")
    llm: str = Field(
        "extractive",
        max_length=300,
        description="BACKEND:MODEL, as `citewise research --llm`: `extractive` or a model "
        "citewise.toml configures for a role (never a path of the request's choosing).",
    )

    @field_validator("sources")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        names = [s.strip().lower() for s in value if s.strip()]
        known = known_sources()
        unknown = [n for n in names if n not in known]
        if unknown or not names:
            raise ValueError(f"unknown source {unknown[:1]} (known: {', '.join(known)})")
        return list(dict.fromkeys(names))

    @field_validator("llm")
    @classmethod
    def _model(cls, value: str) -> str:
        try:
            parse_spec(value)
        except CitewiseError as exc:
            raise ValueError(str(exc)) from exc
        return value

    def options(self) -> ResearchOptions:
        return ResearchOptions(
            sources=self.sources,
            rounds=self.rounds,
            max_papers=self.max_papers,
            llm=self.llm,
            budget_tokens=self.budget_tokens,
        )


class ReportNotReadyError(TaskStateError):
    code = "REPORT_NOT_READY"


class ModelNotAllowedError(CitewiseError):
    code = "MODEL_NOT_ALLOWED"


def same_model(a: str, b: str) -> bool:
    try:
        x, y = parse_spec(a), parse_spec(b)
    except CitewiseError:
        return False
    return (x.backend, x.model) == (y.backend, y.model)


class Service(Protocol):
    """What the task routes need of the app's shared service (server.app.Service), so this
    module does not import the app that mounts it."""

    library: Library
    limits: Limits
    streams: EventStreams

    @property
    def lock(self) -> AbstractContextManager[Any]: ...


class TaskRunner:
    """Starts tasks in worker threads (at most `max_tasks` at once), each with a Library of
    its own."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.threads: dict[str, threading.Thread] = {}
        self.starting = threading.Lock()

    @property
    def store(self) -> TaskStore:
        return TaskStore(self.svc.library.store.tasks)

    def allowed_models(self) -> list[str]:
        """What `llm` may name over HTTP: extractive and the models citewise.toml sets."""
        roles = self.svc.library.model_settings.roles
        return list(dict.fromkeys(["extractive", *(s for specs in roles.values() for s in specs)]))

    def check_model(self, llm: str) -> None:
        allowed = self.allowed_models()
        if not any(same_model(llm, a) for a in allowed):
            raise ModelNotAllowedError(
                f"model '{llm[:100]}' is not one this server is configured with",
                hint=f"use one of: {', '.join(allowed)} (models are set in citewise.toml "
                "[roles] on the server's machine)",
            )

    def start(self, topic: str, options: ResearchOptions) -> dict[str, Any]:
        self.check_model(options.llm)
        with self.starting:
            self.threads = {t: th for t, th in self.threads.items() if self.running(t)}
            if len(self.threads) >= self.svc.limits.max_tasks:
                raise TooManyTasksError(
                    f"{len(self.threads)} research tasks are running, the most this server runs",
                    hint="wait for one to finish, or cancel one with DELETE /tasks/{id}",
                )
            with self.svc.lock:
                task = self.store.create(topic, options)
            self._launch(task.id)
        return {"id": task.id, "state": task.state}

    def _launch(self, task_id: str) -> None:
        thread = threading.Thread(
            target=self._run, args=(task_id,), name=f"task-{task_id}", daemon=True
        )
        self.threads[task_id] = thread
        thread.start()

    def _run(self, task_id: str) -> None:
        run_task(self.svc.library, task_id, self.svc.lock)

    def running(self, task_id: str) -> bool:
        thread = self.threads.get(task_id)
        # registered but not yet started (no ident) counts as running: a GET racing the
        # launch must not report a task that is about to run as stopped
        return thread is not None and (thread.is_alive() or thread.ident is None)


def fail_unfinished(store: TaskStore, task_id: str, exc: Exception) -> None:
    """A task whose run stopped on an error outside its stages (a model that cannot load)
    is failed with the reason, not left in its state for ever."""
    task = store.get(task_id)
    if task.finished:
        return
    if isinstance(exc, CitewiseError):
        reason, code = exc.message, exc.code
    else:
        reason, code = f"internal error ({type(exc).__name__}; see the server log)", "INTERNAL"
    store.event(task_id, task.state, "error", {"error": reason, "code": code})
    store.set_state(task_id, "failed", f"{task.state}: {code}: {reason}")


def run_task(parent: Library, task_id: str, lock: AbstractContextManager[Any]) -> None:
    """Run (or resume) `task_id` on a Library of its own, in the calling thread. Whatever
    stops it (the model that cannot load, or the Library that cannot open: a busy or
    damaged database) leaves the task failed with the reason before this returns, so a
    caller that sees the thread ended reads the task's final state."""
    try:
        with Library(parent.directory, settings=parent.settings) as library:
            try:
                ResearchDesk(library).resume(task_id)
            except Exception as exc:
                fail_unfinished(TaskStore(library.store.tasks), task_id, exc)
                raise
    except CitewiseError as exc:  # stored as the task's failure
        log.warning("task %s stopped: %s", task_id, exc)
        _fail_on(parent, task_id, exc, lock)
    except Exception as exc:  # a thread must not die silently: the log says why
        log.exception("task %s crashed", task_id)
        _fail_on(parent, task_id, exc, lock)


def _fail_on(
    parent: Library, task_id: str, exc: Exception, lock: AbstractContextManager[Any]
) -> None:
    """Fail the task through the parent's connection when the task's own Library could
    not (it never opened); a task already failed by its own Library is left as it is."""
    try:
        with lock:
            fail_unfinished(TaskStore(parent.store.tasks), task_id, exc)
    except Exception:  # the database itself is gone: the log has the reason above
        log.exception("task %s could not be marked failed", task_id)


def runner(request: Request) -> TaskRunner:
    found: TaskRunner = request.app.state.service.tasks
    return found


def request_actor(request: Request) -> str:
    """Who sent the request: the user whose token it carries (`serve --users`), else
    "token" (the one shared token) or "local"."""
    return str(getattr(request.state, "user", None) or getattr(request.app.state, "actor", "local"))


OWNER = "owner"  # the task event naming the user who started it (servers with users)


def record_owner(store: TaskStore, task_id: str, user: str | None) -> None:
    """Name the user who started `task_id` (nothing without users: everyone owns it)."""
    if user:
        store.event(task_id, "planning", OWNER, {"user": user})


def visible_tasks(store: TaskStore, user: str | None, role: str | None) -> list[Any]:
    """The tasks a caller may list: all without users or for an admin, else their own."""
    listed = store.list_tasks()
    if not user or role == ADMIN:
        return listed
    return [t for t in listed if any(e.data.get("user") == user for e in store.events(t.id, OWNER))]


def task_routes(app: FastAPI) -> None:
    """The research task API: start, list, show and cancel tasks; reports and events."""
    _lifecycle_routes(app)
    _output_routes(app)


def _lifecycle_routes(app: FastAPI) -> None:
    @app.post("/tasks", status_code=202, tags=["research"])
    def start_task(body: TaskRequest, request: Request) -> dict[str, Any]:
        """Start a research task in the background: {"id", "state"} at once."""
        tasks = runner(request)
        started = tasks.start(body.topic, body.options())
        with tasks.svc.lock:
            record_owner(tasks.store, started["id"], getattr(request.state, "user", None))
            tasks.svc.library.record_action(
                request_actor(request), "research", body.topic, {"task": started["id"]}
            )
        return started

    @app.get("/tasks", tags=["research"])
    def list_tasks(request: Request) -> list[dict[str, Any]]:
        """The `citewise tasks list --json` objects, oldest first: on a server with users,
        only the caller's own tasks unless their role is admin."""
        tasks = runner(request)
        user, role = (getattr(request.state, k, None) for k in ("user", "role"))
        with tasks.svc.lock:
            return [t.summary() for t in visible_tasks(tasks.store, user, role)]

    @app.get("/tasks/{task_id}", tags=["research"])
    def show_task(task_id: str, request: Request) -> dict[str, Any]:
        """The `citewise tasks show --json` object: state, round, options, counts, events."""
        tasks = runner(request)
        # `running` first: a thread seen ended has written its final state, so the state
        # read after it is final too (read the other way round, a task failing between
        # the two reads showed `planning` and not running)
        running = tasks.running(task_id)
        with tasks.svc.lock:
            shown = ResearchDesk(tasks.svc.library).show(task_id).to_dict()
        return {**shown, "running": running}

    @app.delete("/tasks/{task_id}", tags=["research"])
    def cancel_task(task_id: str, request: Request) -> JSONResponse:
        """Cancel a task; its worker stops at the next checkpoint. 409 if already finished."""
        tasks = runner(request)
        with tasks.svc.lock:
            task = tasks.store.cancel(task_id)
            tasks.svc.library.record_action(request_actor(request), "cancel", task_id, {})
        return JSONResponse(task.summary())


def _output_routes(app: FastAPI) -> None:
    """What a task produces: its report, and its event log as a stream."""

    @app.get(
        "/tasks/{task_id}/report",
        tags=["research"],
        response_class=Response,
        response_model=None,
        responses={200: {"content": {"text/markdown": {}, "text/html": {}}}},
    )
    def task_report(
        task_id: str,
        request: Request,
        format: Annotated[Literal["markdown", "html"], Query()] = "markdown",
    ) -> PlainTextResponse | HTMLResponse:
        """The report as Markdown (default) or self-contained HTML; 409 until completed."""
        tasks = runner(request)
        with tasks.svc.lock:
            task = tasks.store.get(task_id)
            if task.state != "completed":
                raise ReportNotReadyError(
                    f"task '{task_id}' is {task.state}, not completed",
                    hint=f"follow GET /tasks/{task_id}/events; the report comes at the end",
                )
            rendered = ResearchDesk(tasks.svc.library).render(task_id)
        if format == "html":
            return HTMLResponse(rendered.html, headers={"Content-Security-Policy": REPORT_CSP})
        return PlainTextResponse(rendered.markdown, media_type="text/markdown; charset=utf-8")

    @app.get(
        "/tasks/{task_id}/events",
        tags=["research"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
    )
    def task_events(
        task_id: str,
        request: Request,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        """Server-Sent Events: the task's event log, then new events as they come; the
        last message is `end` with the task's final state."""
        return runner(request).svc.streams.open_stream(
            task_id, resume_after(last_event_id), request
        )
