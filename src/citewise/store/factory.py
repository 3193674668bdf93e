"""Which store a library location names: a folder (SQLite) or a postgresql:// URL."""

from __future__ import annotations

import os
from pathlib import Path

from citewise.store.protocols import Store

ENV = "CITEWISE_LIBRARY"


def library_location(location: str | Path | None = None) -> str | Path | None:
    """`location`, else CITEWISE_LIBRARY when it names a PostgreSQL library, else None."""
    if location is not None:
        return location
    env = os.environ.get(ENV, "")
    return env if env.startswith(("postgresql://", "postgres://")) else None


def is_postgres(location: str | Path | None) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def open_store(location: str | Path) -> Store:
    """The store at `location`: PostgreSQL for a postgresql:// URL, else the SQLite library
    in that folder."""
    if is_postgres(location):
        from citewise.store.postgres import PostgresLibraryStore

        # PostgresLibraryStore has no `audit` and `watches` repositories yet (the Store
        # protocol lists them); the PostgreSQL helper adds them.
        return PostgresLibraryStore(str(location))  # type: ignore[return-value]
    from citewise.store.library import LibraryStore

    return LibraryStore(Path(location).expanduser())
