"""Author-first search (`search --by-author`): the topic's most-cited authors from a seed
search (OpenAlex and Semantic Scholar report citation counts), then each author's papers on
the topic from every source, merged and deduplicated."""

from __future__ import annotations

from dataclasses import replace

from citewise.sources.config import SOURCE_NAMES, SourcesConfig
from citewise.sources.csl import fold
from citewise.sources.query import Query
from citewise.sources.record import SearchRecord
from citewise.sources.search.api import SearchResult, search_sources
from citewise.sources.search.dedupe import dedupe
from citewise.sources.search.progress import Listener
from citewise.sources.search.ranking import rank
from citewise.store.protocols import AuditLog

SEED_SOURCES = ["openalex", "semantic_scholar"]
SEED_LIMIT = 50
TOP_AUTHORS = 5


def top_authors(records: list[SearchRecord], count: int = TOP_AUTHORS) -> list[tuple[str, int]]:
    """(name, summed citations) of the authors whose papers among `records` are cited most;
    ties go to the author with more papers, then by name. Same name, same author."""
    cited: dict[str, int] = {}
    papers: dict[str, int] = {}
    names: dict[str, str] = {}
    for record in records:
        for name in dict.fromkeys(record.authors):
            key = fold(name)
            if not key:
                continue
            names.setdefault(key, name)
            cited[key] = cited.get(key, 0) + (record.citations or 0)
            papers[key] = papers.get(key, 0) + 1
    order = sorted(cited, key=lambda k: (-cited[k], -papers[k], k))
    return [(names[k], cited[k]) for k in order[:count]]


def search_by_author(
    query: Query,
    sources: list[str],
    *,
    audit: AuditLog | None = None,
    limit: int = 20,
    config: SourcesConfig | None = None,
    refresh: bool = False,
    seed_sources: list[str] | None = None,
    progress: Listener | None = None,
) -> SearchResult:
    """The papers on `query` by its most-cited authors (found by a seed search); `progress`
    hears the sources of every search it runs."""
    config = config or SourcesConfig.load()
    seed = search_sources(
        query,
        seed_sources or SEED_SOURCES,
        audit=audit,
        limit=SEED_LIMIT,
        config=config,
        refresh=refresh,
        progress=progress,
    )
    result = SearchResult(records=[], query=query, warnings=list(seed.warnings))
    authors = top_authors(seed.records)
    result.notices = list(seed.notices) + [
        "authors: " + ", ".join(f"{name} ({cites} citations)" for name, cites in authors)
    ]
    found: list[SearchRecord] = []
    for name, _ in authors:
        by_them = search_sources(
            replace(query, authors=(*query.authors, name)),
            sources,
            audit=audit,
            limit=limit,
            config=config,
            refresh=refresh,
            progress=progress,
        )
        found += by_them.records
        result.warnings += [w for w in by_them.warnings if w not in result.warnings]
        result.sources += by_them.sources
    priority = {name: config.settings(name).priority for name in SOURCE_NAMES}
    result.records = rank(dedupe(found, priority), query)[:limit]
    return result
