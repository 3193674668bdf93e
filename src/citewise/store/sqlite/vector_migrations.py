"""Migrations of the vector table's storage format (listed in `store/sqlite/migrations.py`).

A migration that converts values needs code, not only SQL: `migrate` registers the
conversion functions here on the connection before it runs the scripts.
"""

from __future__ import annotations

# The counters `vector_changes` keeps per model, bumped on every change to `block_vectors`;
# made again by each migration that rebuilds the table (the triggers go with the old one).
VECTOR_TRIGGERS = """
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


def rebuilt_vectors(staging: str, vector: str) -> str:
    """SQL that moves `block_vectors` into a new rowid table (same columns, same key) through
    the table `staging`, each vector written as the SQL expression `vector`, in key order; the
    triggers go with the old table, so they are made again."""
    return (
        f"""
        CREATE TABLE {staging} (
            model TEXT NOT NULL REFERENCES embedding_models(name) ON DELETE CASCADE,
            block_rowid INTEGER NOT NULL REFERENCES blocks(rowid) ON DELETE CASCADE,
            vector BLOB NOT NULL,
            PRIMARY KEY (model, block_rowid)
        );
        INSERT INTO {staging} (model, block_rowid, vector)
            SELECT model, block_rowid, {vector} FROM block_vectors ORDER BY model, block_rowid;
        DROP TABLE block_vectors;
        ALTER TABLE {staging} RENAME TO block_vectors;"""
        + VECTOR_TRIGGERS
    )


def vectors_float16() -> str:
    # Vectors as float16: 512 bytes per 256-d vector instead of 1,024, and the mapped matrix
    # beside the database halves with them (store/sqlite/vectors.py says why float16 is safe). The
    # rows move to a new table converted by `float16_vector` (registered by `migrate`), so
    # the triggers are made again; `changed` makes every vector index rebuild.
    return (
        rebuilt_vectors("block_vectors_half", "float16_vector(vector)")
        + """        UPDATE vector_changes SET changed = changed + 1;
        """
    )


def float16_vector(blob: bytes) -> bytes:
    """A float32 vector blob (every blob before `vectors_float16`) rounded to float16."""
    import numpy as np  # only when a migration converts: opening a library loads no numpy

    converted: bytes = np.frombuffer(blob, dtype=np.float32).astype(np.float16).tobytes()
    return converted
