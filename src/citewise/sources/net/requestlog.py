"""The library's side of the HTTP layer: the response cache and the request log (both kept
by the store's audit log, store/sqlite/audit.py).

The log doubles as the rate limit between processes that share a library: a request is
logged when it starts (not when it ends), and before it starts the log is asked when this
source was last asked, by any process. Check and entry happen in one write transaction, so
two processes cannot both take the same free slot."""

from __future__ import annotations

import asyncio
import math
import time
from datetime import UTC, datetime

from citewise.sources.base import HttpResponse
from citewise.sources.config import RateLimit
from citewise.sources.net.transfer import redact
from citewise.store.protocols import AuditLog
from citewise.store.records import CachedResponse, HttpRequest

# How far back (in rows) the rate check looks for a source's recent requests; a window is a
# few seconds, far fewer rows than this.
LOOKBACK_ROWS = 5000
CLOCK_SLACK = 1.0  # seconds a logged start may lie ahead of this clock and still count


def log_time(seconds: float) -> str:
    """`seconds` (Unix time) in the log's format, rounded up to the millisecond: a stored
    start is never earlier than the real one, so spacing read back from the log is real."""
    millis = math.ceil(seconds * 1000)
    moment = datetime.fromtimestamp(millis / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z"


def log_seconds(stamp: str) -> float:
    """Unix time of a log timestamp."""
    return datetime.fromisoformat(stamp).timestamp()


class RequestLog:
    """Cache and log of one library (or neither, without an audit log)."""

    def __init__(self, audit: AuditLog | None, refresh: bool = False) -> None:
        self.audit = audit
        self.refresh = refresh

    # -------------------------------------------------------------- cache

    def cached(self, key: str) -> HttpResponse | None:
        if self.audit is None or self.refresh:
            return None
        row = self.audit.cached_response(key, time.time())
        if row is None:
            return None
        return HttpResponse(row.status, row.headers, row.body, row.url, True, key)

    def store(self, key: str, response: HttpResponse, ttl: float) -> None:
        if self.audit is None or ttl <= 0:
            return
        now = time.time()
        url, headers = redact(response.url), response.headers
        self.audit.cache_response(
            CachedResponse(key, url, response.status, headers, response.body, now, now + ttl)
        )

    def evict(self, key: str | None) -> None:
        """Forget a cached reply (its body turned out to be unreadable)."""
        if self.audit is not None and key:
            self.audit.evict_response(key)

    # -------------------------------------------------------------- log

    def hit(self, source: str, url: str, status: int) -> None:
        """A reply served from the cache (no request left the machine)."""
        if self.audit is not None:
            when = log_time(time.time())
            self.audit.log_request(
                HttpRequest(source, redact(url), status=status, cache_hit=True, time=when)
            )

    async def start(self, source: str, url: str, limit: RateLimit) -> int | None:
        """Wait until the log shows `source` has a free slot under `limit` (requests by every
        process sharing the library count), then log this request as started; its row id."""
        if self.audit is None:
            return None
        while True:
            row, wait = self._claim(source, url, limit)
            if row is not None:
                return row
            await asyncio.sleep(wait)

    def finish(
        self, row: int | None, status: int | None, latency_ms: float, error: str | None
    ) -> None:
        if self.audit is not None and row is not None:
            self.audit.finish_request(row, status, latency_ms, error)

    def _claim(self, source: str, url: str, limit: RateLimit) -> tuple[int | None, float]:
        """(row id, 0) when a slot was free and is now taken; (None, seconds to wait) if not.
        Sliding window: at most `burst` starts within burst / rate seconds, which keeps
        the token bucket's bound (burst + rate * t over any t seconds)."""
        assert self.audit is not None
        window = limit.burst / limit.requests_per_second
        now = time.time()

        def wait_for(recent: list[str]) -> float:
            if len(recent) >= limit.burst:
                wait = min(log_seconds(r) for r in recent) + window - now
                # Far more than a window ahead means the clock went back: stale rows.
                if 0 < wait <= window + CLOCK_SLACK:
                    return wait
            return 0.0

        request = HttpRequest(source, redact(url), time=log_time(now))
        return self.audit.claim_request(request, limit.burst, LOOKBACK_ROWS, wait_for)
