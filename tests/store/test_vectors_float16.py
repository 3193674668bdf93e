"""Vectors stored as float16: an old float32 library migrates and searches as before.

The old library is made the way the releases before float16 wrote it: the schema of the
migrations before `vectors_float16`, float32 blobs in `block_vectors`, and a manifest
without `format` beside float32 `.f32` matrix files.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from citewise.store.quantize import binary_codes
from citewise.store.sqlite.library import LibraryStore
from citewise.store.sqlite.vector_index import VectorIndex, model_slug
from citewise.store.sqlite.vector_migrations import vectors_float16
from citewise.store.sqlite.vectors import decode_blob, load_matrix, save_vectors
from tests.store.old_schema import library_before

DIMS = 96
BLOCKS = 300


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _old_library(directory: Path, vectors: np.ndarray) -> None:
    """A library as written before float16: float32 rows in SQLite and in `vectors/`."""
    db = library_before(directory, vectors_float16)
    db.execute(
        "INSERT INTO documents (id, sha256, path, kind, pages) VALUES ('d', 's', 'p', 'x', 1)"
    )
    db.executemany(
        "INSERT INTO blocks (rowid, id, document_id, ordinal, kind, page, text) "
        "VALUES (?, ?, 'd', ?, 'paragraph', 1, ?)",
        [(n + 1, f"b{n}", n, f"block {n}") for n in range(len(vectors))],
    )
    db.execute("INSERT INTO embedding_models VALUES ('m', ?)", (DIMS,))
    db.executemany(
        "INSERT INTO block_vectors VALUES ('m', ?, ?)",
        [(n + 1, v.tobytes()) for n, v in enumerate(vectors)],
    )
    db.commit()
    (inserted, changed) = db.execute("SELECT inserted, changed FROM vector_changes").fetchone()
    db.close()
    folder = directory / "vectors"
    folder.mkdir()
    slug = model_slug("m")
    np.arange(1, len(vectors) + 1, dtype=np.int64).tofile(folder / f"{slug}.1.rowids")
    vectors.tofile(folder / f"{slug}.1.f32")
    np.ascontiguousarray(binary_codes(vectors).T).tofile(folder / f"{slug}.1.bits")
    meta = {
        "model": "m",
        "dimensions": DIMS,
        "count": len(vectors),
        "max_rowid": len(vectors),
        "inserted": inserted,
        "changed": changed,
        "generation": 1,
    }
    (folder / f"{slug}.json").write_text(json.dumps(meta))


def test_an_old_float32_library_migrates_and_finds_the_same_top_ten(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rng = np.random.default_rng(5)
    vectors = _unit(rng.standard_normal((BLOCKS, DIMS)))
    _old_library(tmp_path, vectors)
    queries = _unit(vectors[:20] + 0.3 * rng.standard_normal((20, DIMS)))

    store = LibraryStore(tmp_path)  # the migration runs on open
    sizes = {r[0] for r in store.db.execute("SELECT length(vector) FROM block_vectors")}
    assert sizes == {2 * DIMS}  # every row now float16, half the bytes
    rowids, matrix = load_matrix(store.db, "m")
    assert np.array_equal(matrix, vectors.astype(np.float16))

    index = VectorIndex(tmp_path, "m")
    with caplog.at_level(logging.WARNING):
        index.refresh(store.db)
    assert not caplog.records  # an old format is rebuilt, not reported as damage
    files = sorted(p.suffix for p in (tmp_path / "vectors").iterdir() if p.stem.count(".") == 1)
    assert files == [".bits", ".f16", ".rowids"]  # the float32 generation is gone
    assert index.meta is not None and index.meta.count == BLOCKS
    for query in queries:
        exact = 1 + np.argsort(-(vectors @ query), kind="stable")[:10]
        found, sims = index.search(query, 10)
        assert set(found.tolist()) == set(exact.tolist())
        assert np.allclose(sims, np.sort(vectors @ query)[::-1][:10], atol=2e-3)
    assert index.check(store.db).mismatches == 0


def test_a_float32_blob_written_after_the_migration_still_reads(tmp_path: Path) -> None:
    # An older process still running beside a new one writes float32 blobs: they read
    # (rounded to float16), and the index built from them checks clean.
    store = LibraryStore(tmp_path)
    store.db.execute(
        "INSERT INTO documents (id, sha256, path, kind, pages) VALUES ('d', 's', 'p', 'x', 1)"
    )
    for n in (1, 2, 3):
        store.db.execute(
            "INSERT INTO blocks (rowid, id, document_id, ordinal, kind, page, text) "
            "VALUES (?, ?, 'd', ?, 'paragraph', 1, 'x')",
            (n, f"b{n}", n),
        )
    store.db.commit()
    store.vectors.register_model("m", 4)
    save_vectors(store.db, "m", [1, 2], np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]]))
    old = np.array([0.0, 0.6, 0.8, 0.0], dtype=np.float32)
    with store.db:
        store.db.execute("INSERT INTO block_vectors VALUES ('m', 3, ?)", (old.tobytes(),))
    assert np.array_equal(decode_blob(old.tobytes(), 4), old.astype(np.float16))
    rowids, matrix = load_matrix(store.db, "m")
    assert list(rowids) == [1, 2, 3] and np.array_equal(matrix[2], old.astype(np.float16))
    index = VectorIndex(tmp_path, "m")
    index.refresh(store.db)
    found, _ = index.search(old, 1)
    assert found.tolist() == [3]
    assert index.check(store.db).mismatches == 0
