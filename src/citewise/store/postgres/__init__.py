"""The PostgreSQL + pgvector store: the same repositories as SQLite (store/protocols.py)
for a library a whole lab shares (needs the `[postgres]` extra)."""

from citewise.store.postgres.connection import is_postgres_url
from citewise.store.postgres.library import PostgresLibraryStore

__all__ = ["PostgresLibraryStore", "is_postgres_url"]
