"""Papers close in meaning to a topic's facets: each library document's title (and stored
abstract) against each facet, in the library's own embedding. Search adds the closest as
candidates for screening, so a paper whose blocks lose the facet's searches to papers that
repeat its words ("fake news classification" under "fake news detection") is still screened;
screening, not this, decides whether it is on the topic. Pure given the embedder.

The shipped static model encodes ~10,000 texts a second, so every title and abstract is
compared; a slower model (a transformer, a remote service) compares titles only, and not at
all past OTHER_MODEL_DOCUMENTS, so a research run's cost stays bounded."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from citewise.embed.static import STATIC_MODEL
from citewise.store.sqlite.library import StoredDocument

if TYPE_CHECKING:  # the model is loaded by whoever opened the library
    from citewise.embed.base import Embedder

CLOSEST_PER_FACET = 10
OTHER_MODEL_DOCUMENTS = 5000


def closest_documents(
    documents: list[StoredDocument],
    embedder: Embedder | None,
    facets: list[str],
    limit: int = CLOSEST_PER_FACET,
) -> list[str]:
    """Per facet, the IDs of the `limit` documents whose title or stored abstract is closest
    to it, facet by facet, equal similarities in the documents' order; [] without a model."""
    if embedder is None or not documents or not facets:
        return []
    fast = embedder.name == STATIC_MODEL
    if not fast and len(documents) > OTHER_MODEL_DOCUMENTS:
        return []
    similarity = embedder.encode([d.title or d.id for d in documents]) @ embedder.encode(facets).T
    with_abstract = [i for i, d in enumerate(documents) if d.abstract and fast]
    if with_abstract:
        abstracts = embedder.encode([documents[i].abstract for i in with_abstract])
        rows = abstracts @ embedder.encode(facets).T
        similarity[with_abstract] = np.maximum(similarity[with_abstract], rows)
    chosen: list[str] = []
    for column in similarity.T:
        order = np.argsort(-column, kind="stable")[:limit]
        chosen += [documents[int(i)].id for i in order]
    return list(dict.fromkeys(chosen))
