"""Libraries as earlier releases left them, for the tests of the migrations that upgrade them."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from citewise.store.sqlite import migrations
from citewise.store.sqlite.library import DB_NAME


def library_before(directory: Path, migration: Callable[[], str]) -> sqlite3.Connection:
    """`directory`'s library.db with every migration before `migration` run (and its
    user_version saying so), open for the test to fill with rows of that schema."""
    old = migrations.MIGRATIONS[: migrations.MIGRATIONS.index(migration)]
    db = sqlite3.connect(directory / DB_NAME)
    for step in old:
        for statement in migrations.statements(step()):
            db.execute(statement)
    db.execute(f"PRAGMA user_version = {len(old)}")
    return db
