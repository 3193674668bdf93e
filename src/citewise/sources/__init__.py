"""Scholarly databases behind one query: arXiv, PubMed, Semantic Scholar, OpenAlex, Crossref,
CORE, DOAJ and Europe PMC, normalized to CSL-JSON, deduplicated and ranked.

    from citewise.sources import search_sources
    result = search_sources("protein folding", ["pubmed", "europepmc"], limit=10)
"""

from citewise.sources.api import SearchResult, SourceReport, search_sources, search_sources_async
from citewise.sources.base import ParseError, SourceError
from citewise.sources.catalog import UnknownSourceError
from citewise.sources.config import SOURCE_NAMES, SourcesConfig, SourceSettings
from citewise.sources.query import Query, QueryError
from citewise.sources.record import SearchRecord

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
