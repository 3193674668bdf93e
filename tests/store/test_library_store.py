from __future__ import annotations

from pathlib import Path

import numpy as np

from citewise.documents.model import Block, Document, block_id
from citewise.retrieval.keyword_index import KeywordIndex
from citewise.store.sqlite import migrations
from citewise.store.sqlite.library import BlockFilter, LibraryStore
from citewise.store.sqlite.migrations import MIGRATIONS
from citewise.store.sqlite.vectors import (
    blocks_without_vectors,
    load_matrix,
    register_model,
    save_vectors,
)
from tests.store.old_schema import library_before


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


def keyword(store: LibraryStore, terms: list[str], where: BlockFilter | None = None) -> list[int]:
    """Rowids the library's one keyword index finds, as retrieval asks it."""
    index = KeywordIndex(store.directory)
    index.refresh(store)
    allowed = store.candidates(where) if where else None
    return [rowid for rowid, _ in index.search(terms, 10, allowed)]


def test_replacing_a_document_swaps_its_blocks_and_keeps_its_id(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc_id = store.save_document(make_document(["old granite text"]))
    assert len(keyword(store, ["granite"])) == 1
    (old_rowid,) = [b.rowid for b in store.blocks(doc_id)]
    new = make_document(["new basalt text", "more basalt"], sha="c" * 64)
    assert store.save_document(new, replaces=doc_id) == doc_id
    assert min(b.rowid for b in store.blocks(doc_id)) > old_rowid  # never a reused rowid
    assert [b.text for b in store.blocks(doc_id)] == ["new basalt text", "more basalt"]
    assert keyword(store, ["granite"]) == []
    assert len(keyword(store, ["basalt"])) == 2


def test_keyword_search_ranks_by_bm25_and_filters(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc_id = store.save_document(
        make_document(
            ["granite granite quarry", "granite only once here with many other words", "nothing"]
        )
    )
    blocks = store.blocks(doc_id)
    assert keyword(store, ["granite", "quarry"]) == [blocks[0].rowid, blocks[1].rowid]
    assert keyword(store, ["granite"], BlockFilter(pages=(2,))) == []
    assert keyword(store, ["nothing"], BlockFilter(pages=(2,))) == [blocks[2].rowid]
    assert keyword(store, ["granite"], BlockFilter(documents=("other",))) == []


def test_chinese_and_japanese_text_is_findable_by_substring(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(
        make_document(["本文提出了一种检索增强生成方法", "自然言語処理の研究です", "plain english"])
    )
    assert len(keyword(store, ["检索增强"])) == 1
    assert len(keyword(store, ["言語処理"])) == 1
    assert keyword(store, ["失败"]) == []


def test_untrusted_blocks_are_never_found(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc = make_document(["granite trusted", "granite garbled"])
    doc.blocks[1].trusted = False
    store.save_document(doc)
    assert len(keyword(store, ["granite"])) == 1


def test_an_old_library_loses_its_fts5_table_and_keeps_every_block(tmp_path: Path) -> None:
    # The library as the releases before one keyword index wrote it: FTS5 rows beside blocks.
    db = library_before(tmp_path, migrations._drop_fts)
    db.execute(
        "INSERT INTO documents (id, sha256, path, kind, pages) VALUES ('d', 's', 'p', 'pdf', 1)"
    )
    for rowid, text in ((1, "granite quarry"), (2, "basalt")):
        db.execute(
            "INSERT INTO blocks (rowid, id, document_id, ordinal, kind, page, text) "
            "VALUES (?, ?, 'd', ?, 'paragraph', 1, ?)",
            (rowid, f"b{rowid}", rowid, text),
        )
        db.execute("INSERT INTO blocks_fts (rowid, text, section_path, label) VALUES (?,?,'','')",
                   (rowid, text))  # fmt: skip
    db.commit()
    db.close()
    store = LibraryStore(tmp_path)
    tables = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master")}
    assert not any(name.startswith("blocks_fts") for name in tables)
    assert [b.text for b in store.blocks("d")] == ["granite quarry", "basalt"]
    assert keyword(store, ["granite"]) == [1]
    store.delete_document("d")  # the newest rowids go; the next document is numbered past them
    doc_id = store.save_document(make_document(["granite again"]))
    assert [b.rowid for b in store.blocks(doc_id)] == [3]
    assert keyword(store, ["granite"]) == [3]


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
    assert matrix.dtype == np.float16  # stored as float16: 2 bytes a component
    assert np.allclose(matrix[0], [0.6, 0.8, 0.0], atol=1e-3)
    (size,) = store.db.execute("SELECT DISTINCT length(vector) FROM block_vectors").fetchone()
    assert size == 3 * 2


def test_deleting_a_document_removes_blocks_vectors_and_index_rows(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc_id = store.save_document(make_document(["granite"]))
    register_model(store.db, "m", 2)
    save_vectors(store.db, "m", [store.blocks(doc_id)[0].rowid], np.array([[1.0, 0.0]]))
    store.delete_document(doc_id)
    assert store.db.execute("SELECT count(*) FROM block_vectors").fetchone()[0] == 0
    assert store.db.execute("SELECT count(*) FROM blocks").fetchone()[0] == 0
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


def test_old_vectors_move_inline_then_to_float16_with_their_triggers(tmp_path: Path) -> None:
    db = library_before(tmp_path, migrations._vectors_inline)
    db.execute(
        "INSERT INTO documents (id, sha256, path, kind, pages) VALUES ('d', 's', 'p', 'x', 1)"
    )
    for rowid in (1, 2):
        db.execute(
            "INSERT INTO blocks (rowid, id, document_id, ordinal, kind, page, text) "
            "VALUES (?, ?, 'd', ?, 'paragraph', 1, 'granite')",
            (rowid, f"b{rowid}", rowid),
        )
    db.execute("INSERT INTO embedding_models VALUES ('m', 2)")
    vector = np.array([0.6, 0.8], dtype=np.float32).tobytes()
    db.execute("INSERT INTO block_vectors VALUES ('m', 1, ?)", (vector,))
    db.commit()
    db.close()

    store = LibraryStore(tmp_path)
    (sql,) = store.db.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'block_vectors'"
    ).fetchone()
    assert "WITHOUT ROWID" not in sql
    stored = store.db.execute("SELECT vector FROM block_vectors").fetchall()[0][0]
    assert stored == np.frombuffer(vector, dtype=np.float32).astype(np.float16).tobytes()
    save_vectors(store.db, "m", [2], np.array([[1.0, 0.0]]))
    save_vectors(store.db, "m", [2], np.array([[0.0, 1.0]]))  # an upsert
    (counts,) = store.db.execute("SELECT inserted, changed FROM vector_changes").fetchall()
    # The triggers came along: one old row, one new, one update (and the float16 move).
    assert tuple(counts) == (2, 2)
    found, matrix = load_matrix(store.db, "m")
    assert list(found) == [1, 2] and np.allclose(matrix, [[0.6, 0.8], [0.0, 1.0]], atol=1e-3)
    store.delete_document("d")  # the rows still go with their blocks
    assert store.db.execute("SELECT count(*) FROM block_vectors").fetchone()[0] == 0
