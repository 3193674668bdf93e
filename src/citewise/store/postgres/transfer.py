"""Copying a library between SQLite and PostgreSQL, verified by counts and checksums.

Both ends expose the same tables (schema.TABLES) with the same columns; values are moved
in a canonical form (vectors as float16 bytes, as SQLite stores them). Each batch commits
on its own and rows already present are skipped, so a copy that was interrupted resumes
where it stopped.
Derived data is rebuilt on the target: the FTS5 table (SQLite) or tsvector (PostgreSQL).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from citewise.store.postgres.connection import Database, is_postgres_url, redact
from citewise.store.postgres.schema import TABLES
from citewise.store.postgres.text import CONFIG
from citewise.store.postgres.text import index_text as pg_index_text
from citewise.store.postgres.vectors import create_index
from citewise.store.sqlite.db import connect, transaction
from citewise.store.sqlite.library import DB_NAME

BATCH = 2_000
DERIVED = {"tsv", "seq"}  # columns made on the target, never copied or checksummed
IDENTITY = {
    "blocks": "rowid",
    "llm_calls": "id",
    "http_requests": "id",
    "task_events": "id",
    "answer_reviews": "id",
}


class Endpoint(Protocol):
    name: str

    def columns(self, table: str) -> list[str]: ...
    def count(self, table: str) -> int: ...
    def read(self, table: str, columns: list[str]) -> Iterator[list[tuple[Any, ...]]]: ...
    def write(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None: ...
    def finish(self) -> None: ...
    def close(self) -> None: ...


def _vector_from_text(text: str) -> bytes:
    return np.array(text[1:-1].split(","), dtype=np.float32).astype(np.float16).tobytes()


def _vector_to_text(blob: bytes) -> str:
    return "[" + ",".join(str(v) for v in np.frombuffer(blob, dtype=np.float16)) + "]"


class SqliteEndpoint:
    def __init__(self, directory: Path) -> None:
        self.name = str(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.db = connect(directory / DB_NAME)

    def columns(self, table: str) -> list[str]:
        rows = self.db.execute(f'PRAGMA table_info("{table}")').fetchall()
        return [r[1] for r in rows]

    def count(self, table: str) -> int:
        return int(self.db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])

    def read(self, table: str, columns: list[str]) -> Iterator[list[tuple[Any, ...]]]:
        cursor = self.db.execute(f'SELECT {", ".join(columns)} FROM "{table}"')
        while rows := cursor.fetchmany(BATCH):
            yield [tuple(r) for r in rows]

    def write(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        marks = ",".join("?" * len(columns))
        with transaction(self.db):
            self.db.executemany(
                f'INSERT OR IGNORE INTO "{table}" ({", ".join(columns)}) VALUES ({marks})', rows
            )

    def finish(self) -> None:
        """Nothing to derive: the keyword and vector indexes follow the rows on next open."""

    def close(self) -> None:
        self.db.close()


class PostgresEndpoint:
    def __init__(self, url: str) -> None:
        self.name = redact(url)
        self.db = Database(url, max_size=2)

    def columns(self, table: str) -> list[str]:
        rows = self.db.rows(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
            "AND table_schema = current_schema() ORDER BY ordinal_position",
            (table,),
        )
        return [r["column_name"] for r in rows]

    def count(self, table: str) -> int:
        return int(self.db.value(f'SELECT count(*) FROM "{table}"') or 0)

    def read(self, table: str, columns: list[str]) -> Iterator[list[tuple[Any, ...]]]:
        select = ", ".join("vector::text" if c == "vector" else c for c in columns)
        at = columns.index("vector") if table == "block_vectors" else -1
        with self.db.connect() as conn, conn.transaction(), conn.cursor(name="copy") as cur:
            cur.execute(f'SELECT {select} FROM "{table}"')
            while rows := cur.fetchmany(BATCH):
                values = [list(r.values()) for r in rows]
                if at >= 0:
                    for v in values:
                        v[at] = _vector_from_text(v[at])
                yield [tuple(v) for v in values]

    def write(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        names, marks = list(columns), ["%s"] * len(columns)
        if table == "block_vectors":
            at = columns.index("vector")
            rows = [(*r[:at], _vector_to_text(r[at]), *r[at + 1 :]) for r in rows]
        if table == "blocks":
            text, section, label = (columns.index(c) for c in ("text", "section_path", "label"))
            rows = [
                (
                    *r,
                    pg_index_text(r[text]),
                    pg_index_text(r[section]),
                    pg_index_text(r[label] or ""),
                )
                for r in rows
            ]
            names.append("tsv")
            marks.append(" || ".join(
                f"setweight(to_tsvector('{CONFIG}', %s), '{w}')" for w in "ACB"))  # fmt: skip
        with self.db.transaction() as conn, conn.cursor() as cur:
            cur.executemany(
                f'INSERT INTO "{table}" ({", ".join(names)}) VALUES ({", ".join(marks)}) '
                "ON CONFLICT DO NOTHING",
                rows,
            )

    def finish(self) -> None:
        with self.db.transaction() as conn:  # identities continue after the copied ids
            for row in conn.execute("SELECT name, dimensions FROM embedding_models").fetchall():
                create_index(conn, row["name"], row["dimensions"])
            for table, column in IDENTITY.items():
                conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'), "
                    f'coalesce((SELECT max({column}) FROM "{table}"), 0) + 1, false)'
                )

    def close(self) -> None:
        self.db.close()


def open_endpoint(location: str | Path) -> Endpoint:
    if is_postgres_url(location):
        return PostgresEndpoint(str(location))
    path = Path(location).expanduser()
    return SqliteEndpoint(path.parent if path.name == DB_NAME else path)


def _canonical(value: Any) -> Any:
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    if isinstance(value, float):
        return repr(value)
    return value


def table_checksum(end: Endpoint, table: str, columns: list[str]) -> str:
    """SHA-256 over the table's rows (canonical values, order-free)."""
    digests = sorted(
        hashlib.sha256(json.dumps([_canonical(v) for v in row]).encode()).digest()
        for batch in end.read(table, columns)
        for row in batch
    )
    return hashlib.sha256(b"".join(digests)).hexdigest()


