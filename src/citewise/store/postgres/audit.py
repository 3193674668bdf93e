"""The audit log on PostgreSQL: model calls and their reply cache, HTTP requests and the
HTTP response cache (the same rows as store/sqlite/audit.py).

The request log is the rate limit between all machines sharing the library: a request is
claimed inside a transaction holding an advisory lock on its source, so two workers cannot
take the same free slot.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from citewise.store.postgres.connection import Database
from citewise.store.postgres.schema import NOW_MS
from citewise.store.records import CachedResponse, HttpRequest, ModelCall

WaitRule = Callable[[list[str]], float]
_SOURCE_LOCK = 0x68747470  # "http": advisory lock class of the per-source request slots

_INSERT_REQUEST = (
    "INSERT INTO http_requests (time, task, source, method, url, status, latency_ms, "
    f"cache_hit, error) VALUES (coalesce(%s, {NOW_MS}), %s, %s, %s, %s, %s, %s, %s, %s) "
    "RETURNING id"
)
_RECENT = (
    "SELECT time FROM http_requests WHERE id > (SELECT coalesce(max(id), 0) FROM "
    "http_requests) - %s AND source = %s AND cache_hit = 0 ORDER BY id DESC LIMIT %s"
)


class PostgresAuditLog:
    """Model calls, HTTP requests and both caches of one library."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def log_model_call(self, call: ModelCall) -> None:
        with self.db.connect() as conn:
            conn.execute(
                f"INSERT INTO llm_calls ({ModelCall.COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                call.row(),
            )

    def model_calls(self, task: str | None = None) -> list[ModelCall]:
        where, params = ("WHERE task = %s", (task,)) if task else ("", ())
        rows = self.db.rows(
            f"SELECT {ModelCall.COLUMNS} FROM llm_calls {where} ORDER BY id", params
        )
        return [ModelCall.from_row(list(r.values())) for r in rows]

    def model_tokens_used(self, task: str) -> int:
        n = self.db.value(
            "SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) FROM llm_calls "
            "WHERE task = %s AND cache_hit = 0",
            (task,),
        )
        return int(n or 0)

    def cached_model_reply(self, key: str) -> str | None:
        found = self.db.value("SELECT response FROM llm_cache WHERE key = %s", (key,))
        return str(found) if found is not None else None

    def cache_model_reply(self, key: str, response: str) -> None:
        with self.db.connect() as conn:
            conn.execute(
                "INSERT INTO llm_cache (key, response) VALUES (%s, %s) ON CONFLICT (key) "
                "DO UPDATE SET response = excluded.response",
                (key, response),
            )

    def cached_response(self, key: str, now: float) -> CachedResponse | None:
        r = self.db.one(
            f"SELECT {CachedResponse.COLUMNS} FROM http_cache WHERE key = %s AND expires > %s",
            (key, now),
        )
        return None if r is None else CachedResponse.from_row(list(r.values()))

    def cache_response(self, response: CachedResponse) -> None:
        with self.db.connect() as conn:
            conn.execute(
                f"INSERT INTO http_cache ({CachedResponse.COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (key) DO UPDATE SET "
                "url = excluded.url, status = excluded.status, headers = excluded.headers, "
                "body = excluded.body, created = excluded.created, expires = excluded.expires",
                response.row(),
            )

    def evict_response(self, key: str) -> None:
        with self.db.connect() as conn:
            conn.execute("DELETE FROM http_cache WHERE key = %s", (key,))

    def log_request(self, request: HttpRequest) -> int:
        return int(self.db.value(_INSERT_REQUEST, request.row()))

    def finish_request(
        self, row: int, status: int | None, latency_ms: float, error: str | None
    ) -> None:
        with self.db.connect() as conn:
            conn.execute(
                "UPDATE http_requests SET status = %s, latency_ms = %s, error = %s WHERE id = %s",
                (status, round(latency_ms, 1), error, row),
            )

    def recent_request_times(self, source: str, count: int, lookback: int) -> list[str]:
        rows = self.db.rows(_RECENT, (lookback, source, count))
        return [str(r["time"]) for r in rows]

    def claim_request(
        self, request: HttpRequest, count: int, lookback: int, wait_for: WaitRule
    ) -> tuple[int | None, float]:
        """Under the source's advisory lock: log `request` as started when `wait_for` says
        go (row id, 0), else write nothing (None, seconds to wait)."""
        with self.db.transaction() as conn:
            conn.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                (_SOURCE_LOCK, zlib.crc32(request.source.encode()) - 2**31),
            )
            times = conn.execute(_RECENT, (lookback, request.source, count)).fetchall()
            wait = wait_for([str(r["time"]) for r in times])
            if wait > 0:
                return None, wait
            row = conn.execute(_INSERT_REQUEST, request.row()).fetchone()
            return int(row["id"]), 0.0
