"""One library in a PostgreSQL database: the Store protocol over a connection pool."""

from __future__ import annotations

from citewise.store.postgres.blocks import PostgresBlocks
from citewise.store.postgres.connection import Database, redact
from citewise.store.postgres.documents import PostgresDocuments
from citewise.store.postgres.references import PostgresReferences
from citewise.store.postgres.tasks import PostgresTaskRepository
from citewise.store.postgres.vectors import PostgresVectors


class PostgresLibraryStore(PostgresDocuments, PostgresBlocks, PostgresReferences):
    """Documents, blocks, references and vectors of the library at `url`
    (`postgresql://user@host/db`; a `search_path` in its options selects a schema)."""

    def __init__(self, url: str, max_connections: int = 8) -> None:
        self.url = url
        self.location = redact(url)
        self.db = Database(url, max_connections)
        self.vectors = PostgresVectors(self.db)
        self.tasks = PostgresTaskRepository(self.db)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> PostgresLibraryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
