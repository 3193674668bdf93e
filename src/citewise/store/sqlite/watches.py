"""Saved searches (watches) in the library's SQLite file.

Libraries made before the `watches` table kept them in `watches.json` beside the database;
`import_watch_file` moves such a file's watches into the table once.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from citewise.store.records import WatchRecord
from citewise.store.sqlite.db import transaction

LEGACY_FILE = "watches.json"


def _watch(row: sqlite3.Row) -> WatchRecord:
    return WatchRecord(
        id=row["id"],
        query=row["query"],
        sources=json.loads(row["sources"]),
        last_run=row["last_run"],
        runs=row["runs"],
        seen=json.loads(row["seen"]),
    )


class SqliteWatchRepository:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def list_watches(self) -> list[WatchRecord]:
        rows = self.db.execute("SELECT * FROM watches ORDER BY rowid").fetchall()
        return [_watch(r) for r in rows]

    def get_watch(self, watch_id: str) -> WatchRecord | None:
        row = self.db.execute("SELECT * FROM watches WHERE id = ?", (watch_id,)).fetchone()
        return _watch(row) if row is not None else None

    def save_watch(self, watch: WatchRecord) -> None:
        with transaction(self.db):
            self._upsert(watch)

    def _upsert(self, watch: WatchRecord) -> None:
        self.db.execute(
            "INSERT INTO watches (id, query, sources, last_run, runs, seen) "
            "VALUES (?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE SET query = excluded.query, "
            "sources = excluded.sources, last_run = excluded.last_run, runs = excluded.runs, "
            "seen = excluded.seen",
            (
                watch.id,
                watch.query,
                json.dumps(watch.sources),
                watch.last_run,
                watch.runs,
                json.dumps(watch.seen, ensure_ascii=False),
            ),
        )

    def import_watch_file(self, directory: Path) -> int:
        """Move the watches of a `watches.json` in `directory` into the table (kept when both
        have one), then rename the file to `watches.json.imported`; how many were moved."""
        path = directory / LEGACY_FILE
        if not path.is_file():
            return 0
        data = json.loads(path.read_text("utf-8"))
        moved = 0
        with transaction(self.db):
            for key, value in data.items():
                if self.get_watch(key) is None:
                    self._upsert(WatchRecord(id=key, **value))
                    moved += 1
        os.replace(path, path.with_name(LEGACY_FILE + ".imported"))
        return moved
