"""Saved searches: each run of a watch returns only the records that are new since its last
run (arXiv submission date and PubMed Entrez date narrow the query; a list of identifiers
already seen removes repeats from every source).

Watches live in `watches.json` in the library directory."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from pathlib import Path

import httpx

from citewise.sources.api import SearchResult, search_sources
from citewise.sources.catalog import check_names
from citewise.sources.config import SourcesConfig
from citewise.sources.query import Query, coerce
from citewise.sources.record import SearchRecord

WATCH_FILE = "watches.json"
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


class WatchList:
    """The watches of one library, read from and written back to its JSON file."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / WATCH_FILE
        data = json.loads(self.path.read_text("utf-8")) if self.path.exists() else {}
        self.watches = {key: Watch(**value) for key, value in data.items()}

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        data = {key: asdict(w) for key, w in self.watches.items()}
        temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), "utf-8")
        os.replace(temporary, self.path)  # never a half-written file

    def run(
        self,
        query: str | Query,
        sources: list[str] | None = None,
        *,
        store_db: sqlite3.Connection | None = None,
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
            store_db=store_db,
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
        self.save()
        return WatchRun(new=new, result=result, previous_run=previous)
