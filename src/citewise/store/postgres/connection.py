"""Opening a PostgreSQL library: a psycopg 3 connection pool, migrations on first open.

psycopg and psycopg_pool come with the `[postgres]` extra; without them, or when the
server cannot be reached, opening fails with a CitewiseError that says what to do.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from citewise.errors import LibraryError
from citewise.store.postgres.schema import migrate

Params = tuple[Any, ...] | list[Any]
SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(location: object) -> bool:
    return isinstance(location, str) and location.startswith(SCHEMES)


def _unavailable(url: str, why: str) -> LibraryError:
    return LibraryError(
        f"cannot open the PostgreSQL library {redact(url)}: {why}",
        hint="check the URL, that the server runs and has pgvector (CREATE EXTENSION vector), "
        "and that citewise[postgres] is installed",
        code="POSTGRES_UNAVAILABLE",
    )


def redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user_pass = head.partition("//")
    return f"{scheme}//{user_pass.split(':', 1)[0]}:***@{tail}"


class Database:
    """A pool of connections to one library's database (autocommit; explicit transactions)."""

    def __init__(self, url: str, max_size: int = 8) -> None:
        try:
            import psycopg
            from psycopg.rows import dict_row
            from psycopg_pool import ConnectionPool
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise _unavailable(url, f"{exc.name} is not installed") from exc
        self.url = url
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                migrate(conn)
        except psycopg.Error as exc:
            raise _unavailable(url, str(exc).strip().splitlines()[0]) from exc
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={"autocommit": True, "row_factory": dict_row},
            open=True,
        )

    @contextmanager
    def connect(self) -> Iterator[Any]:
        with self.pool.connection() as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        with self.pool.connection() as conn, conn.transaction():
            yield conn

    def rows(self, sql: str, params: Params = ()) -> list[dict[str, Any]]:
        with self.connect() as conn:
            return list(conn.execute(sql, params).fetchall())

    def one(self, sql: str, params: Params = ()) -> dict[str, Any] | None:
        with self.connect() as conn:
            row: dict[str, Any] | None = conn.execute(sql, params).fetchone()
            return row

    def value(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row (None when there is no row)."""
        row = self.one(sql, params)
        return next(iter(row.values())) if row else None

    def close(self) -> None:
        self.pool.close()


_SHARED: dict[str, tuple[Database, int]] = {}
_SHARED_LOCK = threading.Lock()


def shared_database(url: str, max_size: int = 16) -> Database:
    """The process's one pool for `url` (migrations checked once): every store opened on
    it in this process (a server's per-request readers, a worker's job threads) borrows
    connections from it, so a process holds at most `max_size` however many stores it opens.
    Give it back with `release`."""
    with _SHARED_LOCK:
        found = _SHARED.get(url)
        database = found[0] if found else Database(url, max_size)
        _SHARED[url] = (database, (found[1] if found else 0) + 1)
        return database


def release(database: Database) -> None:
    """One user of a shared pool is done; the last closes it."""
    with _SHARED_LOCK:
        found = _SHARED.get(database.url)
        if found is None or found[0] is not database:
            database.close()
            return
        if found[1] <= 1:
            del _SHARED[database.url]
            database.close()
        else:
            _SHARED[database.url] = (database, found[1] - 1)
