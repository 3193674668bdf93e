"""Scholarly databases behind one query: arXiv, PubMed, Semantic Scholar, OpenAlex, Crossref,
CORE, DOAJ and Europe PMC, normalized to CSL-JSON, deduplicated and ranked.

    from citewise.sources import search_sources
    result = search_sources("protein folding", ["pubmed", "europepmc"], limit=10)
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citewise.sources.base import ParseError, SourceError
    from citewise.sources.catalog import UnknownSourceError
    from citewise.sources.config import SOURCE_NAMES, SourcesConfig, SourceSettings
    from citewise.sources.query import Query, QueryError
    from citewise.sources.record import SearchRecord
    from citewise.sources.search.api import (
        SearchResult,
        SourceReport,
        search_sources,
        search_sources_async,
    )

# name -> module: imported on first use, so `citewise --help` and a submodule import
# (sources.search.progress) do not load httpx, pydantic and every client.
_LAZY = {
    "SearchResult": "search.api",
    "SourceReport": "search.api",
    "search_sources": "search.api",
    "search_sources_async": "search.api",
    "ParseError": "base",
    "SourceError": "base",
    "UnknownSourceError": "catalog",
    "SOURCE_NAMES": "config",
    "SourcesConfig": "config",
    "SourceSettings": "config",
    "Query": "query",
    "QueryError": "query",
    "SearchRecord": "record",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"citewise.sources.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'citewise.sources' has no attribute {name!r}")


__all__ = [
    "SOURCE_NAMES",
    "ParseError",
    "Query",
    "QueryError",
    "SearchRecord",
    "SearchResult",
    "SourceError",
    "SourceReport",
    "SourceSettings",
    "SourcesConfig",
    "UnknownSourceError",
    "search_sources",
    "search_sources_async",
]
