"""Which store a library location names: a folder (SQLite) or a postgresql:// URL."""

from __future__ import annotations

from pathlib import Path

from citewise.store.protocols import Store

SCHEMES = ("postgresql://", "postgres://")


def is_postgres(location: str | Path | None) -> bool:
    return isinstance(location, str) and location.startswith(SCHEMES)


def open_store(location: str | Path, cache: Path | None = None) -> Store:
    """The store at `location`: PostgreSQL for a postgresql:// URL (`cache` is this
    machine's folder for what it derives from it), else the SQLite library in that folder."""
    if is_postgres(location):
        from citewise.store.postgres import PostgresLibraryStore

        return PostgresLibraryStore(str(location), directory=cache)
    from citewise.store.sqlite.library import LibraryStore

    return LibraryStore(Path(location).expanduser())
