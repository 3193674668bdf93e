"""Literature: search scholarly databases, fetch open-access PDFs into the library, run
saved searches, export the library and walk citation networks.

The faces (CLI, server, MCP) only parse arguments, call these and render the results;
each result's `to_dict()` is the JSON every face prints. What they name of the sources (a
parsed `Query`, a `SearchResult`, the export and graph formats, `export` of records, the
request's `Intent` with `describe` and `summary`) is re-exported here, and a request is read
from a person's words here (`english_request`, `read_intent`), so a face imports nothing
below api/.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citewise.api.library import Library
from citewise.api.saved import SavedRecords, abstract_to_upgrade, save_records
from citewise.documents.manifests.manifest import PaperMetadata
from citewise.ingest import Sources
from citewise.sources import Query as Query
from citewise.sources import SearchRecord, SourcesConfig, search_sources
from citewise.sources import SearchResult as SearchResult
from citewise.sources.bibliography.export import EXTENSION_FORMATS as EXTENSION_FORMATS
from citewise.sources.bibliography.export import FORMATS as FORMATS
from citewise.sources.bibliography.export import export as export
from citewise.sources.bibliography.export import format_for as format_for
from citewise.sources.bibliography.export import library_records
from citewise.sources.bibliography.graph import GRAPH_FORMATS as GRAPH_FORMATS
from citewise.sources.bibliography.graph import (
    CitationGraph,
    graph_summary,
    library_graph,
    openalex_graph,
)
from citewise.sources.bibliography.graph import write_graph as write_graph_file
from citewise.sources.downloads.fetch import apply_metadata, download, locate
from citewise.sources.search.authors import search_by_author
from citewise.sources.search.intent import Intent as Intent
from citewise.sources.search.intent import describe as describe
from citewise.sources.search.intent import parse_intent
from citewise.sources.search.intent import summary as summary
from citewise.sources.search.progress import Listener
from citewise.sources.search.watch import WatchList
from citewise.store.factory import open_store
from citewise.store.protocols import Store

PAPERS_DIR = "papers"


def english_request(text: str) -> tuple[str, list[str]]:
    """A Chinese search request in English words, with a note per reading (any other
    request as it is, with none)."""
    from citewise.sources.search.zh_query import english_request as read

    return read(text)


def read_intent(text: str, **options: Any) -> Intent:
    """`text` read as a search request, its MeSH descriptors from the shipped vocabulary;
    `options` (the face's own: field, authors, mesh, languages, years, types, open access,
    citations, limit) win over what the text says."""
    from citewise.sources.search.mesh import load

    return parse_intent(text, vocabulary=load(), **options)


@dataclass
class LiteratureSearch:
    """Merged, deduplicated, ranked records and what each source did."""

    result: SearchResult

    @property
    def records(self) -> list[SearchRecord]:
        return self.result.records

    @property
    def all_failed(self) -> bool:
        """Every source that was asked failed (as opposed to: none had a match)."""
        tried = [s for s in self.result.sources if s.status != "skipped"]
        return bool(tried) and all(s.status == "failed" for s in tried)

    def to_dict(self) -> dict[str, object]:
        """The `search --json` object."""
        result = self.result
        return {
            "query": result.query.text if result.query else "",
            "parsed_query": describe(result.query) if result.query else None,
            "records": [r.to_dict() for r in result.records],
            "warnings": result.warnings,
            "notices": result.notices,
            "sources": [
                {
                    "name": s.name,
                    "status": s.status,
                    "records": s.records,
                    "total": s.total,
                    "seconds": round(s.seconds, 3),
                    "message": s.message,
                }
                for s in result.sources
            ],
        }


@dataclass
class WatchReport:
    """One run of a saved search: the records no earlier run returned."""

    new: list[SearchRecord]
    result: SearchResult
    previous_run: str | None

    def to_dict(self) -> dict[str, object]:
        """The `watch --json` object."""
        return {
            "previous_run": self.previous_run,
            "new": [r.to_dict() for r in self.new],
            "warnings": self.result.warnings,
            "notices": self.result.notices,
        }


@dataclass
class GraphReport:
    """A citation network written to a file."""

    graph: CitationGraph
    out: Path

    def summary(self) -> dict[str, object]:
        return graph_summary(self.graph)

    def to_dict(self) -> dict[str, object]:
        """The `graph --json` object."""
        return {**self.summary(), "out": str(self.out)}


@dataclass
class FetchedPaper:
    """A downloaded open-access PDF, ingested with the sources' metadata."""

    document: str
    title: str | None
    pdf_url: str
    path: Path
    doi: str | None
    failures: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)

    def to_dict(self) -> dict[str, object]:
        """The `fetch --json` object."""
        return {
            "document": self.document,
            "title": self.title,
            "pdf_url": self.pdf_url,
            "path": str(self.path),
            "doi": self.doi,
        }


