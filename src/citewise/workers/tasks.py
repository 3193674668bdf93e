"""The job bodies a worker runs. Each is idempotent: a rerun after a crash redoes only
what the store does not hold yet (an unchanged file is skipped by its SHA-256, blocks with
vectors are not embedded again, a research task resumes from its last committed stage).

Jobs name files by absolute path: every worker must see the same files (a shared mount).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from citewise.api.library import Library
from citewise.config import Settings
from citewise.errors import CitewiseError
from citewise.workers.app import EMBED, INGEST, QUEUE, RESEARCH, RETRIES

log = logging.getLogger(__name__)


class IngestJobError(CitewiseError):
    """A file a job was given could not be ingested (the job fails; the others go on)."""

    code = "INGEST_JOB_FAILED"


class Libraries:
    """Open Library objects shared by a worker's job threads, one thread at a time each."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.free: dict[bool, queue.SimpleQueue[Library]] = {
            True: queue.SimpleQueue(),
            False: queue.SimpleQueue(),
        }

    @contextmanager
    def borrow(self, embeddings: bool) -> Iterator[Library]:
        try:
            library = self.free[embeddings].get_nowait()
        except queue.Empty:
            location = self.settings.database or self.settings.library
            library = Library(location, embeddings=embeddings, settings=self.settings)
        try:
            yield library
        finally:
            self.free[embeddings].put(library)


def _libraries(context: Any) -> Libraries:
    found: Libraries = context.additional_context["libraries"]
    return found


def _defer_embedding(context: Any) -> None:
    """One embedding job waiting at a time (more files arriving join the same one)."""
    from procrastinate import exceptions

    with suppress(exceptions.AlreadyEnqueued):
        context.app.configure_task(EMBED, queue=QUEUE, queueing_lock=EMBED, lock=EMBED).defer()


def ingest_file(context: Any, path: str) -> dict[str, Any]:
    """Ingest one file (parse, store, learn its vocabulary), then ask for its embedding."""
    with _libraries(context).borrow(embeddings=False) as library:
        report = library.ingest([Path(path)])
    if report.failed:
        failure = report.failed[0]
        raise IngestJobError(f"{failure.path}: {failure.reason}", code=failure.code)
    _defer_embedding(context)
    outcome = report.added or report.replaced or report.unchanged
    return {"path": path, "document": outcome[0] if outcome else None}


def embed_missing(context: Any) -> int:
    """Embed every trusted block lacking a vector of the configured model."""
    with _libraries(context).borrow(embeddings=True) as library:
        return library.embed_missing()


def research(context: Any, task_id: str) -> str:
    """Run a research task to its end from its last committed stage; its final state."""
    from citewise.api.research import ResearchDesk

    with _libraries(context).borrow(embeddings=True) as library:
        return ResearchDesk(library).resume(task_id).task.state


def register(app: Any) -> None:
    """Declare the jobs on `app` (retried, then failed; each job its own lock)."""
    app.task(name=INGEST, queue=QUEUE, retry=RETRIES, pass_context=True)(ingest_file)
    app.task(name=EMBED, queue=QUEUE, retry=RETRIES, pass_context=True)(embed_missing)
    app.task(name=RESEARCH, queue=QUEUE, retry=RETRIES, pass_context=True)(research)
