"""GET /tasks/{id}/events: a task's event log as Server-Sent Events, then new events as the
task logs them, then `end` with its final state.

Each stream is an async generator on the event loop: it sleeps with asyncio, reads the task
store in a worker thread only for the moment of one query (on a connection of its own, so a
slow /ask never holds it up), and stops as soon as the client is gone. The number of open
streams is capped, so clients cannot use up the server's threads or connections.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from citewise.api.research import BriefEvent, Task, TaskEvent, TaskStore
from citewise.server.limits import Limits, TooManyStreamsError

POLL_SECONDS = 0.25
KEEPALIVE_SECONDS = 15.0  # a comment line now and then, so idle proxies keep the stream
LAST_EVENT_ID = re.compile(r"[0-9]{1,18}")  # an event id fits in SQLite's 64-bit integer


def resume_after(last_event_id: str | None) -> int:
    """The event id a reconnecting browser saw last (`Last-Event-ID`); anything that is not
    a plausible id (empty, signed, 5,000 digits) starts the stream over."""
    text = (last_event_id or "").strip()
    return int(text) if LAST_EVENT_ID.fullmatch(text) else 0


def event_json(e: TaskEvent) -> dict[str, object]:
    return BriefEvent.of(e).stream_dict()


def sse(name: str, data: dict[str, Any], event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


class EventStreamResponse(StreamingResponse):
    """A StreamingResponse that gives back its stream slot however the stream ends (even
    when the client left before the first byte)."""

    def __init__(self, content: AsyncIterator[str], release: Callable[[], None]) -> None:
        super().__init__(
            content, media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


class EventStreams:
    """The open event streams of one server and the connection they read from."""

    def __init__(self, store: TaskStore, close: Callable[[], None], limits: Limits) -> None:
        self.store = store
        self._close = close
        self.limits = limits
        self.lock = threading.Lock()
        self.open = 0

    def close(self) -> None:
        with self.lock:
            self._close()

    def read(self, task_id: str, after: int) -> tuple[list[TaskEvent], Task]:
        """The task's events after id `after`, and the task (TaskNotFoundError if none)."""
        with self.lock:
            task = self.store.get(task_id)
            return self.store.events(task_id, after=after), task

    def open_stream(self, task_id: str, after: int, request: Request) -> EventStreamResponse:
        """A stream of the task's events after `after`; 404 for no task, 429 past the cap."""
        self.read(task_id, after)  # 404 before the stream starts
        with self.lock:
            if self.open >= self.limits.max_streams:
                raise TooManyStreamsError(
                    f"{self.open} event streams are open, the most this server keeps",
                    hint="close another stream, or poll GET /tasks/{id} instead",
                )
            self.open += 1
        return EventStreamResponse(self._stream(task_id, after, request), self._release)

    def _release(self) -> None:
        with self.lock:
            self.open -= 1

    async def _stream(self, task_id: str, last: int, request: Request) -> AsyncIterator[str]:
        idle = 0.0
        while not await request.is_disconnected():
            events, task = await run_in_threadpool(self.read, task_id, last)
            for e in events:
                yield sse(e.kind, event_json(e), e.id)
                last = e.id
            if task.finished:
                yield sse("end", {**task.summary(), "state": task.state})
                return
            if events:
                idle = 0.0
                continue
            await asyncio.sleep(POLL_SECONDS)
            idle += POLL_SECONDS
            if idle >= KEEPALIVE_SECONDS:
                yield ": keep-alive\n\n"
                idle = 0.0
