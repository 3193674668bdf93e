"""One library in a PostgreSQL database: the Store protocol over a connection pool."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from citewise.store.postgres.audit import PostgresAuditLog
from citewise.store.postgres.blocks import PostgresBlocks
from citewise.store.postgres.connection import redact, release, shared_database
from citewise.store.postgres.dense import PostgresDenseIndex
from citewise.store.postgres.documents import PostgresDocuments
from citewise.store.postgres.references import PostgresReferences
from citewise.store.postgres.repositories import (
    PostgresActionLog,
    PostgresMatrixCells,
    PostgresVocabulary,
    PostgresWatchRepository,
)
from citewise.store.postgres.tasks import PostgresTaskRepository
from citewise.store.postgres.vectors import PostgresVectors


def default_directory(url: str) -> Path:
    """A folder of this machine's own for what it derives from the library at `url`,
    when the caller names none (the faces pass Settings' cache folder)."""
    digest = hashlib.sha256(redact(url).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"citewise-postgres-{digest}"


class PostgresLibraryStore(PostgresDocuments, PostgresBlocks, PostgresReferences):
    """Documents, blocks, references and vectors of the library at `url`
    (`postgresql://user@host/db`; a `search_path` in its options selects a schema).

    `directory` is this machine's folder for what it derives from the database (keyword
    postings for ranking, downloaded papers); nothing in it is the record."""

    def __init__(self, url: str, max_connections: int = 16, directory: Path | None = None) -> None:
        self.url = url
        self.location = redact(url)
        self.directory = directory or default_directory(url)
        self.db = shared_database(url, max_connections)  # one pool per process and URL
        self.vectors = PostgresVectors(self.db)
        self.tasks = PostgresTaskRepository(self.db)
        self.audit = PostgresAuditLog(self.db)
        self.watches = PostgresWatchRepository(self.db)
        self.vocabulary = PostgresVocabulary(self.db)
        self.matrix_cells = PostgresMatrixCells(self.db)
        self.actions = PostgresActionLog(self.db)

    def dense_index(self, model: str) -> PostgresDenseIndex:
        return PostgresDenseIndex(self.db, model)

    def close(self) -> None:
        release(self.db)

    def __enter__(self) -> PostgresLibraryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
