from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from citewise.documents.model import Block, Document
from citewise.errors import CitewiseError
from citewise.store.quantize import binary_codes
from citewise.store.sqlite.library import LibraryStore
from citewise.store.sqlite.vector_index import VectorIndex, model_slug
from citewise.store.sqlite.vectors import (
    blocks_without_vectors,
    load_matrix,
    register_model,
    save_vectors,
    vector_state,
)
from tests.store.mounts import resize, tiny_disk

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
    files = sorted(p.name for p in (tmp_path / "vectors").iterdir() if p.suffix == ".f16")
    assert files == [f"{model_slug('m')}.{index.meta.generation}.f16"]  # old ones removed


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
    (f16,) = (tmp_path / "vectors").glob("*.f16")
    f16.write_bytes(f16.read_bytes()[:100])  # as if killed mid-write
    _assert_mirrors_sqlite(VectorIndex(tmp_path, "m"), store, "m")


def _files(folder: Path) -> dict[str, Path]:
    return {p.suffix[1:]: p for p in folder.iterdir() if p.suffix in (".rowids", ".f16", ".bits")}


@pytest.mark.parametrize(
    "stale",
    [
        ("rowids",),  # killed before the .f16 append
        ("rowids", "f16"),  # killed before the .bits append
        ("rowids", "f16", "bits"),  # killed before the manifest
        ("rowids", "f16-partial"),  # the disk filled up half-way through a row
    ],
    ids=["before-f16", "before-bits", "before-manifest", "disk-full-mid-row"],
)
def test_an_append_cut_before_its_manifest_leaves_no_trace(
    tmp_path: Path, stale: tuple[str, ...]
) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("basalt", 30))
    _embed(store, "m", 1)
    VectorIndex(tmp_path, "m").refresh(store.db)
    store.save_document(_document("granite", 20))
    _embed(store, "m", 2)
    rowids, matrix = load_matrix(store.db, "m")
    files = _files(tmp_path / "vectors")
    cut = {  # what the interrupted append of granite's rows had written
        "rowids": rowids[30:].tobytes(),
        "f16": matrix[30:].tobytes(),
        "f16-partial": matrix[30:].tobytes()[:567],
        "bits": np.ascontiguousarray(binary_codes(matrix[30:]).T).tobytes(),
    }
    for name in stale:
        with open(files[name.split("-")[0]], "ab") as handle:
            handle.write(cut[name])

    store.save_document(_document("schist", 10))  # the user ingests more
    _embed(store, "m", 3)
    index = VectorIndex(tmp_path, "m")
    _assert_mirrors_sqlite(index, store, "m")
    assert index.meta is not None and index.meta.count == 60
    sizes = {s: p.stat().st_size for s, p in _files(tmp_path / "vectors").items()}
    assert sizes == {"rowids": 60 * 8, "f16": 60 * 2 * DIMS, "bits": 60 * 16}
    assert index.check(store.db).mismatches == 0


def test_files_an_older_version_corrupted_are_found_on_open_and_rebuilt(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("basalt", 30))
    _embed(store, "m", 1)
    VectorIndex(tmp_path, "m").refresh(store.db)
    store.save_document(_document("granite", 20))
    _embed(store, "m", 2)
    VectorIndex(tmp_path, "m").refresh(store.db)
    files = _files(tmp_path / "vectors")
    rowids = np.fromfile(files["rowids"], np.int64)
    # Stale rowids of a cut append, then the next append after them (the manifest's count
    # still fits the files, so lengths alone do not show it).
    np.concatenate([rowids[:30], rowids[30:40], rowids[30:40]]).tofile(files["rowids"])

    index = VectorIndex(tmp_path, "m")
    index.refresh(store.db)  # the check on open
    stored, matrix = load_matrix(store.db, "m")
    assert np.array_equal(index.rowids, stored)
    assert np.array_equal(np.asarray(index.matrix), matrix)


def test_doctor_check_counts_rows_that_differ_and_rebuilds(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("basalt", 30))
    _embed(store, "m", 1)
    VectorIndex(tmp_path, "m").refresh(store.db)
    f16 = _files(tmp_path / "vectors")["f16"]
    floats = np.fromfile(f16, np.float16).reshape(30, DIMS)
    floats[[3, 11]] = floats[[11, 3]]  # two rows carry each other's vector
    floats.tofile(f16)

    check = VectorIndex(tmp_path, "m").check(store.db)
    assert (check.mismatches, check.repaired, check.remaining) == (2, True, 0)
    assert check.vectors == check.indexed == 30
    again = VectorIndex(tmp_path, "m").check(store.db)
    assert (again.mismatches, again.repaired) == (0, False)


def test_a_full_disk_mid_append_raises_disk_full_and_heals_once_space_is_freed(
    tmp_path: Path,
) -> None:
    store = LibraryStore(tmp_path)
    with tiny_disk(tmp_path / "vectors", "64k"):
        store.save_document(_document("basalt", 10))
        _embed(store, "m", 1)
        VectorIndex(tmp_path, "m").refresh(store.db)
        store.save_document(_document("granite", 800))  # 112 KB of float16: does not fit
        _embed(store, "m", 2)
        with pytest.raises(CitewiseError) as raised:
            VectorIndex(tmp_path, "m").refresh(store.db)
        assert raised.value.code == "DISK_FULL"
        resize(tmp_path / "vectors", "4m")
        index = VectorIndex(tmp_path, "m")
        _assert_mirrors_sqlite(index, store, "m")
        assert index.meta is not None and index.meta.count == 810
        assert index.check(store.db).mismatches == 0
