"""The change counters on PostgreSQL, kept per statement (a document's blocks in one INSERT,
a batch of vectors in one upsert): the same counts a trigger per row gave, and the vectors
written by the binary staging COPY read back exactly."""

from __future__ import annotations

import numpy as np

from citewise.store.postgres import PostgresLibraryStore
from citewise.store.postgres.schema import MIGRATIONS, migrate
from tests.store.contract.conftest import paper


def _vector_state(store: PostgresLibraryStore, model: str) -> tuple[int, int]:
    row = store.db.one("SELECT inserted, changed FROM vector_changes WHERE model = %s", (model,))
    return (int(row["inserted"]), int(row["changed"])) if row else (0, 0)


def test_blocks_counted_once_per_row_whatever_the_statement(pg_url: str) -> None:
    with PostgresLibraryStore(pg_url) as store:
        a = store.save_document(paper("a", "Granite", ["h", "p1", "p2", "p3"]))
        store.save_document(paper("b", "Basalt", ["h", "q1"]))
        state = store.block_state()
        assert (state.inserted, state.deleted, state.updated) == (6, 0, 0)
        blocks = store.blocks(a)
        assert [b.ordinal for b in blocks] == sorted(b.ordinal for b in blocks)
        assert [b.rowid for b in blocks] == sorted(b.rowid for b in blocks)  # rowids in order
        assert [b.text for b in blocks] == ["h", "p1", "p2", "p3"]
        rowids = [b.rowid for b in blocks]
        with store.db.connect() as conn:  # one statement: two rows changed, one not
            conn.execute(
                "UPDATE blocks SET text = CASE WHEN rowid = %s THEN text ELSE text || '!' END "
                "WHERE rowid = ANY(%s)",
                (rowids[0], rowids[:3]),
            )
            conn.execute("UPDATE blocks SET font_name = 'X' WHERE rowid = %s", (rowids[3],))
            conn.execute("UPDATE blocks SET text = 'none' WHERE rowid = -1")  # no row
        state = store.block_state()
        assert (state.inserted, state.deleted, state.updated) == (6, 0, 2)
        store.delete_document(a)  # the blocks go by the cascade
        state = store.block_state()
        assert (state.inserted, state.deleted, state.updated) == (6, 4, 2)
        assert store.stats()["blocks"] == 2


def test_saved_vectors_read_back_exactly_and_are_counted(pg_url: str) -> None:
    rng = np.random.default_rng(7)
    with PostgresLibraryStore(pg_url) as store:
        a = store.save_document(paper("a", "Granite", ["h", "p1", "p2", "p3"]))
        store.vectors.register_model("m-1", 16)
        rowids = [b.rowid for b in store.blocks(a)]
        first = rng.normal(size=(4, 16)).astype(np.float32)
        store.vectors.save_vectors("m-1", rowids, first)
        assert _vector_state(store, "m-1") == (4, 0)
        # an upsert of two (one of them given twice: the last wins) and a second session's
        # staging table: the pool hands out whichever connection is free
        again = rng.normal(size=(3, 16)).astype(np.float32)
        store.vectors.save_vectors("m-1", [rowids[1], rowids[2], rowids[1]], again)
        store.vectors.save_vectors("m-1", [], np.zeros((0, 16), dtype=np.float32))
        assert _vector_state(store, "m-1") == (4, 2)
        found, matrix = store.vectors.load_matrix("m-1")
        want = first.copy()
        want[1], want[2] = again[2], again[1]
        want = (want / np.linalg.norm(want, axis=1, keepdims=True)).astype(np.float32)
        assert list(found) == rowids and np.array_equal(matrix, want)  # float32 exact
        assert store.db.value("SELECT count(*) FROM block_vectors") == 4
        store.delete_document(a)  # vectors go by the cascade: each one a change
        assert _vector_state(store, "m-1") == (4, 6)
        assert not store.vectors.any_vectors()


def test_a_library_made_with_row_triggers_keeps_its_counts_when_upgraded(pg_url: str) -> None:
    import psycopg

    counted = MIGRATIONS.index(next(m for m in MIGRATIONS if m.__name__ == "_statement_counters"))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with conn.transaction():
            conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                         "applied_at TEXT NOT NULL DEFAULT '')")  # fmt: skip
            for version, step in enumerate(MIGRATIONS[:counted], start=1):
                conn.execute(step())
                conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version,))
        conn.execute(
            "INSERT INTO documents (id, sha256, path, kind, pages) VALUES ('x', 's', 'p', 'pdf', 1)"
        )
        for ordinal in range(3):  # counted by the old trigger, one row at a time
            conn.execute(
                "INSERT INTO blocks (id, document_id, ordinal, kind, page, text) "
                "VALUES (%s, 'x', %s, 'paragraph', 1, 'old')",
                (f"x{ordinal}", ordinal),
            )
        assert migrate(conn) == len(MIGRATIONS)
    with PostgresLibraryStore(pg_url) as store:
        assert store.block_state().inserted == 3
        store.save_document(paper("b", "Basalt", ["h", "q1"]))
        assert store.block_state().inserted == 5
        triggers = store.db.rows(
            "SELECT tgname, tgtype FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE c.relname = 'blocks' AND c.relnamespace = current_schema()::regnamespace "
            "AND NOT t.tgisinternal ORDER BY tgname"
        )
        assert [r["tgname"] for r in triggers] == [
            "blocks_delete_counted",
            "blocks_insert_counted",
            "blocks_update_counted",
        ]
        assert all(int(r["tgtype"]) & 1 == 0 for r in triggers)  # FOR EACH STATEMENT
