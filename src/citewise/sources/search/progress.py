"""Progress of a search, per source: started, each page fetched, finished (for the faces'
progress bars; nothing here prints)."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class SourceProgress:
    """One step of one source: `state` is searching, page, done, failed or skipped;
    `records` the distinct records so far, `total` the matches the source reports."""

    source: str
    state: str
    records: int = 0
    total: int | None = None
    limit: int = 0


Listener = Callable[[SourceProgress], None]

# Set per source task by sources/search/api.py; read by sources/databases/paging.py after each page.
_PAGE: ContextVar[Callable[[int, int | None], None] | None] = ContextVar(
    "citewise_page_progress", default=None
)


def page_done(records: int, total: int | None) -> None:
    """Called by the paging loop after each page of the current source."""
    report = _PAGE.get()
    if report is not None:
        report(records, total)


def watch_pages(listener: Listener | None, source: str, limit: int) -> None:
    """Route this task's page reports to `listener` as `page` steps of `source`."""
    if listener is None:
        return

    def report(records: int, total: int | None) -> None:
        listener(SourceProgress(source, "page", records, total, limit))

    _PAGE.set(report)
