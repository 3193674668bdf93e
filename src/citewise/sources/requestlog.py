"""The library's side of the HTTP layer: the response cache (`http_cache`) and the request log
(`http_requests`).

The log doubles as the rate limit between processes that share a library: a request is
logged when it starts (not when it ends), and before it starts the log is asked when this
source was last asked, by any process. Check and entry happen in one write transaction, so
two processes cannot both take the same free slot."""

from __future__ import annotations

import asyncio
import json
import math
import sqlite3
import threading
import time
from datetime import UTC, datetime

from citewise.sources.base import HttpResponse
from citewise.sources.config import RateLimit
from citewise.sources.transfer import redact

# How far back (in rows) the rate check looks for a source's recent requests; a window is a
# few seconds, far fewer rows than this.
LOOKBACK_ROWS = 5000
CLOCK_SLACK = 1.0  # seconds a logged start may lie ahead of this clock and still count
# Searches in several threads may share one connection: one claim at a time, so no two
# threads open a transaction on it at once.
_CLAIM_LOCK = threading.Lock()


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
    """Cache and log of one library (or neither, without a database)."""

    def __init__(self, db: sqlite3.Connection | None, refresh: bool = False) -> None:
        self.db = db
        self.refresh = refresh

    # -------------------------------------------------------------- cache

    def cached(self, key: str) -> HttpResponse | None:
        if self.db is None or self.refresh:
            return None
        row = self.db.execute(
            "SELECT url, status, headers, body FROM http_cache WHERE key = ? AND expires > ?",
            (key, time.time()),
        ).fetchone()
        if row is None:
            return None
        url, status, headers, body = tuple(row)
        return HttpResponse(status, json.loads(headers), bytes(body), url, True, key)

    def store(self, key: str, response: HttpResponse, ttl: float) -> None:
        if self.db is None or ttl <= 0:
            return
        now = time.time()
        self.db.execute(
            "INSERT OR REPLACE INTO http_cache (key, url, status, headers, body, created, expires)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                redact(response.url),
                response.status,
                json.dumps(response.headers),
                response.body,
                now,
                now + ttl,
            ),
        )

    def evict(self, key: str | None) -> None:
        """Forget a cached reply (its body turned out to be unreadable)."""
        if self.db is not None and key:
            self.db.execute("DELETE FROM http_cache WHERE key = ?", (key,))

    # -------------------------------------------------------------- log

    def hit(self, source: str, url: str, status: int) -> None:
        """A reply served from the cache (no request left the machine)."""
        if self.db is not None:
            self.db.execute(
                "INSERT INTO http_requests (time, source, method, url, status, cache_hit)"
                " VALUES (?, ?, 'GET', ?, ?, 1)",
                (log_time(time.time()), source, redact(url), status),
            )

    async def start(self, source: str, url: str, limit: RateLimit) -> int | None:
        """Wait until the log shows `source` has a free slot under `limit` (requests by every
        process sharing the library count), then log this request as started; its row id."""
        if self.db is None:
            return None
        while True:
            with _CLAIM_LOCK:
                row, wait = self._claim(source, url, limit)
            if row is not None:
                return row
            await asyncio.sleep(wait)

    def finish(
        self, row: int | None, status: int | None, latency_ms: float, error: str | None
    ) -> None:
        if self.db is not None and row is not None:
            self.db.execute(
                "UPDATE http_requests SET status = ?, latency_ms = ?, error = ? WHERE id = ?",
                (status, round(latency_ms, 1), error, row),
            )

    def _claim(self, source: str, url: str, limit: RateLimit) -> tuple[int | None, float]:
        """(row id, 0) when a slot was free and is now taken; (None, seconds to wait) if not.
        Sliding window: at most `burst` starts within burst / rate seconds, which keeps
        the token bucket's bound (burst + rate * t over any t seconds)."""
        assert self.db is not None
        window = limit.burst / limit.requests_per_second
        own = not self.db.in_transaction
        if own:
            self.db.execute("BEGIN IMMEDIATE")
        try:
            now = time.time()
            recent = self.db.execute(
                "SELECT time FROM http_requests"
                " WHERE id > (SELECT COALESCE(MAX(id), 0) FROM http_requests) - ?"
                " AND source = ? AND cache_hit = 0 ORDER BY id DESC LIMIT ?",
                (LOOKBACK_ROWS, source, limit.burst),
            ).fetchall()
            if len(recent) >= limit.burst:
                wait = min(log_seconds(r[0]) for r in recent) + window - now
                # Far more than a window ahead means the clock went back: stale rows.
                if 0 < wait <= window + CLOCK_SLACK:
                    if own:
                        self.db.execute("ROLLBACK")
                    return None, wait
            cursor = self.db.execute(
                "INSERT INTO http_requests (time, source, method, url) VALUES (?, ?, 'GET', ?)",
                (log_time(now), source, redact(url)),
            )
        except BaseException:
            if own and self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        if own:
            self.db.execute("COMMIT")
        return cursor.lastrowid, 0.0
