"""Ordered schema migrations: one small function per change (returning its SQL), applied on open.

`PRAGMA user_version` records how many have run. Never edit a released migration;
append a new one. Tables PostgreSQL has too are written once, in store/tables.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from citewise.store.sqlite.vector_migrations import (
    VECTOR_TRIGGERS,
    float16_vector,
    rebuilt_vectors,
    vectors_float16,
)
from citewise.store.tables import SQLITE, check_not_newer, create


def _documents_and_blocks() -> str:
    return (
        create(SQLITE, "documents", "blocks")
        + """
        -- Holds a tokenizer-friendly copy of the text (CJK characters spaced apart),
        -- so rowids match blocks.rowid and deletes are explicit.
        CREATE VIRTUAL TABLE blocks_fts USING fts5(
            text, section_path, label,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """
    )


def _vectors() -> str:
    return create(SQLITE, "embedding_models", "block_vectors")


def _references() -> str:
    return create(SQLITE, "references", "citations")


def _audit_log() -> str:
    return create(SQLITE, "llm_calls", "llm_cache", "http_requests", "http_cache")


def _research_tasks() -> str:
    return create(SQLITE, "tasks", "task_events", "evidence")


def _vector_changes() -> str:
    # Counters bumped by triggers, so a vector matrix file beside the database can tell
    # cheaply whether it is current (same counters), stale by appends only, or stale.
    return (
        create(SQLITE, "vector_changes")
        + """
        INSERT INTO vector_changes (model, inserted)
            SELECT model, count(*) FROM block_vectors GROUP BY model;"""
        + VECTOR_TRIGGERS
    )


def _block_changes() -> str:
    # The same idea for blocks: the keyword index beside the database follows these.
    return (
        create(SQLITE, "block_changes")
        + """
        INSERT INTO block_changes (id, inserted) SELECT 1, count(*) FROM blocks;
        CREATE TRIGGER blocks_insert AFTER INSERT ON blocks BEGIN
            UPDATE block_changes SET inserted = inserted + 1 WHERE id = 1;
        END;
        CREATE TRIGGER blocks_update AFTER UPDATE OF text, section_path, label, trusted
        ON blocks BEGIN
            UPDATE block_changes SET updated = updated + 1 WHERE id = 1;
        END;
        CREATE TRIGGER blocks_delete AFTER DELETE ON blocks BEGIN
            UPDATE block_changes SET deleted = deleted + 1 WHERE id = 1;
        END;
        """
    )


def _watches() -> str:
    # Saved searches, formerly watches.json beside the database.
    return create(SQLITE, "watches")


def _matrix_cells() -> str:
    # Literature-matrix cells already computed, so a rerun computes only new papers or
    # new columns; a changed file (new sha256) or extractor version invalidates its cells.
    return create(SQLITE, "matrix_cells")


def _vocabulary() -> str:
    # Learned from each document at ingest: abbreviations it defines ("learning rate (LR)")
    # and names it introduces ("S2ORC"); `vocabulary_documents` says which are done.
    return create(SQLITE, "vocabulary", "vocabulary_documents", "answer_reviews")


def _drop_fts() -> str:
    # One keyword index: the memory-mapped postings beside library.db rank blocks and count
    # term frequencies (retrieval/keyword_index.py); the FTS5 copy of every block's text
    # (a third of the store without vectors) had no reader left.
    return """
        DROP TABLE IF EXISTS blocks_fts;
        """


def _block_rowids_never_reused() -> str:
    # SQLite hands a deleted top rowid to the next insert: replacing the newest document
    # reused its rowids, and an index beside the database that follows rowids kept the old
    # text's postings for them. `high_rowid` is the highest rowid ever given; new blocks are
    # numbered past it (LibraryStore.save_document).
    return """
        ALTER TABLE block_changes ADD COLUMN high_rowid INTEGER NOT NULL DEFAULT 0;
        UPDATE block_changes SET high_rowid = (SELECT coalesce(max(rowid), 0) FROM blocks);
        DROP TRIGGER blocks_insert;
        CREATE TRIGGER blocks_insert AFTER INSERT ON blocks BEGIN
            UPDATE block_changes SET inserted = inserted + 1,
                high_rowid = max(high_rowid, NEW.rowid) WHERE id = 1;
        END;
        """


def _vectors_inline() -> str:
    # A WITHOUT ROWID row holds at most ~1 KB on a 4 KB page: every 256-d float32 vector
    # (1,024 bytes) spilled to an overflow page of its own, 4.7 KB per block. A rowid table
    # (same columns, same key) keeps rows up to ~4 KB inline: the same bytes in ~1.4 KB.
    # Triggers go with the old table, so they are made again.
    return rebuilt_vectors("block_vectors_inline", "vector")


MIGRATIONS: list[Callable[[], str]] = [
    _documents_and_blocks,
    _vectors,
    _references,
    _audit_log,
    _research_tasks,
    _vector_changes,
    _block_changes,
    _matrix_cells,
    _vocabulary,
    _watches,
    _drop_fts,
    _block_rowids_never_reused,
    _vectors_inline,
    vectors_float16,
]


def statements(script: str) -> list[str]:
    """The SQL statements of a migration's script (trigger bodies kept whole)."""
    found, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n\t;"):
                found.append(pending.strip())
            pending = ""
    return found


def migrate(db: sqlite3.Connection, where: str = "this path") -> None:
    """Apply every migration the database has not seen yet, each in its own transaction.

    Each runs under SQLite's write lock (BEGIN IMMEDIATE) after re-reading the version, so
    two processes opening a new library at once apply each migration exactly once.
    """
    db.create_function("float16_vector", 1, float16_vector, deterministic=True)
    while True:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        check_not_newer(version, len(MIGRATIONS), where)
        if version >= len(MIGRATIONS):
            return
        db.execute("BEGIN IMMEDIATE")  # waits (busy_timeout) while another process migrates
        try:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version < len(MIGRATIONS):
                # The schema change and the version bump commit together or not at all.
                for statement in statements(MIGRATIONS[version]()):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
