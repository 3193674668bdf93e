"""The shared HTTP layer against a real loopback HTTP server: rate limit, concurrency cap,
retries, Retry-After, timeouts, circuit breaker, polite headers, cache and request log."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.sources.base import SourceError
from citewise.sources.config import SourcesConfig
from citewise.sources.net.http import (
    CircuitBreaker,
    HttpLayer,
    TokenBucket,
    backoff_delay,
    redact,
    reset_breakers,
    retry_after_seconds,
)
from citewise.store.sqlite.audit import SqliteAuditLog
from citewise.store.sqlite.db import connect
from tests.sources.replay import ReplayServer, Reply

OK = Reply(200, b'{"ok": true}', {"content-type": "application/json"})


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        yield running
    reset_breakers()


@pytest.fixture
def db(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    connection = connect(tmp_path / "library.db")
    yield connection
    connection.close()


def config_for(server: ReplayServer, **settings: object) -> SourcesConfig:
    entry = {
        "base_url": server.base_url,
        "rate_limit": {"requests_per_second": 100, "burst": 10},
        "timeout": 10.0,
        "max_concurrency": 4,
        **settings,
    }
    return SourcesConfig.load(env={}).with_overrides({"crossref": entry})


def fetch(
    config: SourcesConfig,
    paths: list[str],
    db: sqlite3.Connection | None = None,
    refresh: bool = False,
) -> list[object]:
    """GET each path concurrently through the crossref fetcher; replies or exceptions."""

    async def run() -> list[object]:
        audit = SqliteAuditLog(db) if db is not None else None
        async with HttpLayer(config, audit, refresh=refresh) as layer:
            fetcher = layer.fetcher("crossref")
            base = config.settings("crossref").base_url
            return await asyncio.gather(
                *(fetcher.get(f"{base}{p}") for p in paths), return_exceptions=True
            )

    return asyncio.run(run())


def requests_logged(db: sqlite3.Connection) -> list[tuple[object, ...]]:
    rows = db.execute("SELECT status, cache_hit, error FROM http_requests ORDER BY id").fetchall()
    return [tuple(r) for r in rows]


def test_the_configured_rate_is_never_exceeded(server: ReplayServer) -> None:
    server.add("/", OK)
    rate, burst, count = 10.0, 2, 20
    config = config_for(server, rate_limit={"requests_per_second": rate, "burst": burst})
    replies = fetch(config, [f"/r{i}" for i in range(count)])
    assert all(getattr(r, "status", None) == 200 for r in replies)
    times = sorted(s.at for s in server.seen())
    assert len(times) == count
    # Token bucket bound: requests j..k (inclusive) need at most burst + rate * (t_k - t_j).
    # The slack absorbs how late a request may reach the server after leaving the client
    # (a new connection, a busy machine); a broken limiter misses by whole seconds.
    slack = 0.5 / rate
    for j in range(count):
        for k in range(j, count):
            assert k - j + 1 <= burst + rate * (times[k] - times[j] + slack), (j, k)
    assert times[-1] - times[0] >= (count - burst) / rate - slack


def test_the_rate_holds_across_searches_of_one_process(server: ReplayServer) -> None:
    # Each search opens its own session (and its own event loop); the bucket is the process's.
    server.add("/", OK)
    config = config_for(server, rate_limit={"requests_per_second": 5.0, "burst": 1})
    for n in range(4):
        (reply,) = fetch(config, [f"/search{n}"])  # no library: no request log to lean on
        assert getattr(reply, "status", None) == 200
    times = [s.at for s in server.seen()]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 0.2 - 0.1, gaps  # the slack: how late a request may reach the server


def test_the_concurrency_cap_holds(server: ReplayServer) -> None:
    server.add("/", Reply(200, b"{}", {}, delay=0.1))
    fetch(config_for(server, max_concurrency=2), [f"/c{i}" for i in range(8)])
    assert server.max_in_flight == 2


def test_429_with_retry_after_is_honoured(server: ReplayServer, db: sqlite3.Connection) -> None:
    server.add("/works", Reply(429, b'{"message": "Too Many Requests"}', {"Retry-After": "1"}), OK)
    (reply,) = fetch(config_for(server), ["/works"], db)
    assert getattr(reply, "status", None) == 200
    first, second = server.seen()
    assert second.at - first.at >= 0.95
    assert requests_logged(db) == [(429, 0, "HTTP 429 Too Many Requests"), (200, 0, None)]


def test_503_is_retried_with_backoff(server: ReplayServer) -> None:
    server.add("/works", Reply(503, b"busy"), Reply(503, b"busy"), OK)
    (reply,) = fetch(config_for(server), ["/works"])
    assert getattr(reply, "status", None) == 200
    times = [s.at for s in server.seen()]
    assert len(times) == 3
    assert times[1] - times[0] >= 0.25 and times[2] - times[1] >= 0.5


def test_a_retry_after_longer_than_we_wait_gives_up_at_once(server: ReplayServer) -> None:
    server.add("/works", Reply(503, b"maintenance", {"Retry-After": "3600"}))
    started = time.monotonic()
    (error,) = fetch(config_for(server), ["/works"])
    assert isinstance(error, SourceError) and "3600" in str(error)
    assert time.monotonic() - started < 1.0 and len(server.seen()) == 1


def test_a_client_error_is_not_retried(server: ReplayServer) -> None:
    server.add("/works", Reply(400, b'{"status": "failed"}'))
    (error,) = fetch(config_for(server), ["/works"])
    assert isinstance(error, SourceError) and "HTTP 400" in str(error)
    assert len(server.seen()) == 1


def test_a_timeout_fails_the_source_after_its_retries(
    server: ReplayServer, db: sqlite3.Connection
) -> None:
    server.add("/works", Reply(200, b"{}", delay=1.0))
    config = config_for(server, timeout=0.2, max_retries=1)
    (error,) = fetch(config, ["/works"], db)
    assert isinstance(error, SourceError) and "timed out" in str(error)
    assert len(server.seen()) == 2
    assert [row[2] for row in requests_logged(db)] == ["timed out after 0.2 s"] * 2


def test_the_circuit_opens_after_repeated_failures(server: ReplayServer) -> None:
    server.add("/works", Reply(500, b"down"))
    config = config_for(server, max_retries=10, breaker_threshold=3, breaker_cooldown=60)
    (error,) = fetch(config, ["/works"])
    assert isinstance(error, SourceError)
    assert len(server.seen()) == 3  # the breaker stopped the retries
    (again,) = fetch(config, ["/works"])
    assert "circuit open" in str(again)
    assert len(server.seen()) == 3  # no request reached the dead source


def test_polite_headers_carry_the_contact_address(server: ReplayServer) -> None:
    server.add("/", OK)
    config = config_for(server, mailto="me@example.org", headers={"X-Extra": "1"})
    fetch(config, ["/works"])
    (seen,) = server.seen()
    assert "citewise/" in seen.headers["user-agent"]
    assert "mailto:me@example.org" in seen.headers["user-agent"]
    assert seen.headers["x-extra"] == "1"


def test_replies_are_cached_with_a_ttl_and_refresh_bypasses_the_cache(
    server: ReplayServer, db: sqlite3.Connection
) -> None:
    server.add("/", OK)
    config = config_for(server)
    fetch(config, ["/works?q=1"], db)
    (cached,) = fetch(config, ["/works?q=1"], db)
    assert getattr(cached, "from_cache", False) and getattr(cached, "body", b"") == OK.body
    assert len(server.seen()) == 1
    fetch(config, ["/works?q=1"], db, refresh=True)
    assert len(server.seen()) == 2
    assert [row[1] for row in requests_logged(db)] == [0, 1, 0]
    db.execute("UPDATE http_cache SET expires = 0")  # expired
    fetch(config, ["/works?q=1"], db)
    assert len(server.seen()) == 3
    uncached = config_for(server, cache_ttl=0)
    fetch(uncached, ["/works?q=2"], db)
    fetch(uncached, ["/works?q=2"], db)
    assert len(server.seen()) == 5


def test_token_bucket_with_a_fake_clock() -> None:
    now = [0.0]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    async def run() -> None:
        bucket = TokenBucket(rate=2.0, burst=2, clock=lambda: now[0], sleep=sleep)
        for _ in range(4):
            await bucket.acquire()

    asyncio.run(run())
    assert waits == pytest.approx([0.5, 0.5])


def test_breaker_half_opens_after_the_cooldown() -> None:
    now = [0.0]
    breaker = CircuitBreaker(threshold=2, cooldown=10, clock=lambda: now[0])
    breaker.record_failure()
    assert not breaker.is_open
    breaker.record_failure()
    assert breaker.is_open
    now[0] = 11
    assert not breaker.is_open  # one trial allowed
    breaker.record_failure()
    assert breaker.is_open
    now[0] = 22
    breaker.record_success()
    assert not breaker.is_open


def test_retry_after_parsing_and_backoff_bounds() -> None:
    assert retry_after_seconds("2") == 2.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470) == 10.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None
    for attempt in range(6):
        delay = backoff_delay(attempt)
        nominal = min(8.0, 0.5 * 2**attempt)
        assert nominal / 2 <= delay <= nominal


def test_keys_never_reach_the_log() -> None:
    assert redact("https://x/works?api_key=SECRET&q=a") == "https://x/works?api_key=***&q=a"
