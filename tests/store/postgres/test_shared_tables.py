"""The tables both stores hold are written once (store/tables.py): a new SQLite library
and a new PostgreSQL library have every shared table, with the same columns in the same
order (what `citewise migrate` copies unchanged), and the same columns NOT NULL."""

from __future__ import annotations

import sqlite3

from citewise.store.postgres import PostgresLibraryStore
from citewise.store.postgres.transfer import DERIVED
from citewise.store.sqlite.migrations import migrate as migrate_sqlite
from citewise.store.tables import COPIED, TABLES

SQLITE_ONLY = {("block_changes", "high_rowid")}  # SQLite numbers blocks past it itself


def _sqlite_columns() -> dict[str, list[tuple[str, bool]]]:
    db = sqlite3.connect(":memory:", isolation_level=None)
    migrate_sqlite(db)
    return {
        t.name: [(c[1], bool(c[3] or c[5])) for c in db.execute(f'PRAGMA table_info("{t.name}")')]
        for t in TABLES
    }


def test_every_shared_table_has_the_same_columns_on_both_backends(pg_url: str) -> None:
    with PostgresLibraryStore(pg_url) as store:
        rows = store.db.rows(
            "SELECT table_name, column_name, is_nullable FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
    postgres: dict[str, list[tuple[str, bool]]] = {}
    for r in rows:
        if r["column_name"] not in DERIVED:
            postgres.setdefault(r["table_name"], []).append(
                (r["column_name"], r["is_nullable"] == "NO")
            )
    sqlite = _sqlite_columns()
    assert len(TABLES) == 20 and set(COPIED) < {t.name for t in TABLES}
    for table in TABLES:
        kept = [c for c in sqlite[table.name] if (table.name, c[0]) not in SQLITE_ONLY]
        assert kept and kept == postgres[table.name], table.name
