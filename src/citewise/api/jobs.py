"""What the queue's job bodies (workers/tasks.py, workers/follow_ups.py) and the worker loop
(workers/run.py) need of a library, so that workers/ imports api/ only: each job's outcome
kept beside the queue, the queue's open jobs and retention, the blocks of a document still
to embed, the vocabulary of documents not learned yet, and the embedding model a worker
names when it cannot load it. The faces' side of the queue (enqueue, follow, cancel) is
api/queue.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citewise.config import Settings, default_embed_model
from citewise.store.postgres.queue import JobOutcome, open_jobs, prune_queue, record_outcome
from citewise.vectors_missing import EMBED_BATCH

if TYPE_CHECKING:
    from citewise.api.library import Library
    from citewise.embed.base import Embedder

__all__ = [
    "EMBED_BATCH",
    "JobOutcome",
    "embedding_model",
    "learn_vocabulary",
    "missing_vectors",
    "open_jobs",
    "prune_queue",
    "record_outcome",
    "unlearned_documents",
]


def embedding_model(settings: Settings) -> str:
    """The embedding model `settings` ask for ([embed] in citewise.toml, else
    $CITEWISE_EMBED_MODEL, else the bundled default)."""
    from citewise.embed.base import DEFAULT_MODEL
    from citewise.embed.settings import embed_settings

    return embed_settings(settings).model or default_embed_model(DEFAULT_MODEL)


def missing_vectors(library: Library, embedder: Embedder, document: str) -> list[tuple[int, str]]:
    """The trusted blocks of `document` (rowid, text) to embed with `embedder`: all of them
    when any lacks a vector of its model, none when every one has one."""
    store = library.store
    store.vectors.register_model(embedder.name, embedder.dimensions)
    todo = [(b.rowid, b.text) for b in store.blocks(document) if b.trusted]
    if store.dense_index(embedder.name).vectors([rowid for rowid, _ in todo]) is not None:
        return []
    return todo


def learn_vocabulary(library: Library) -> int:
    """Learn the vocabulary of every document not learned yet; how many were."""
    from citewise.agent.ask.vocabulary import learn

    return learn(library.store)


def unlearned_documents(library: Library) -> tuple[str, ...]:
    """The documents whose vocabulary is not learned yet."""
    return tuple(doc for doc, _ in library.store.vocabulary.unlearned_documents())
