"""Vectors for the blocks that lack them: what a library's opening and an embedding job run.

Kept apart from ingest.py so that answering a question (which checks for missing vectors on
first use) does not import the ingest pipeline (parse pool, readers, GROBID client).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from citewise.store.protocols import Store

if TYPE_CHECKING:
    from citewise.embed.base import Embedder

EMBED_BATCH = 64
Progress = Callable[[str, int, int], None]


def embed_missing(store: Store, embedder: Embedder, progress: Progress | None = None) -> int:
    """Embed every trusted block that has no vector for this model yet; return how many.

    Cheap when nothing is missing (two counts), so it can run whenever a library opens:
    a library embedded with another model is re-embedded with this one.
    """
    store.vectors.register_model(embedder.name, embedder.dimensions)
    if not store.vectors.has_missing_vectors(embedder.name):
        return 0
    todo = store.vectors.blocks_without_vectors(embedder.name)
    # Fast (static) models embed thousands of blocks per call; the transformer, dozens.
    chunk = int(getattr(embedder, "chunk", EMBED_BATCH))
    for start in range(0, len(todo), chunk):
        batch = todo[start : start + chunk]
        vectors = embedder.encode([text for _, text in batch], batch_size=EMBED_BATCH)
        store.vectors.save_vectors(embedder.name, [rowid for rowid, _ in batch], vectors)
        if progress:
            progress("embedding", min(start + chunk, len(todo)), len(todo))
    return len(todo)
