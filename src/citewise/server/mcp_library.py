"""The library side of `citewise mcp`: the writer Library the tools share, readers of their
own for read-only tools, and research tasks in background threads (a task cut off when the
client closes the server resumes with `citewise tasks resume ID`)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image

from citewise.api import Library
from citewise.api.research import task_store
from citewise.api.structure import BlockEvidence
from citewise.config import Settings
from citewise.errors import CitewiseError
from citewise.server import limits as server_limits
from citewise.server.limits import TooManyTasksError
from citewise.server.pages import render_page
from citewise.server.readers import ReaderPool
from citewise.server.tasks import TaskRequest, run_task

log = logging.getLogger(__name__)

MAX_PAGE_PIXELS = 2_000_000  # a page image small enough to hand to a model

T = TypeVar("T")


class LibraryTools:
    """The writer Library (one call at a time: model answers, comparisons, task starts),
    readers on connections of their own for the read-only tools (server/readers.py, as
    `citewise serve`), and the research threads, at most `limits.max_tasks` running."""

    def __init__(
        self,
        directory: str | Path | None,
        settings: Settings | None = None,
        limits: server_limits.Limits | None = None,
    ) -> None:
        self.limits = limits or server_limits.DEFAULTS
        self.library = Library(directory, settings=settings)
        self.lock = threading.RLock()
        self.readers = ReaderPool(self.library, self.lock, self.limits.max_readers)
        self.threads: dict[str, threading.Thread] = {}
        self.starting = threading.Lock()

    def call(self, work: Callable[[Library], T]) -> T:
        """`work(library)` under the lock; a CitewiseError becomes the tool's error result
        with its code and hint."""
        try:
            with self.lock:
                return work(self.library)
        except CitewiseError as exc:
            raise ToolError(str(exc)) from exc

    def read(self, work: Callable[[Library], T]) -> T:
        """`work(reader)` on a reader of its own, beside the writer and other reads."""
        try:
            with self.readers.reader() as reader:
                return work(reader)
        except CitewiseError as exc:
            raise ToolError(str(exc)) from exc

    def uses_model(self) -> bool:
        with self.lock:
            return self.library.generator() is not None

    def start_research(self, request: TaskRequest) -> dict[str, Any]:
        def create(library: Library) -> dict[str, Any]:
            task = task_store(library).create(request.topic, request.options())
            return {"id": task.id, "state": task.state}

        with self.starting:
            running = [t for t, thread in self.threads.items() if thread.is_alive()]
            if len(running) >= self.limits.max_tasks:
                refused = TooManyTasksError(
                    f"{len(running)} research tasks are running, the most this server runs",
                    hint="wait for one to finish (get_task), as POST /tasks does",
                )
                raise ToolError(str(refused)) from refused
            started = self.call(create)
            thread = threading.Thread(
                target=self._run, args=(started["id"],), name=f"task-{started['id']}", daemon=True
            )
            self.threads[started["id"]] = thread
            thread.start()
        return started

    def _run(self, task_id: str) -> None:
        run_task(self.library, task_id, self.lock)

    def page_image(self, evidence: BlockEvidence) -> Image:
        box = [round(v, 1) for v in evidence.block.bbox]  # as the evidence shows it
        png = render_page(evidence.document.path, evidence.block.page, [box], MAX_PAGE_PIXELS)
        return Image(data=png, format="png")
