"""The job bodies a worker runs. Each is idempotent: a rerun after a crash redoes only
what the store does not hold yet (an unchanged file is skipped by its SHA-256, a document
whose blocks all have vectors is not embedded again, a research task resumes from its last
committed stage).

An ingest job parses and stores one file, then defers its follow-ups: the embedding of that
document (a batch any worker may take; none when that work is waiting, running or done:
follow_ups.py) and one debounced vocabulary job for every file stored meanwhile. The
keyword postings are not refreshed here: they are each machine's own cache, brought up to
date by the next search on the machine that asks.

Each job keeps its outcome beside the queue (store/postgres/queue.py `job_outcomes`): an
ingest job the document it stored and the ids of its follow-up jobs, a failed attempt its
error's code and message, so `ingest --queue` follows exactly the jobs its files caused
and names each failure's file and why (procrastinate keeps neither).

A job asked to abort (`citewise queue cancel`: procrastinate's abort request) stops at
its next safe point, where nothing is half stored: an ingest job before it parses and once
the file is stored (before deferring its follow-ups: the same `ingest --queue` again finds
the file unchanged and defers them), an embedding job before each batch (each batch's
vectors are saved whole; a rerun embeds the document again), a vocabulary or sweep job
before it starts, a research job at the task's next checkpoint (the task is cancelled).

Jobs name files by absolute path: every worker must see the same files (a shared mount).
"""

from __future__ import annotations

import contextvars
import functools
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.config import Settings
from citewise.errors import CitewiseError
from citewise.workers import follow_ups
from citewise.workers.app import EMBED, EMBED_DOCUMENT, INGEST, QUEUE, RESEARCH, RETRIES, VOCABULARY
from citewise.workers.timing import JobClock

if TYPE_CHECKING:
    from citewise.api.library import Library

log = logging.getLogger(__name__)
EMBED_PASSES = 3  # an embedding job's looks at its document (a replaced one: embedded again)
# What a failing job's body leaves undone, for its outcome: a vocabulary job learns every
# document not learned yet, not only the files that deferred it (None: not known).
_LEFT: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar(
    "citewise_left_undone", default=None
)


class IngestJobError(CitewiseError):
    """A file a job was given could not be ingested (the job fails; the others go on)."""

    code = "INGEST_JOB_FAILED"


class EmbedderUnavailableError(CitewiseError):
    """An embedding job on a worker that cannot load the library's embedding model: the job
    fails (and is retried), rather than succeed with no vectors stored."""

    code = "EMBEDDER_UNAVAILABLE"


def _no_embedder(settings: Settings) -> EmbedderUnavailableError:
    from citewise.api.jobs import embedding_model

    model = embedding_model(settings)
    return EmbedderUnavailableError(
        f"this worker cannot load the embedding model {model}",
        hint="install it where the worker runs (pip install 'citewise[embed]') or configure "
        "one it has ([embed] in citewise.toml, $CITEWISE_EMBED_MODEL), restart the worker, "
        "then queue the files again",
    )


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


def _record(context: Any, **fields: Any) -> None:
    """This attempt's outcome, for whoever follows the job (store/postgres/queue.py)."""
    from citewise.api.jobs import JobOutcome, record_outcome

    try:
        record_outcome(
            context.app.connector, JobOutcome(int(context.job.id), context.job.task_name, **fields)
        )
    except Exception:  # an outcome is a report: losing one must not fail the job
        log.warning("could not record the outcome of job %s", context.job.id, exc_info=True)


def stop_if_asked(context: Any) -> None:
    """End the job here (procrastinate's `aborted`) if someone asked it to abort."""
    from procrastinate.exceptions import JobAborted

    if context.should_abort():
        raise JobAborted(f"job {context.job.id} stopped on an abort request")


def ingest_file(context: Any, path: str) -> dict[str, Any]:
    """Ingest one file (parse, store), then defer its embedding and the vocabulary pass;
    an unchanged file defers them too (its first run may have died before it could),
    except an embedding already waiting, running or done (follow_ups.py). Its outcome
    names the document and those two jobs. An abort request stops it before the parse, or
    once the file is stored (before the follow-ups)."""
    clock = JobClock("ingest_file")
    stop_if_asked(context)
    with _libraries(context).borrow(embeddings=False) as library:
        report = library.ingest([Path(path)], refresh=False)
    stop_if_asked(context)
    if report.failed:
        failure = report.failed[0]
        raise IngestJobError(failure.reason, code=failure.code)  # the path is the outcome's subject
    outcome = report.added or report.replaced or report.unchanged
    document = outcome[0] if outcome else None
    deferred: list[int | None] = []
    if document is not None:  # unchanged: no second embedding job for work done or under way
        changed = not report.unchanged
        deferred.append(follow_ups.embedding(context, _libraries(context), document, changed))
        deferred.append(follow_ups.defer(context, VOCABULARY, VOCABULARY))
    _record(
        context,
        subject=path,
        document=document,
        follow_ups=tuple(j for j in deferred if j is not None),
    )
    clock.done(
        path=path, blocks=report.blocks, pages=report.pages, unchanged=bool(report.unchanged)
    )
    return {"path": path, "document": document}


