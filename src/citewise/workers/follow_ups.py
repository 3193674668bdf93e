"""Which follow-up jobs an ingest job defers, so that each piece of work is queued once.

A document's embedding. An ingest that stored new content (the file was added or had
changed) defers one; the one already waiting for the document is reused (a queueing lock),
since it reads the blocks only when it starts. An ingest that found its document unchanged
(a job run again after its worker died, or the same file queued again) defers one only when
nothing else will do the work: an embedding job for the document waiting or running is
reused (a running one looks at the document's blocks again before it ends, see
`missing_vectors` in api/jobs.py), and a document whose trusted blocks all have vectors of
the configured model needs none: the outcome names the last embedding job of the document
that succeeded (none once retention removed it). Without that, a retried ingest whose
first attempt's embedding job had already finished deferred a second one for the same
work. A changed model or changed content leaves blocks without the model's vectors: a new
job is deferred.
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from citewise.errors import CitewiseError
from citewise.workers.app import EMBED_DOCUMENT, FOLLOW_UP, QUEUE

if TYPE_CHECKING:
    from citewise.api import Library

log = logging.getLogger(__name__)


def defer(context: Any, task: str, lock: str, **kwargs: Any) -> int | None:
    """Defer a follow-up job unless the same one is already waiting (`lock` also keeps two
    from running at once); the id of the job that will do it (deferred now or waiting)."""
    from procrastinate import exceptions

    job = context.app.configure_task(
        task, queue=QUEUE, queueing_lock=lock, lock=lock, priority=FOLLOW_UP
    )
    for _ in range(3):  # the waiting one may start between the two looks: defer again
        try:
            return int(job.defer(**kwargs))
        except exceptions.AlreadyEnqueued:
            waiting = _jobs(context, lock, "todo")
            if waiting:
                return waiting[-1]
    return None


class Libraries(Protocol):
    """A worker's open libraries (workers/tasks.py), lent one thread at a time."""

    def borrow(self, embeddings: bool) -> AbstractContextManager[Library]: ...


def embedding(context: Any, libraries: Libraries, document: str, changed: bool) -> int | None:
    """The embedding job that answers for `document` after an ingest stored it (`changed`)
    or found it unchanged: deferred now, waiting, running, or (unchanged and every trusted
    block has a vector of the configured model) the last that succeeded; None when the
    document needs none and the queue no longer holds one."""
    lock = f"{EMBED_DOCUMENT}:{document}"
    if changed:
        return defer(context, EMBED_DOCUMENT, lock, document=document)
    for status in ("todo", "doing"):  # waiting first: it may start between the two looks
        found = _jobs(context, lock, status)
        if found:
            return found[-1]
    if _embedded(libraries, document):
        succeeded = _jobs(context, lock, "succeeded")
        return succeeded[-1] if succeeded else None
    return defer(context, EMBED_DOCUMENT, lock, document=document)


def _embedded(libraries: Libraries, document: str) -> bool:
    """Whether every trusted block of `document` has a vector of the configured model
    (False when this worker cannot tell: the embedding job then says why)."""
    from citewise.api.jobs import missing_vectors

    try:
        with libraries.borrow(embeddings=True) as library:
            embedder = library.embedder
            return embedder is not None and not missing_vectors(library, embedder, document)
    except CitewiseError:  # the model cannot be opened here: its embedding job reports it
        log.debug("cannot tell whether %s is embedded", document, exc_info=True)
        return False


def _jobs(context: Any, lock: str, status: str) -> list[int]:
    """The ids of the follow-up jobs holding queueing lock `lock` in `status`, oldest first."""
    found = context.app.job_manager.list_jobs(queueing_lock=lock, status=status)
    return sorted(int(j.id) for j in found)
