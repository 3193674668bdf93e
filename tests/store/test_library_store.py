from __future__ import annotations

from pathlib import Path

import numpy as np

from citewise.documents.model import Block, Document, block_id
from citewise.store.library import BlockFilter, LibraryStore
from citewise.store.migrations import MIGRATIONS
from citewise.store.vectors import blocks_without_vectors, load_matrix, register_model, save_vectors


def make_document(texts: list[str], sha: str = "a" * 64, path: str = "/tmp/x.pdf") -> Document:
    blocks = [
        Block(i, "paragraph", 1 + i // 2, (0.0, 0.0, 10.0, 10.0), t) for i, t in enumerate(texts)
    ]
    return Document(
        path=Path(path),
        sha256=sha,
        kind="pdf",
        pages=2,
        blocks=blocks,
        title="Granite Sorting",
        authors=["Ada Quarry"],
        year=2024,
    )


def test_opens_in_wal_mode_with_foreign_keys_and_all_migrations(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    store.close()
    # Reopening applies nothing twice.
    again = LibraryStore(tmp_path)
    assert again.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_saves_document_with_slug_id_and_stable_block_ids(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc = make_document(["first block", "second block"])
    doc_id = store.save_document(doc)
    assert doc_id == "quarry2024granite"
    blocks = store.blocks(doc_id)
    assert [b.id for b in blocks] == [block_id("a" * 64, 0), block_id("a" * 64, 1)]
    assert store.document(doc_id).blocks == 2  # type: ignore[union-attr]


def test_same_slug_gets_a_suffix(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    first = store.save_document(make_document(["x"], sha="a" * 64, path="/a.pdf"))
    second = store.save_document(make_document(["y"], sha="b" * 64, path="/b.pdf"))
    assert (first, second) == ("quarry2024granite", "quarry2024granite-2")


def test_replacing_a_document_swaps_its_blocks_and_keeps_its_id(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc_id = store.save_document(make_document(["old granite text"]))
    new = make_document(["new basalt text", "more basalt"], sha="c" * 64)
    assert store.save_document(new, replaces=doc_id) == doc_id
    assert [b.text for b in store.blocks(doc_id)] == ["new basalt text", "more basalt"]
    assert store.keyword_search(["granite"], 10) == []
    assert len(store.keyword_search(["basalt"], 10)) == 2


def test_keyword_search_ranks_by_bm25_and_filters(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc_id = store.save_document(
        make_document(
            ["granite granite quarry", "granite only once here with many other words", "nothing"]
        )
    )
    hits = store.keyword_search(["granite", "quarry"], 10)
    blocks = store.blocks(doc_id)
    assert [rowid for rowid, _ in hits] == [blocks[0].rowid, blocks[1].rowid]
    assert store.keyword_search(["granite"], 10, BlockFilter(pages=(2,))) == []
    assert [r for r, _ in store.keyword_search(["nothing"], 10, BlockFilter(pages=(2,)))] == [
        blocks[2].rowid
    ]
    assert store.keyword_search(["granite"], 10, BlockFilter(documents=("other",))) == []


def test_chinese_and_japanese_text_is_findable_by_substring(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(
        make_document(["本文提出了一种检索增强生成方法", "自然言語処理の研究です", "plain english"])
    )
    assert len(store.keyword_search(["检索增强"], 10)) == 1
    assert len(store.keyword_search(["言語処理"], 10)) == 1
    assert store.keyword_search(["检索失败"], 10) == []


def test_untrusted_blocks_are_never_found(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc = make_document(["granite trusted", "granite garbled"])
    doc.blocks[1].trusted = False
    store.save_document(doc)
    assert len(store.keyword_search(["granite"], 10)) == 1


def test_vectors_are_stored_per_model_and_normalized(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(make_document(["a", "b"]))
    register_model(store.db, "m1", 3)
    todo = blocks_without_vectors(store.db, "m1")
    assert len(todo) == 2
    save_vectors(store.db, "m1", [r for r, _ in todo], np.array([[3.0, 4.0, 0.0], [0, 0, 2.0]]))
    assert blocks_without_vectors(store.db, "m1") == []
    register_model(store.db, "m2", 3)
    assert len(blocks_without_vectors(store.db, "m2")) == 2
    rowids, matrix = load_matrix(store.db, "m1")
    assert list(rowids) == [r for r, _ in todo]
    assert np.allclose(matrix[0], [0.6, 0.8, 0.0])


def test_deleting_a_document_removes_blocks_vectors_and_index_rows(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc_id = store.save_document(make_document(["granite"]))
    register_model(store.db, "m", 2)
    save_vectors(store.db, "m", [store.blocks(doc_id)[0].rowid], np.array([[1.0, 0.0]]))
    store.delete_document(doc_id)
    assert store.db.execute("SELECT count(*) FROM block_vectors").fetchone()[0] == 0
    assert store.db.execute("SELECT count(*) FROM blocks_fts").fetchone()[0] == 0
    assert store.documents() == []


def test_an_old_watches_file_moves_into_the_store_once(tmp_path: Path) -> None:
    import json

    legacy = {"abc": {"query": "graph", "sources": ["arxiv"], "last_run": "2026-01-01",
                      "runs": 2, "seen": ["doi:10.1/x"]}}  # fmt: skip
    (tmp_path / "watches.json").write_text(json.dumps(legacy), "utf-8")
    store = LibraryStore(tmp_path)
    (watch,) = store.watches.list_watches()
    assert (watch.id, watch.query, watch.runs, watch.seen) == ("abc", "graph", 2, ["doi:10.1/x"])
    assert not (tmp_path / "watches.json").exists()
    assert (tmp_path / "watches.json.imported").exists()
    store.close()
    assert len(LibraryStore(tmp_path).watches.list_watches()) == 1
