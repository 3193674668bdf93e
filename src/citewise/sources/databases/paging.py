"""Going past the first page with each source's own paging (offset, page number or cursor):
pages of a fixed size until the limit, the source's total or a short page; records seen on
an earlier page are dropped, so the order stays the order the source ranked them in."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from citewise.sources.base import as_int
from citewise.sources.record import SearchRecord
from citewise.sources.search.progress import page_done

# A source that ignores its paging parameters must not loop for ever.
MAX_PAGES = 50


@dataclass
class Page:
    """One page of a source's reply: its records, the total it reports, the next cursor."""

    records: list[SearchRecord] = field(default_factory=list)
    total: int | None = None
    cursor: str | None = None
    last: bool = False  # the source said there is nothing after this page


# (offset of the first record, page size, cursor from the previous page) -> that page.
PageFetch = Callable[[int, int, "str | None"], Awaitable[Page]]


@dataclass
class Collected:
    records: list[SearchRecord]
    total: int | None
    pages: int


async def collect(fetch_page: PageFetch, limit: int, page_size: int) -> Collected:
    """Up to `limit` distinct records, fetched `page_size` at a time (`min(limit, page_size)`
    for the first page, so a small search stays one request)."""
    size = max(1, min(limit, page_size))
    records: list[SearchRecord] = []
    seen: set[str] = set()
    total: int | None = None
    cursor: str | None = None
    offset = pages = 0
    while len(records) < limit and pages < MAX_PAGES:
        page = await fetch_page(offset, size, cursor)
        pages += 1
        if page.total is not None:
            total = page.total
        fresh = [r for r in page.records if r.key not in seen]
        seen.update(r.key for r in fresh)
        records += fresh
        offset += len(page.records)
        page_done(min(len(records), limit), total)
        if page.last or not fresh or (total is not None and offset >= total):
            break
        if page.cursor is None and (total is None and len(page.records) < size):
            break  # a short page from a source that reports no total: the end
        if page.cursor is not None and page.cursor == cursor:
            break
        cursor = page.cursor
    return Collected(records[:limit], total, pages)


def page_number(offset: int, size: int) -> int:
    """The 1-based page holding record `offset` for sources that page by number."""
    return offset // size + 1


def json_total(body: bytes | str, *path: str) -> int | None:
    """The total a JSON reply reports under `path` (None when absent or unreadable)."""
    try:
        data: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return as_int(data)
