"""The audit log in the library's SQLite file: model calls (`llm_calls`) and their response
cache (`llm_cache`), HTTP requests (`http_requests`) and the HTTP response cache
(`http_cache`).

The request log doubles as the rate limit between processes sharing a library: a request
is logged when it starts, after asking the log when this source was last asked (by any
process), in one write transaction, so two processes cannot take the same free slot.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

from citewise.store.records import CachedResponse, HttpRequest, ModelCall

# Given a source's recent start times (newest first), how many seconds to wait (0: go).
WaitRule = Callable[[list[str]], float]

# Searches in several threads may share one connection: one claim at a time, so no two
# threads open a transaction on it at once.
_CLAIM_LOCK = threading.Lock()


class SqliteAuditLog:
    """Model calls, HTTP requests and both caches of one library."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    # -- model calls -----------------------------------------------------------------

    def log_model_call(self, call: ModelCall) -> None:
        self.db.execute(
            f"INSERT INTO llm_calls ({ModelCall.COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            call.row(),
        )

    def model_calls(self, task: str | None = None) -> list[ModelCall]:
        """Logged calls (of one task, or all), oldest first."""
        where, params = ("WHERE task = ?", (task,)) if task else ("", ())
        rows = self.db.execute(
            f"SELECT {ModelCall.COLUMNS} FROM llm_calls {where} ORDER BY id", params
        ).fetchall()
        return [ModelCall.from_row(r) for r in rows]

    def model_tokens_used(self, task: str) -> int:
        """Tokens of the task's calls that reached a model (cache hits cost nothing)."""
        (n,) = self.db.execute(
            "SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) FROM llm_calls "
            "WHERE task = ? AND cache_hit = 0",
            (task,),
        ).fetchone()
        return int(n)

    def cached_model_reply(self, key: str) -> str | None:
        row = self.db.execute("SELECT response FROM llm_cache WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row is not None else None

    def cache_model_reply(self, key: str, response: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO llm_cache (key, response) VALUES (?, ?)", (key, response)
        )

    # -- HTTP responses --------------------------------------------------------------

    def cached_response(self, key: str, now: float) -> CachedResponse | None:
        row = self.db.execute(
            f"SELECT {CachedResponse.COLUMNS} FROM http_cache WHERE key = ? AND expires > ?",
            (key, now),
        ).fetchone()
        return None if row is None else CachedResponse.from_row(row)

    def cache_response(self, response: CachedResponse) -> None:
        self.db.execute(
            f"INSERT OR REPLACE INTO http_cache ({CachedResponse.COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            response.row(),
        )

    def evict_response(self, key: str) -> None:
        self.db.execute("DELETE FROM http_cache WHERE key = ?", (key,))

    # -- HTTP requests ---------------------------------------------------------------

    def _insert_request(self, request: HttpRequest) -> int:
        cursor = self.db.execute(
            "INSERT INTO http_requests (time, task, source, method, url, status, latency_ms,"
            " cache_hit, error) VALUES (coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
            " ?, ?, ?, ?, ?, ?, ?, ?)",
            request.row(),
        )
        return int(cursor.lastrowid or 0)

    def log_request(self, request: HttpRequest) -> int:
        """One finished request (or cache hit); its row id."""
        return self._insert_request(request)

    def finish_request(
        self, row: int, status: int | None, latency_ms: float, error: str | None
    ) -> None:
        self.db.execute(
            "UPDATE http_requests SET status = ?, latency_ms = ?, error = ? WHERE id = ?",
            (status, round(latency_ms, 1), error, row),
        )

    def recent_request_times(self, source: str, count: int, lookback: int) -> list[str]:
        """Start times of `source`'s latest `count` real (not cached) requests among the
        last `lookback` rows, newest first."""
        rows = self.db.execute(
            "SELECT time FROM http_requests"
            " WHERE id > (SELECT COALESCE(MAX(id), 0) FROM http_requests) - ?"
            " AND source = ? AND cache_hit = 0 ORDER BY id DESC LIMIT ?",
            (lookback, source, count),
        ).fetchall()
        return [str(r[0]) for r in rows]

    def claim_request(
        self, request: HttpRequest, count: int, lookback: int, wait_for: WaitRule
    ) -> tuple[int | None, float]:
        """Under the write lock: `wait_for` sees the source's recent start times and says how
        long to wait (0: go). When 0, `request` is logged as started: (row id, 0); else
        nothing is written: (None, seconds to wait)."""
        with _CLAIM_LOCK:
            own = not self.db.in_transaction
            if own:
                self.db.execute("BEGIN IMMEDIATE")
            try:
                wait = wait_for(self.recent_request_times(request.source, count, lookback))
                if wait > 0:
                    if own:
                        self.db.execute("ROLLBACK")
                    return None, wait
                row = self._insert_request(request)
            except BaseException:
                if own and self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
            if own:
                self.db.execute("COMMIT")
            return row, 0.0
