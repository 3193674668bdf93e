"""Saved searches: each run of a watch returns only the records that are new since its last
run (arXiv submission date and PubMed Entrez date narrow the query; a list of identifiers
already seen removes repeats from every source).

Watches live in the library's store (the `watches` table; a library's old `watches.json`
is moved there when the library is opened for watches)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, replace
from datetime import date

import httpx

from citewise.sources.catalog import check_names
from citewise.sources.config import SourcesConfig
from citewise.sources.query import Query, coerce
from citewise.sources.record import SearchRecord
from citewise.sources.search.api import SearchResult, search_sources
from citewise.store.protocols import AuditLog, WatchRepository
from citewise.store.records import WatchRecord

DEFAULT_SOURCES = ("arxiv", "pubmed")


@dataclass
class Watch:
    query: str
    sources: list[str]
    last_run: str | None = None  # YYYY-MM-DD
    runs: int = 0
    seen: list[str] = field(default_factory=list)  # "kind:value" identifiers of past records


@dataclass
class WatchRun:
    new: list[SearchRecord]
    result: SearchResult
    previous_run: str | None


def watch_id(query: str, sources: list[str]) -> str:
    text = " ".join(query.split()).lower() + "|" + ",".join(sorted(sources))
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def identifiers(record: SearchRecord) -> set[str]:
    return {record.key, *(f"{kind}:{value}" for kind, value in record.ids.items())}


def _watch(record: WatchRecord) -> Watch:
    return Watch(record.query, list(record.sources), record.last_run, record.runs, record.seen)


class WatchList:
    """The watches of one library, in its store's watch repository."""

    def __init__(self, repository: WatchRepository) -> None:
        self.repository = repository
        self.watches = {r.id: _watch(r) for r in repository.list_watches()}

    def save(self, key: str) -> None:
        """Write one watch back (one transaction: never half-written)."""
        self.repository.save_watch(WatchRecord(id=key, **asdict(self.watches[key])))

    def run(
        self,
        query: str | Query,
        sources: list[str] | None = None,
        *,
        audit: AuditLog | None = None,
        limit: int = 50,
        config: SourcesConfig | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        today: date | None = None,
    ) -> WatchRun:
        """Search again; the records not returned by any earlier run of this watch."""
        parsed = coerce(query)
        names = check_names(sources or list(DEFAULT_SOURCES))
        key = watch_id(parsed.text, names)
        watch = self.watches.get(key) or Watch(query=parsed.text, sources=names)
        narrowed = replace(parsed, added_since=watch.last_run) if watch.last_run else parsed
        result = search_sources(
            narrowed,
            names,
            audit=audit,
            limit=limit,
            config=config,
            transport=transport,
            refresh=True,  # a watch asks what is new now, not what the cache remembers
        )
        seen = set(watch.seen)
        new = [r for r in result.records if not identifiers(r) & seen]
        for record in result.records:
            seen |= identifiers(record)
        previous = watch.last_run
        if not result.warnings:
            # A source that failed keeps the old date, so its new records come next time.
            watch.last_run = (today or date.today()).isoformat()
        watch.runs += 1
        watch.seen = sorted(seen)
        self.watches[key] = watch
        self.save(key)
        return WatchRun(new=new, result=result, previous_run=previous)
