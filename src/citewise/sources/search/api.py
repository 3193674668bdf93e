"""Searching several sources at once: translate, fetch concurrently, normalize, filter,
dedupe, rank. `search_sources` is the entry point the CLI and the research pipeline call."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from citewise.sources.base import ParseError, SourceError
from citewise.sources.catalog import build, check_names
from citewise.sources.config import SOURCE_NAMES, SourcesConfig
from citewise.sources.csl import fold
from citewise.sources.net.http import HttpLayer
from citewise.sources.query import Query, coerce
from citewise.sources.record import SearchRecord
from citewise.sources.search.dedupe import dedupe
from citewise.sources.search.flags import apply_notices, complete
from citewise.sources.search.progress import Listener, SourceProgress, watch_pages
from citewise.sources.search.ranking import rank
from citewise.store.protocols import AuditLog

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class SourceReport:
    """What one source did in a search."""

    name: str
    records: int = 0
    total: int | None = None  # matches the source reports (None: it does not say)
    seconds: float = 0.0
    status: str = "ok"  # ok, skipped, failed
    message: str = ""


@dataclass
class SearchResult:
    records: list[SearchRecord]
    warnings: list[str] = field(default_factory=list)  # failures: a source that did not answer
    notices: list[str] = field(default_factory=list)  # expected skips (no key, wrong type)
    sources: list[SourceReport] = field(default_factory=list)
    query: Query | None = None


def search_sources(
    query: str | Query,
    sources: list[str],
    *,
    audit: AuditLog | None = None,
    limit: int = 20,
    config: SourcesConfig | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    refresh: bool = False,
    progress: Listener | None = None,
) -> SearchResult:
    """Search `sources` (all eight names when empty) for `query`; the `limit` best merged
    records, with a warning for each source that failed; `progress` hears each source start,
    fetch a page and finish. Blocking; safe to call from inside a running event loop (it then
    runs in a worker thread)."""
    work = search_sources_async(
        query,
        sources,
        audit=audit,
        limit=limit,
        config=config,
        transport=transport,
        refresh=refresh,
        progress=progress,
    )
    return run_blocking(work)


def run_blocking(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` to its end from synchronous code, even inside a running event loop (it
    then runs in a worker thread). The rate limits hold either way: they are per process."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


async def search_sources_async(
    query: str | Query,
    sources: list[str],
    *,
    audit: AuditLog | None = None,
    limit: int = 20,
    config: SourcesConfig | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    refresh: bool = False,
    progress: Listener | None = None,
) -> SearchResult:
    """The async form of `search_sources`."""
    parsed = coerce(query)
    names = check_names(sources) if sources else list(SOURCE_NAMES)
    config = config or SourcesConfig.load()
    result = SearchResult(records=[], query=parsed)
    async with HttpLayer(config, audit, transport, refresh) as http:
        found = await asyncio.gather(
            *(_run_source(name, parsed, limit, config, http, result, progress) for name in names)
        )
    records = [r for batch in found for r in batch if passes(r, parsed)]
    priority = {name: config.settings(name).priority for name in SOURCE_NAMES}
    merged = [complete(r) for r in apply_notices(dedupe(records, priority))]
    result.records = rank(merged, parsed)[:limit]
    return result


async def _run_source(
    name: str,
    query: Query,
    limit: int,
    config: SourcesConfig,
    http: HttpLayer,
    result: SearchResult,
    progress: Listener | None = None,
) -> list[SearchRecord]:
    report = SourceReport(name)
    result.sources.append(report)
    records = await _search_one(name, query, limit, config, http, result, report, progress)
    if progress is not None:
        state = "done" if report.status == "ok" else report.status
        progress(SourceProgress(name, state, len(records), report.total, limit))
    return records


async def _search_one(
    name: str,
    query: Query,
    limit: int,
    config: SourcesConfig,
    http: HttpLayer,
    result: SearchResult,
    report: SourceReport,
    progress: Listener | None,
) -> list[SearchRecord]:
    source = build(name, config)
    reason = source.skip_reason(query) if config.settings(name).enabled else f"{name} is disabled"
    if reason:
        report.status, report.message = "skipped", reason
        result.notices.append(reason)
        return []
    fetcher = http.fetcher(name)
    started = time.perf_counter()
    if progress is not None:
        progress(SourceProgress(name, "searching", 0, None, limit))
        watch_pages(progress, name, limit)
    try:
        records = await source.search(fetcher, query, limit)
    except ParseError as exc:
        # An unreadable body must not stay in the cache.
        http.evict(fetcher.last_key)
        return _failed(report, result, f"{exc.message}", started)
    except SourceError as exc:
        # A limit this client enforces says which (RESPONSE_TOO_LARGE, DEADLINE_EXCEEDED ...).
        coded = exc.code not in (SourceError.code, ParseError.code)
        message = f"{exc.message} [{exc.code}]" if coded else exc.message
        return _failed(report, result, message, started)
    except Exception as exc:  # a reply shaped in a way no parser expected
        log.debug("source %s failed", name, exc_info=True)
        http.evict(fetcher.last_key)
        return _failed(report, result, f"{name}: unreadable reply ({type(exc).__name__})", started)
    report.records = len(records)
    report.total = source.total
    report.seconds = time.perf_counter() - started
    return records


def _failed(
    report: SourceReport, result: SearchResult, message: str, started: float
) -> list[SearchRecord]:
    report.status, report.message = "failed", message
    report.seconds = time.perf_counter() - started
    result.warnings.append(message)
    return []


def passes(record: SearchRecord, query: Query) -> bool:
    """The query's filters, applied again to what came back (not every source can apply
    every filter; unknown values pass)."""
    if record.year and query.year_from and record.year < query.year_from:
        return False
    if record.year and query.year_to and record.year > query.year_to:
        return False
    if query.open_access and not record.open_access:
        return False
    if (
        query.min_citations
        and record.citations is not None
        and record.citations < query.min_citations
    ):
        return False
    if not query.wants(record.kind):
        return False
    if query.authors and record.authors:
        names = fold(" ".join(record.authors)).split()
        for author in query.authors:
            family = fold(author).split()
            if family and family[-1] not in names:
                return False
    return True