@dataclass
class Exported:
    text: str
    count: int


class FetchFailedError(Exception):
    """The PDF was downloaded but did not ingest; `failures` says why (file, reason)."""

    def __init__(self, failures: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{p}: {r}" for p, r in failures))
        self.failures = failures


def paper_path(directory: Path, kind: str, value: str) -> Path:
    """Where a fetched PDF is kept inside the library folder."""
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{kind}-{value}") + ".pdf"
    return directory / PAPERS_DIR / name


class Literature:
    """The literature workflows of one library directory (its caches and request log)."""

    def __init__(
        self, directory: Path, config: SourcesConfig | None = None, database: str | None = None
    ) -> None:
        self.directory = directory  # fetched papers; for a `database` library, this machine's
        self.database = database  # a postgresql:// library, else the SQLite one in `directory`
        self.config = config or SourcesConfig.load(None, {})

    def _store(self) -> Store:
        return open_store(self.database or self.directory, self.directory)

    def search(
        self,
        query: Query,
        sources: list[str],
        limit: int,
        refresh: bool = False,
        by_author: bool = False,
        progress: Listener | None = None,
    ) -> LiteratureSearch:
        """Records from the sources (with `by_author`: the topic's most-cited authors' papers
        on it), requests logged and cached in the library; `progress` hears each source's
        pages."""
        store = self._store()
        run = search_by_author if by_author else search_sources
        try:
            result = run(
                query,
                sources,
                audit=store.audit,
                limit=limit,
                config=self.config,
                refresh=refresh,
                progress=progress,
            )
        finally:
            store.close()
        return LiteratureSearch(result)

    def save(
        self, records: list[SearchRecord], open_library: Callable[[], Library]
    ) -> SavedRecords:
        """Keep the records' abstracts as abstract-level documents (`search --save`)."""
        return save_records(self.directory, records, open_library)

    def export_library(self, fmt: str) -> Exported:
        """The library's own documents as CSL-JSON, BibTeX or RIS."""
        store = self._store()
        try:
            records = library_records(store)
        finally:
            store.close()
        return Exported(export(records, fmt), len(records))

    def watch(self, query: Query, sources: list[str] | None, limit: int) -> WatchReport:
        store = self._store()
        try:
            run = WatchList(store.watches).run(
                query, sources, audit=store.audit, limit=limit, config=self.config
            )
        finally:
            store.close()
        return WatchReport(run.new, run.result, run.previous_run)

    def graph(self, target: str, depth: int, out: Path) -> GraphReport:
        """A library document's references (offline), or a work's references and citations
        from OpenAlex; written to `out` (.gexf or .graphml)."""
        store = self._store()
        try:
            if store.document(target) is not None:
                network = library_graph(store, target, depth)
            else:
                network = asyncio.run(
                    openalex_graph(target, depth, config=self.config, audit=store.audit)
                )
        finally:
            store.close()
        write_graph_file(network, out)
        return GraphReport(network, out)

    def fetch(
        self,
        target: str,
        open_library: Callable[[], Library],
        pdf_url: str | None = None,
        on_warning: Callable[[str], None] | None = None,
    ) -> FetchedPaper:
        """Find an open copy, download it into the library folder and ingest it with the
        sources' metadata. Raises FetchFailedError when the PDF does not ingest."""
        store = self._store()
        try:
            located = asyncio.run(locate(target, config=self.config, audit=store.audit))
            for warning in located.warnings:
                if on_warning is not None:
                    on_warning(warning)
            pdf, url = asyncio.run(
                download(located, config=self.config, audit=store.audit, pdf_url=pdf_url)
            )
        finally:
            store.close()
        path = paper_path(self.directory, located.identifier.kind, located.identifier.value)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pdf)
        with open_library() as lib:
            upgrade = abstract_to_upgrade(lib, located)
            sources = Sources({path: PaperMetadata(id=upgrade)}) if upgrade else None
            report = lib.ingest([path], sources=sources)
            failures = [(f.path, f.reason) for f in report.failed]
            ids = report.added + report.replaced + report.unchanged
            if not ids:
                raise FetchFailedError(failures)
            if located.record is not None:
                apply_metadata(lib.store, ids[0], located.record)
            document = lib.document(ids[0])
        return FetchedPaper(document.id, document.title, url, path, document.doi, failures)
