"""The request log as the rate limit between processes: a request another process logged
holds this one back for the source's interval; cache hits and a clock that went back do not."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.sources.config import RateLimit
from citewise.sources.net.requestlog import RequestLog, log_seconds, log_time
from citewise.store.sqlite.audit import SqliteAuditLog
from citewise.store.sqlite.db import connect

EVERY_HALF_SECOND = RateLimit(requests_per_second=2.0, burst=1)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    connection = connect(tmp_path / "library.db")
    yield connection
    connection.close()


def logged_elsewhere(db: sqlite3.Connection, at: float, cache_hit: int = 0) -> None:
    """A request another process sharing the library logged."""
    db.execute(
        "INSERT INTO http_requests (time, source, url, cache_hit) VALUES (?, 'arxiv', 'x', ?)",
        (log_time(at), cache_hit),
    )


def seconds_to_start(db: sqlite3.Connection) -> float:
    started = time.monotonic()
    asyncio.run(RequestLog(SqliteAuditLog(db)).start("arxiv", "http://x/query", EVERY_HALF_SECOND))
    return time.monotonic() - started


def test_a_request_logged_by_another_process_holds_the_next_one_back(
    db: sqlite3.Connection,
) -> None:
    logged_elsewhere(db, time.time())
    assert 0.4 <= seconds_to_start(db) < 1.0
    first, second = (log_seconds(r[0]) for r in db.execute("SELECT time FROM http_requests"))
    assert second - first >= 0.5


def test_cache_hits_and_old_requests_do_not_hold_anything_back(db: sqlite3.Connection) -> None:
    logged_elsewhere(db, time.time(), cache_hit=1)
    logged_elsewhere(db, time.time() - 5.0)
    assert seconds_to_start(db) < 0.2


def test_a_clock_that_went_back_does_not_block_the_source(db: sqlite3.Connection) -> None:
    logged_elsewhere(db, time.time() + 3600)  # stamped before the clock was set back an hour
    assert seconds_to_start(db) < 0.2


def test_log_times_round_up_to_the_millisecond() -> None:
    moment = 1_796_115_315.1231
    assert log_time(moment) == "2026-12-01T08:55:15.124Z"
    assert log_seconds(log_time(moment)) >= moment
