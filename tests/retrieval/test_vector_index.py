from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from citewise.documents.model import Block, Document
from citewise.store.library import LibraryStore
from citewise.store.vector_index import VectorIndex, model_slug
from citewise.store.vectors import (
    blocks_without_vectors,
    load_matrix,
    register_model,
    save_vectors,
    vector_state,
)

DIMS = 70  # not a multiple of 64: codes are padded


def _document(name: str, blocks: int) -> Document:
    doc = Document(
        path=Path(f"/papers/{name}.pdf"),
        sha256=hashlib.sha256(name.encode()).hexdigest(),
        kind="pdf",
        pages=blocks,
        title=f"On {name}",
    )
    doc.blocks = [
        Block(i, "paragraph", i + 1, (0.0, 0.0, 1.0, 1.0), f"{name} block {i}")
        for i in range(blocks)
    ]
    return doc


def _embed(store: LibraryStore, model: str, seed: int) -> None:
    register_model(store.db, model, DIMS)
    todo = blocks_without_vectors(store.db, model)
    rng = np.random.default_rng(seed)
    save_vectors(store.db, model, [r for r, _ in todo], rng.standard_normal((len(todo), DIMS)))


def _assert_mirrors_sqlite(index: VectorIndex, store: LibraryStore, model: str) -> None:
    index.refresh(store.db)
    rowids, matrix = load_matrix(store.db, model)
    assert np.array_equal(index.rowids, rowids)
    assert np.array_equal(np.asarray(index.matrix), matrix)
    # A fresh reader (another process) maps the same files without rebuilding them.
    other = VectorIndex(store.directory, model)
    other.refresh(store.db)
    assert np.array_equal(other.rowids, rowids)
    assert other.meta == index.meta


def test_matrix_files_follow_documents_added_and_removed(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    index = VectorIndex(tmp_path, "m")
    index.refresh(store.db)
    assert len(index) == 0

    store.save_document(_document("basalt", 30))
    _embed(store, "m", 1)
    _assert_mirrors_sqlite(index, store, "m")
    first = index.meta
    assert first is not None and first.count == 30

    store.save_document(_document("granite", 20))
    _embed(store, "m", 2)
    _assert_mirrors_sqlite(index, store, "m")
    assert index.meta is not None and index.meta.generation == first.generation  # appended

    store.delete_document(store.documents()[0].id)
    _assert_mirrors_sqlite(index, store, "m")
    assert index.meta is not None and index.meta.count == 20
    assert index.meta.generation > first.generation  # rewritten
    files = sorted(p.name for p in (tmp_path / "vectors").iterdir() if p.suffix == ".f32")
    assert files == [f"{model_slug('m')}.{index.meta.generation}.f32"]  # old ones removed


def test_replacing_a_vector_is_seen_by_the_matrix(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("slate", 5))
    _embed(store, "m", 3)
    index = VectorIndex(tmp_path, "m")
    index.refresh(store.db)
    rowid = int(index.rowids[2])
    replacement = np.zeros((1, DIMS))
    replacement[0, 0] = 1.0
    before = vector_state(store.db, "m")
    save_vectors(store.db, "m", [rowid], replacement)
    assert vector_state(store.db, "m").changed == before.changed + 1
    _assert_mirrors_sqlite(index, store, "m")
    assert np.allclose(index.vectors([rowid]), replacement)


def test_search_finds_a_blocks_own_vector_and_honours_the_filter(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("gneiss", 40))
    _embed(store, "m", 4)
    index = VectorIndex(tmp_path, "m")
    index.refresh(store.db)
    target = int(index.rowids[17])
    query = index.vectors([target])
    assert query is not None
    rowids, sims = index.search(query[0], 3)
    assert int(rowids[0]) == target and np.isclose(sims[0], 1.0)
    allowed = index.rowids[20:]
    rowids, _ = index.search(query[0], 3, allowed=allowed)
    assert target not in rowids and set(rowids.tolist()) <= set(allowed.tolist())
    assert index.vectors([target, 10**9]) is None  # a block without a vector


def test_each_model_has_its_own_matrix(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("schist", 8))
    _embed(store, "model-a", 5)
    _embed(store, "model-b", 6)
    a, b = VectorIndex(tmp_path, "model-a"), VectorIndex(tmp_path, "model-b")
    a.refresh(store.db)
    b.refresh(store.db)
    assert np.array_equal(a.rowids, b.rowids)
    assert not np.allclose(np.asarray(a.matrix), np.asarray(b.matrix))
    _assert_mirrors_sqlite(a, store, "model-a")
    _assert_mirrors_sqlite(b, store, "model-b")


def test_a_truncated_matrix_file_is_rebuilt(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("marble", 12))
    _embed(store, "m", 7)
    VectorIndex(tmp_path, "m").refresh(store.db)
    (f32,) = (tmp_path / "vectors").glob("*.f32")
    f32.write_bytes(f32.read_bytes()[:100])  # as if killed mid-write
    _assert_mirrors_sqlite(VectorIndex(tmp_path, "m"), store, "m")
