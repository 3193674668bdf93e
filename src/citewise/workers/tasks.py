"""The job bodies a worker runs. Each is idempotent: a rerun after a crash redoes only
what the store does not hold yet (an unchanged file is skipped by its SHA-256, a document
whose blocks all have vectors is not embedded again, a research task resumes from its last
committed stage).

An ingest job parses and stores one file, then defers its follow-ups: the embedding of that
document (a batch any worker may take) and one debounced vocabulary job for every file
stored meanwhile. The keyword postings are not refreshed here: they are each machine's own
cache, brought up to date by the next search on the machine that asks.

Jobs name files by absolute path: every worker must see the same files (a shared mount).
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.config import Settings
from citewise.errors import CitewiseError
from citewise.workers.app import (
    EMBED,
    EMBED_DOCUMENT,
    FOLLOW_UP,
    INGEST,
    QUEUE,
    RESEARCH,
    RETRIES,
    VOCABULARY,
)
from citewise.workers.timing import JobClock

if TYPE_CHECKING:
    from citewise.api.library import Library

log = logging.getLogger(__name__)


class IngestJobError(CitewiseError):
    """A file a job was given could not be ingested (the job fails; the others go on)."""

    code = "INGEST_JOB_FAILED"


class Libraries:
    """Open Library objects shared by a worker's job threads, one thread at a time each
    (opened on a worker's first job: a worker that is started pays for no import it does
    not use)."""

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
            from citewise.api.library import Library

            location = self.settings.database or self.settings.library
            library = Library(location, embeddings=embeddings, settings=self.settings)
        try:
            yield library
        finally:
            self.free[embeddings].put(library)


def _libraries(context: Any) -> Libraries:
    found: Libraries = context.additional_context["libraries"]
    return found


def _defer(context: Any, task: str, lock: str, **kwargs: Any) -> None:
    """Defer a follow-up job unless the same one is already waiting (`lock` also keeps two
    from running at once)."""
    from procrastinate import exceptions

    job = context.app.configure_task(
        task, queue=QUEUE, queueing_lock=lock, lock=lock, priority=FOLLOW_UP
    )
    with suppress(exceptions.AlreadyEnqueued):
        job.defer(**kwargs)


def ingest_file(context: Any, path: str) -> dict[str, Any]:
    """Ingest one file (parse, store), then defer its embedding and the vocabulary pass;
    an unchanged file defers them too (its first run may have died before it could)."""
    clock = JobClock("ingest_file")
    with _libraries(context).borrow(embeddings=False) as library:
        report = library.ingest([Path(path)], refresh=False)
    if report.failed:
        failure = report.failed[0]
        raise IngestJobError(f"{failure.path}: {failure.reason}", code=failure.code)
    outcome = report.added or report.replaced or report.unchanged
    document = outcome[0] if outcome else None
    if document is not None:
        _defer(context, EMBED_DOCUMENT, f"{EMBED_DOCUMENT}:{document}", document=document)
        _defer(context, VOCABULARY, VOCABULARY)
    clock.done(
        path=path, blocks=report.blocks, pages=report.pages, unchanged=bool(report.unchanged)
    )
    return {"path": path, "document": document}


def embed_document(context: Any, document: str) -> int:
    """Embed the trusted blocks of one document, unless all of them have vectors of the
    configured model already; how many were embedded."""
    from citewise.ingest import EMBED_BATCH

    clock = JobClock("embed_document")
    with _libraries(context).borrow(embeddings=True) as library:
        embedder, store = library.embedder, library.store
        if embedder is None:
            clock.done(document=document, blocks=0)
            return 0
        store.vectors.register_model(embedder.name, embedder.dimensions)
        todo = [(b.rowid, b.text) for b in store.blocks(document) if b.trusted]
        rowids = [rowid for rowid, _ in todo]
        if store.dense_index(embedder.name).vectors(rowids) is not None:
            todo = []  # embedded already (a rerun, or the file was unchanged)
        chunk = int(getattr(embedder, "chunk", EMBED_BATCH))
        for start in range(0, len(todo), chunk):
            batch = todo[start : start + chunk]
            began, cpu = time.perf_counter(), time.thread_time()
            vectors = embedder.encode([text for _, text in batch], batch_size=EMBED_BATCH)
            clock.add("encode_cpu", time.thread_time() - cpu)
            saving = time.perf_counter()
            clock.add("encode_seconds", saving - began)
            store.vectors.save_vectors(embedder.name, [rowid for rowid, _ in batch], vectors)
            clock.add("save_seconds", time.perf_counter() - saving)
    clock.done(document=document, blocks=len(todo))
    return len(todo)


def learn_vocabulary(context: Any) -> int:
    """Learn the vocabulary of every document not learned yet (one such job waits at a
    time and one runs at a time, so files stored meanwhile share it)."""
    from citewise.agent.vocabulary import learn

    clock = JobClock("learn_vocabulary")
    with _libraries(context).borrow(embeddings=False) as library:
        learned = learn(library.store)
    clock.done(documents=learned)
    return learned


def embed_missing(context: Any) -> int:
    """Embed every trusted block lacking a vector of the configured model."""
    clock = JobClock("embed_missing")
    with _libraries(context).borrow(embeddings=True) as library:
        embedded = library.embed_missing()
    clock.done(blocks=embedded)
    return embedded


def research(context: Any, task_id: str) -> str:
    """Run a research task to its end from its last committed stage; its final state."""
    from citewise.api.research import ResearchDesk

    with _libraries(context).borrow(embeddings=True) as library:
        return ResearchDesk(library).resume(task_id).task.state


def register(app: Any) -> None:
    """Declare the jobs on `app` (retried, then failed; each job its own lock)."""
    for name, body in (
        (INGEST, ingest_file),
        (EMBED_DOCUMENT, embed_document),
        (VOCABULARY, learn_vocabulary),
        (EMBED, embed_missing),
        (RESEARCH, research),
    ):
        app.task(name=name, queue=QUEUE, retry=RETRIES, pass_context=True)(body)
