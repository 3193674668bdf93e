"""`citewise enrich`: complete the library's bibliographic records from Crossref and OpenAlex.

Offline by default: without `online`, nothing leaves the machine; the plan says which
fields each document lacks and what would be asked (its DOI, else its title). Online, the
lookups go through the shared HTTP layer (rate-limited, cached in the library, every request
logged), and only fields a document lacks are filled: what the PDF printed, Zotero or a
manifest gave, stays. A title search is trusted only when a returned title is the same
title (folded) and, when both are known, the same year.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import httpx

from citewise.sources.base import SourceError
from citewise.sources.config import SourcesConfig
from citewise.sources.csl import fold
from citewise.sources.databases import crossref, openalex
from citewise.sources.net.http import HttpLayer, SourceFetcher
from citewise.sources.record import SearchRecord
from citewise.sources.search.api import run_blocking
from citewise.sources.search.dedupe import dedupe
from citewise.store.protocols import AuditLog, DocumentRepository
from citewise.store.sqlite.library import StoredDocument

SOURCES = ("crossref", "openalex")
# CSL fields a complete journal or proceedings record carries
CSL_FIELDS = ("container-title", "volume", "issue", "page", "publisher", "ISSN", "URL", "type")
# column -> the CSL key it mirrors, for `missing`
COLUMNS = {"doi": "DOI", "venue": "container-title", "year": "year"}


@dataclass
class Enrichment:
    """One document's enrichment: what it lacked, how it was (or would be) looked up, what
    was filled and from where, and what it still lacks."""

    document: str
    lookup: str | None  # "doi 10.1/x", "title '...'", None when nothing can be asked
    missing: list[str]
    filled: dict[str, object] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    problem: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "document": self.document,
            "lookup": self.lookup,
            "missing": self.missing,
            "filled": self.filled,
            "sources": self.sources,
            "problem": self.problem,
        }


def missing_fields(doc: StoredDocument) -> list[str]:
    """The bibliographic fields the stored record lacks, in CSL names."""
    csl = doc.csl or {}
    gaps = [key for column, key in COLUMNS.items() if not getattr(doc, column) and not csl.get(key)]
    gaps += [k for k in CSL_FIELDS if k != "container-title" and not csl.get(k)]
    if not doc.authors:
        gaps.append("author")
    return gaps


def lookup_for(doc: StoredDocument) -> str | None:
    if doc.doi:
        return f"doi {doc.doi}"
    if doc.title and len(doc.title.split()) >= 3:
        return f"title '{doc.title}'"
    return None


def plan(docs: list[StoredDocument]) -> list[Enrichment]:
    """What `enrich` would ask for each document (no network)."""
    return [Enrichment(d.id, lookup_for(d), missing_fields(d)) for d in docs]


def enrich_documents(
    store: DocumentRepository,
    docs: list[StoredDocument],
    *,
    config: SourcesConfig,
    audit: AuditLog | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> list[Enrichment]:
    """Look each document up in Crossref and OpenAlex and fill the fields it lacks."""
    found = run_blocking(_lookup_all(docs, config, audit, transport))
    out = []
    for doc, (records, problems) in zip(docs, found, strict=True):
        result = Enrichment(doc.id, lookup_for(doc), missing_fields(doc))
        if not records:
            result.problem = "; ".join(problems) or "no source holds this work"
            out.append(result)
            continue
        priority = {name: config.settings(name).priority for name in SOURCES}
        record = dedupe(records, priority)[0]
        columns, csl = fill(doc, record)
        if columns or csl != (doc.csl or {}):
            store.update_metadata(doc.id, {**columns, "csl": csl})
        result.filled = {**columns, **{k: v for k, v in csl.items() if k not in (doc.csl or {})}}
        result.filled.pop("enriched_from", None)
        result.sources = sorted({s for r in records for s in r.sources})
        out.append(result)
    return out


def fill(doc: StoredDocument, record: SearchRecord) -> tuple[dict[str, object], dict[str, Any]]:
    """The columns and the CSL a document gets from `record`: only what it lacks."""
    found: dict[str, object] = {
        "title": record.title or None,
        "authors": record.authors or None,
        "year": record.year,
        "doi": record.doi,
        "venue": record.venue or record.csl.get("container-title"),
        "abstract": record.abstract or None,
        "arxiv_id": record.ids.get("arxiv"),
        "pmid": record.ids.get("pmid"),
    }
    columns = {k: v for k, v in found.items() if v and not getattr(doc, k, None)}
    csl = dict(doc.csl or {})
    for key in CSL_FIELDS:
        if record.csl.get(key) and not csl.get(key):
            csl[key] = record.csl[key]
    if csl != (doc.csl or {}) or columns:
        csl["enriched_from"] = sorted(set(record.sources))
    return columns, csl


async def _lookup_all(
    docs: list[StoredDocument],
    config: SourcesConfig,
    audit: AuditLog | None,
    transport: httpx.AsyncBaseTransport | None,
) -> list[tuple[list[SearchRecord], list[str]]]:
    async with HttpLayer(config, audit, transport) as http:
        return list(await asyncio.gather(*(_lookup(http, config, d) for d in docs)))


async def _lookup(
    http: HttpLayer, config: SourcesConfig, doc: StoredDocument
) -> tuple[list[SearchRecord], list[str]]:
    """The records Crossref and OpenAlex hold for this document, and the sources' failures
    (a 404 is an answer, not a failure)."""
    if lookup_for(doc) is None:
        return [], ["no DOI and no title to look up"]
    asks = [_ask(http.fetcher(name), config.settings(name).base_url, name, doc) for name in SOURCES]
    outcomes = await asyncio.gather(*asks, return_exceptions=True)
    records: list[SearchRecord] = []
    problems = []
    for name, outcome in zip(SOURCES, outcomes, strict=True):
        if isinstance(outcome, SourceError):
            if "HTTP 404" not in outcome.message:
                problems.append(outcome.message)
        elif isinstance(outcome, BaseException):
            problems.append(f"{name}: unreadable reply ({type(outcome).__name__})")
        else:
            records += [r for r in outcome if same_work(doc, r)]
    return records, problems


async def _ask(
    fetch: SourceFetcher, base_url: str, name: str, doc: StoredDocument
) -> list[SearchRecord]:
    base = base_url.rstrip("/")
    if name == "crossref":
        if doc.doi:
            return crossref.parse_works((await fetch.get(f"{base}/works/{doc.doi}")).body)
        params = {"query.bibliographic": doc.title, "rows": "3"}
        return crossref.parse_works((await fetch.get(f"{base}/works", params)).body)
    if doc.doi:
        return openalex.parse_works((await fetch.get(f"{base}/works/doi:{doc.doi}")).body)
    params = {"filter": f"title.search:{doc.title.replace(',', ' ')}", "per-page": "3"}
    return openalex.parse_works((await fetch.get(f"{base}/works", params)).body)


def same_work(doc: StoredDocument, record: SearchRecord) -> bool:
    """Whether a returned record is this document: the same DOI, or (for a title search)
    the same folded title and, when both are known, the same year."""
    if doc.doi:
        return (record.doi or "").lower() == doc.doi.lower()
    if fold(record.title) != fold(doc.title):
        return False
    return doc.year is None or record.year is None or doc.year == record.year