@dataclass
class TableCheck:
    table: str
    source_rows: int
    target_rows: int
    source_checksum: str
    target_checksum: str

    @property
    def same(self) -> bool:
        return (self.source_rows, self.source_checksum) == (self.target_rows, self.target_checksum)


@dataclass
class MigrationResult:
    source: str
    target: str
    copied: dict[str, int] = field(default_factory=dict)
    checks: list[TableCheck] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return all(c.same for c in self.checks)


def _shared_columns(source: Endpoint, target: Endpoint, table: str) -> list[str]:
    wanted = set(target.columns(table))
    return sorted(c for c in source.columns(table) if c in wanted and c not in DERIVED)


def copy_library(
    src: str | Path, dst: str | Path, progress: Callable[[str, int], None] | None = None
) -> MigrationResult:
    """Copy every table from `src` to `dst` (either a library folder or a postgresql:// URL),
    then compare counts and checksums table by table."""
    source, target = open_endpoint(src), open_endpoint(dst)
    try:
        result = MigrationResult(source.name, target.name)
        for table in TABLES:
            columns = _shared_columns(source, target, table)
            before = target.count(table)
            if before != source.count(table):  # done tables are skipped on a resumed copy
                for rows in source.read(table, columns):
                    target.write(table, columns, rows)
            result.copied[table] = target.count(table) - before
            if progress:
                progress(table, result.copied[table])
        target.finish()
        for table in TABLES:
            columns = _shared_columns(source, target, table)
            result.checks.append(TableCheck(
                table, source.count(table), target.count(table),
                table_checksum(source, table, columns), table_checksum(target, table, columns),
            ))  # fmt: skip
        return result
    finally:
        source.close()
        target.close()


__all__ = ["MigrationResult", "TableCheck", "copy_library"]
