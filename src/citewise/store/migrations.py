"""Ordered schema migrations: one small function per change (returning its SQL), applied on open.

`PRAGMA user_version` records how many have run. Never edit a released migration;
append a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from citewise.store.vector_migrations import float16_vector, vectors_float16


def _documents_and_blocks() -> str:
    return """
        CREATE TABLE documents (
            id TEXT PRIMARY KEY,
            sha256 TEXT NOT NULL UNIQUE,
            path TEXT NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            authors TEXT NOT NULL DEFAULT '[]',
            year INTEGER,
            doi TEXT,
            arxiv_id TEXT,
            pmid TEXT,
            venue TEXT,
            abstract TEXT NOT NULL DEFAULT '',
            csl TEXT,
            pages INTEGER NOT NULL,
            flagged_pages TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL DEFAULT 'ready',
            ingested_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE INDEX documents_path ON documents(path);

        CREATE TABLE blocks (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            kind TEXT NOT NULL,
            page INTEGER NOT NULL,
            x0 REAL, y0 REAL, x1 REAL, y1 REAL,
            section_path TEXT NOT NULL DEFAULT '',
            label TEXT,
            text TEXT NOT NULL,
            font_size REAL, font_name TEXT, bold INTEGER NOT NULL DEFAULT 0,
            trusted INTEGER NOT NULL DEFAULT 1,
            data TEXT,
            UNIQUE (document_id, ordinal)
        );
        CREATE INDEX blocks_document_page ON blocks(document_id, page);

        -- Holds a tokenizer-friendly copy of the text (CJK characters spaced apart),
        -- so rowids match blocks.rowid and deletes are explicit.
        CREATE VIRTUAL TABLE blocks_fts USING fts5(
            text, section_path, label,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """


def _vectors() -> str:
    return """
        CREATE TABLE embedding_models (
            name TEXT PRIMARY KEY,
            dimensions INTEGER NOT NULL
        );
        CREATE TABLE block_vectors (
            model TEXT NOT NULL REFERENCES embedding_models(name) ON DELETE CASCADE,
            block_rowid INTEGER NOT NULL REFERENCES blocks(rowid) ON DELETE CASCADE,
            vector BLOB NOT NULL,
            PRIMARY KEY (model, block_rowid)
        ) WITHOUT ROWID;
        """


def _references() -> str:
    return """
        CREATE TABLE "references" (
            id TEXT PRIMARY KEY,
            document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            block_id TEXT,
            raw TEXT NOT NULL,
            authors TEXT NOT NULL DEFAULT '[]',
            title TEXT,
            year INTEGER,
            venue TEXT,
            doi TEXT,
            arxiv_id TEXT,
            resolved_document TEXT REFERENCES documents(id) ON DELETE SET NULL,
            UNIQUE (document_id, ordinal)
        );
        CREATE INDEX references_doi ON "references"(doi);
        -- In-text citation markers ("[12]", "(Smith et al., 2020)") linked to entries.
        CREATE TABLE citations (
            block_id TEXT NOT NULL REFERENCES blocks(id) ON DELETE CASCADE,
            reference_id TEXT NOT NULL REFERENCES "references"(id) ON DELETE CASCADE,
            marker TEXT NOT NULL,
            PRIMARY KEY (block_id, reference_id, marker)
        );
        """


def _audit_log() -> str:
    return """
        CREATE TABLE llm_calls (
            id INTEGER PRIMARY KEY,
            time TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            task TEXT,
            role TEXT,
            backend TEXT NOT NULL,
            model TEXT NOT NULL,
            prompt_tokens INTEGER NOT NULL DEFAULT 0,
            completion_tokens INTEGER NOT NULL DEFAULT 0,
            latency_ms REAL NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            cache_hit INTEGER NOT NULL DEFAULT 0,
            ok INTEGER NOT NULL DEFAULT 1,
            error TEXT
        );
        CREATE TABLE llm_cache (
            key TEXT PRIMARY KEY,
            response TEXT NOT NULL,
            created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE TABLE http_requests (
            id INTEGER PRIMARY KEY,
            time TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            task TEXT,
            source TEXT NOT NULL,
            method TEXT NOT NULL DEFAULT 'GET',
            url TEXT NOT NULL,
            status INTEGER,
            latency_ms REAL NOT NULL DEFAULT 0,
            cache_hit INTEGER NOT NULL DEFAULT 0,
            error TEXT
        );
        CREATE TABLE http_cache (
            key TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            status INTEGER NOT NULL,
            headers TEXT NOT NULL DEFAULT '{}',
            body BLOB NOT NULL,
            created REAL NOT NULL,
            expires REAL NOT NULL
        );
        """


def _research_tasks() -> str:
    return """
        CREATE TABLE tasks (
            id TEXT PRIMARY KEY,
            topic TEXT NOT NULL,
            state TEXT NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,
            options TEXT NOT NULL DEFAULT '{}',
            created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            updated TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE TABLE task_events (
            id INTEGER PRIMARY KEY,
            task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
            time TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            stage TEXT NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE evidence (
            id TEXT PRIMARY KEY,
            task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
            sub_question TEXT,
            kind TEXT NOT NULL,
            block_id TEXT,
            record_key TEXT,
            quote TEXT NOT NULL,
            data TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX evidence_task ON evidence(task_id);
        """


def _vector_changes() -> str:
    # Counters bumped by triggers, so a vector matrix file beside the database can tell
    # cheaply whether it is current (same counters), stale by appends only, or stale.
    return """
        CREATE TABLE vector_changes (
            model TEXT PRIMARY KEY,
            inserted INTEGER NOT NULL DEFAULT 0,
            changed INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO vector_changes (model, inserted)
            SELECT model, count(*) FROM block_vectors GROUP BY model;
        CREATE TRIGGER block_vectors_insert AFTER INSERT ON block_vectors BEGIN
            INSERT INTO vector_changes (model, inserted) VALUES (NEW.model, 1)
            ON CONFLICT (model) DO UPDATE SET inserted = inserted + 1;
        END;
        CREATE TRIGGER block_vectors_update AFTER UPDATE ON block_vectors BEGIN
            UPDATE vector_changes SET changed = changed + 1 WHERE model = OLD.model;
        END;
        CREATE TRIGGER block_vectors_delete AFTER DELETE ON block_vectors BEGIN
            UPDATE vector_changes SET changed = changed + 1 WHERE model = OLD.model;
        END;
        """


def _block_changes() -> str:
    # The same idea for blocks: the keyword index beside the database follows these.
    return """
        CREATE TABLE block_changes (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            inserted INTEGER NOT NULL DEFAULT 0,
            deleted INTEGER NOT NULL DEFAULT 0,
            updated INTEGER NOT NULL DEFAULT 0
        );
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


def _watches() -> str:
    # Saved searches, formerly watches.json beside the database.
    return """
        CREATE TABLE watches (
            id TEXT PRIMARY KEY,
            query TEXT NOT NULL,
            sources TEXT NOT NULL DEFAULT '[]',
            last_run TEXT,
            runs INTEGER NOT NULL DEFAULT 0,
            seen TEXT NOT NULL DEFAULT '[]'
        );
        """


def _matrix_cells() -> str:
    # Literature-matrix cells already computed, so a rerun computes only new papers or
    # new columns; a changed file (new sha256) or extractor version invalidates its cells.
    return """
        CREATE TABLE matrix_cells (
            document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            sha256 TEXT NOT NULL,
            version INTEGER NOT NULL,
            column_name TEXT NOT NULL,
            cell TEXT,
            PRIMARY KEY (document_id, column_name)
        ) WITHOUT ROWID;
        """


def _vocabulary() -> str:
    # Learned from each document at ingest: abbreviations it defines ("learning rate (LR)")
    # and names it introduces ("S2ORC"); `vocabulary_documents` says which are done.
    return """
        CREATE TABLE vocabulary (
            document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            short TEXT NOT NULL,
            long TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (document_id, kind, short, long)
        );
        CREATE TABLE vocabulary_documents (
            document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            sha256 TEXT NOT NULL
        );
        CREATE TABLE answer_reviews (
            id INTEGER PRIMARY KEY,
            asked_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            question TEXT NOT NULL,
            refused INTEGER NOT NULL,
            refusal_kind TEXT,
            support REAL NOT NULL,
            answer TEXT NOT NULL,
            citations TEXT NOT NULL DEFAULT '[]'
        );
        """


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
    return """
        CREATE TABLE block_vectors_inline (
            model TEXT NOT NULL REFERENCES embedding_models(name) ON DELETE CASCADE,
            block_rowid INTEGER NOT NULL REFERENCES blocks(rowid) ON DELETE CASCADE,
            vector BLOB NOT NULL,
            PRIMARY KEY (model, block_rowid)
        );
        INSERT INTO block_vectors_inline (model, block_rowid, vector)
            SELECT model, block_rowid, vector FROM block_vectors ORDER BY model, block_rowid;
        DROP TABLE block_vectors;
        ALTER TABLE block_vectors_inline RENAME TO block_vectors;
        CREATE TRIGGER block_vectors_insert AFTER INSERT ON block_vectors BEGIN
            INSERT INTO vector_changes (model, inserted) VALUES (NEW.model, 1)
            ON CONFLICT (model) DO UPDATE SET inserted = inserted + 1;
        END;
        CREATE TRIGGER block_vectors_update AFTER UPDATE ON block_vectors BEGIN
            UPDATE vector_changes SET changed = changed + 1 WHERE model = OLD.model;
        END;
        CREATE TRIGGER block_vectors_delete AFTER DELETE ON block_vectors BEGIN
            UPDATE vector_changes SET changed = changed + 1 WHERE model = OLD.model;
        END;
        """


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


def migrate(db: sqlite3.Connection) -> None:
    """Apply every migration the database has not seen yet, each in its own transaction.

    Each runs under SQLite's write lock (BEGIN IMMEDIATE) after re-reading the version, so
    two processes opening a new library at once apply each migration exactly once.
    """
    db.create_function("float16_vector", 1, float16_vector, deterministic=True)
    while True:
        (version,) = db.execute("PRAGMA user_version").fetchone()
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