def embed_document(context: Any, document: str) -> int:
    """Embed the trusted blocks of one document, unless all of them have vectors of the
    configured model already; how many were embedded. A worker without the model fails
    the job (EMBEDDER_UNAVAILABLE). An abort request stops it before each batch."""
    from citewise.api.jobs import EMBED_BATCH, missing_vectors

    clock = JobClock("embed_document")
    stop_if_asked(context)
    with _libraries(context).borrow(embeddings=True) as library:
        embedder, store = library.embedder, library.store
        if embedder is None:  # the job exists to embed: "done" here would be a silent gap
            raise _no_embedder(library.settings)
        chunk, embedded = int(getattr(embedder, "chunk", EMBED_BATCH)), 0
        # Looked at again once embedded: an ingest that finds the document unchanged while
        # this job runs relies on it (follow_ups.py), even if the content was replaced
        # meanwhile. Empty at once when embedded already (a rerun, or the file unchanged).
        for _ in range(EMBED_PASSES):
            todo = missing_vectors(library, embedder, document)
            if not todo:
                break
            for start in range(0, len(todo), chunk):
                stop_if_asked(context)  # before each batch: the model may have loaded for long
                batch = todo[start : start + chunk]
                began, cpu = time.perf_counter(), time.thread_time()
                vectors = embedder.encode([text for _, text in batch], batch_size=EMBED_BATCH)
                clock.add("encode_cpu", time.thread_time() - cpu)
                saving = time.perf_counter()
                clock.add("encode_seconds", saving - began)
                store.vectors.save_vectors(embedder.name, [rowid for rowid, _ in batch], vectors)
                clock.add("save_seconds", time.perf_counter() - saving)
            embedded += len(todo)
    clock.done(document=document, blocks=embedded)
    return embedded


def learn_vocabulary(context: Any) -> int:
    """Learn the vocabulary of every document not learned yet (one such job waits at a
    time and one runs at a time, so files stored meanwhile share it)."""
    from citewise.api.jobs import learn_vocabulary as learn

    clock = JobClock("learn_vocabulary")
    stop_if_asked(context)
    with _libraries(context).borrow(embeddings=False) as library:
        try:
            learned = learn(library)
        except Exception:
            _LEFT.set(_unlearned(library))  # the failure names them all (its outcome)
            raise
    clock.done(documents=learned)
    return learned


def _unlearned(library: Library) -> tuple[str, ...] | None:
    """The documents whose vocabulary is still not learned (None if that cannot be read)."""
    from citewise.api.jobs import unlearned_documents

    try:
        return unlearned_documents(library)
    except Exception:  # the store itself failed: the outcome says only why
        log.warning("could not list the documents left unlearned", exc_info=True)
        return None


def embed_missing(context: Any) -> int:
    """Embed every trusted block lacking a vector of the configured model."""
    clock = JobClock("embed_missing")
    stop_if_asked(context)
    with _libraries(context).borrow(embeddings=True) as library:
        if library.embedder is None:
            raise _no_embedder(library.settings)
        embedded = library.embed_missing()
    clock.done(blocks=embedded)
    return embedded


def research(context: Any, task_id: str) -> str:
    """Run a research task to its end from its last committed stage; its final state. An
    abort request cancels the task, which stops at its next checkpoint (a watcher thread
    looks every half second: the task's own thread is busy in its stages)."""
    from citewise.api.research import ResearchDesk

    with _libraries(context).borrow(embeddings=True) as library:
        done = threading.Event()
        watcher = threading.Thread(
            target=_cancel_on_abort,
            args=(context, library, task_id, done),
            name=f"abort-watch-{task_id}",
            daemon=True,
        )
        watcher.start()
        try:
            state = ResearchDesk(library).resume(task_id).task.state
        finally:
            done.set()
            watcher.join()
    if state == "cancelled":  # by the abort request (or a user): the queue says `aborted`
        stop_if_asked(context)
    return state


def _cancel_on_abort(context: Any, library: Library, task_id: str, done: threading.Event) -> None:
    """Cancel research task `task_id` once its job is asked to abort (looked at every half
    second until `done`); the task stops at its next checkpoint."""
    from citewise.api.research import TaskStateError, task_store

    while not context.should_abort():
        if done.wait(0.5):
            return
    try:
        task_store(library).cancel(task_id)
    except TaskStateError:  # it finished meanwhile
        pass
    except Exception:  # the store blinked: the task runs on to its end
        log.warning("could not cancel task %s on an abort request", task_id, exc_info=True)


def _reporting(body: Callable[..., Any]) -> Callable[..., Any]:
    """`body`, keeping why an attempt failed (code, message) as the job's outcome."""

    @functools.wraps(body)
    def run(context: Any, **kwargs: Any) -> Any:
        from procrastinate.exceptions import JobAborted

        left = _LEFT.set(None)
        try:
            return body(context, **kwargs)
        except JobAborted:  # asked for: no failure to record (the queue says `aborted`)
            raise
        except Exception as exc:
            subject = next(
                (str(kwargs[k]) for k in ("path", "document", "task_id") if k in kwargs), ""
            )
            if isinstance(exc, CitewiseError):
                code, message = exc.code, exc.message
            else:  # one line (a database error's CONTEXT lines too): a follower prints it
                code, message = type(exc).__name__, " ".join(str(exc).split())
            _record(context, subject=subject, code=code, message=message, covers=_LEFT.get())
            raise
        finally:
            _LEFT.reset(left)

    return run


def register(app: Any) -> None:
    """Declare the jobs on `app` (retried, then failed; each job its own lock; each failed
    attempt's error kept as the job's outcome)."""
    for name, body in (
        (INGEST, ingest_file),
        (EMBED_DOCUMENT, embed_document),
        (VOCABULARY, learn_vocabulary),
        (EMBED, embed_missing),
        (RESEARCH, research),
    ):
        app.task(name=name, queue=QUEUE, retry=RETRIES, pass_context=True)(_reporting(body))
