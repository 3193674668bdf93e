"""A document's blocks are read from SQLite once and kept until the document changes:
re-ingesting, replacing or deleting it (here or through another connection) is seen on
the next read, and ingesting other documents does not drop what is kept."""

from __future__ import annotations

from pathlib import Path

from citewise.documents.model import Block, Document
from citewise.store.sqlite.library import BlockFilter, LibraryStore


def table_document(rows: list[str], sha: str = "a" * 64, path: str = "/tmp/t.pdf") -> Document:
    blocks = [
        Block(0, "heading", 1, (0.0, 0.0, 10.0, 10.0), "Results"),
        Block(1, "paragraph", 1, (0.0, 10.0, 10.0, 20.0), "The sorter splits granite."),
        Block(
            2,
            "table",
            1,
            (0.0, 20.0, 10.0, 40.0),
            "\n".join(rows),
            label="Table 1",
            data={"rows": [r.split() for r in rows], "caption": "Sorting speed"},
        ),
    ]
    return Document(
        path=Path(path),
        sha256=sha,
        kind="pdf",
        pages=1,
        blocks=blocks,
        title="Granite Sorting",
        authors=["Ada Quarry"],
        year=2024,
    )


def block_reads(store: LibraryStore) -> list[str]:
    """Every statement that reads rows of the blocks table (the cache's own check reads
    only the change counters, or the document's first rowid and count)."""
    seen: list[str] = []
    store.db.set_trace_callback(
        lambda sql: seen.append(sql) if "b.text" in sql and "FROM blocks" in sql else None
    )
    return seen


def test_a_documents_blocks_are_read_once_and_served_again(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc = store.save_document(table_document(["granite 12", "basalt 9"]))
    reads = block_reads(store)
    tables = store.blocks_with_data(doc, ("table",))
    assert [(b.label, d) for b, d in tables] == [
        ("Table 1", {"rows": [["granite", "12"], ["basalt", "9"]], "caption": "Sorting speed"})
    ]
    assert [b.kind for b in store.blocks(doc)] == ["heading", "paragraph", "table"]
    assert [b.kind for b, _ in store.blocks_with_data(doc, ("heading", "table"))] == [
        "heading",
        "table",
    ]
    assert store.blocks_with_data(doc, ("table",)) == tables
    assert len(reads) == 1  # one read of the document served all four calls


def test_re_ingesting_a_document_is_seen_on_the_next_read(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc = store.save_document(table_document(["granite 12"]))
    before = store.blocks_with_data(doc, ("table",))[0]
    # same file hash (a re-parse with other options), new blocks under the same ID
    assert store.save_document(table_document(["granite 15", "slate 4"]), replaces=doc) == doc
    (block, data) = store.blocks_with_data(doc, ("table",))[0]
    assert block.text == "granite 15\nslate 4" and block.rowid != before[0].rowid
    assert data == {"rows": [["granite", "15"], ["slate", "4"]], "caption": "Sorting speed"}
    store.delete_document(doc)
    assert store.blocks(doc) == [] and store.blocks_with_data(doc, ("table",)) == []


def test_a_change_made_through_another_connection_is_seen(tmp_path: Path) -> None:
    reader = LibraryStore(tmp_path)
    writer = LibraryStore(tmp_path)  # another process's connection to the same library
    doc = writer.save_document(table_document(["granite 12"]))
    assert reader.blocks(doc)[2].text == "granite 12"
    writer.save_document(table_document(["granite 20"]), replaces=doc)
    assert reader.blocks(doc)[2].text == "granite 20"
    writer.db.execute(
        "UPDATE blocks SET text = 'edited' WHERE document_id = ? AND ordinal = 1", (doc,)
    )
    writer.db.commit()
    assert reader.blocks(doc)[1].text == "edited"


def test_ingesting_other_documents_keeps_what_is_cached(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc = store.save_document(table_document(["granite 12"]))
    store.blocks(doc)
    reads = block_reads(store)
    other = store.save_document(table_document(["slate 3"], sha="b" * 64, path="/tmp/u.pdf"))
    assert store.blocks(doc)[2].text == "granite 12"
    assert store.blocks(other)[2].text == "slate 3"
    assert len(reads) == 1  # only the new document was read


def test_the_least_recently_used_document_leaves_first_when_full(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    docs = [
        store.save_document(table_document([f"granite {n}"], sha=c * 64, path=f"/tmp/{c}.pdf"))
        for n, c in enumerate("abc")
    ]
    (size,) = store.db.execute(
        "SELECT sum(length(text) + coalesce(length(data), 0)) FROM blocks WHERE document_id = ?",
        (docs[0],),
    ).fetchone()
    store._documents_blocks.clear()
    store._documents_blocks.max_chars = 2 * size  # room for two documents
    store.blocks(docs[0])
    store.blocks(docs[1])
    store.blocks(docs[0])  # the first is now the more recently used
    store.blocks(docs[2])  # the second leaves
    reads = block_reads(store)
    store.blocks(docs[0])
    store.blocks(docs[2])
    assert reads == []
    store.blocks(docs[1])
    assert len(reads) == 1


def test_a_documents_candidates_are_its_trusted_rowids_current_after_re_ingest(
    tmp_path: Path,
) -> None:
    store = LibraryStore(tmp_path)
    doc = store.save_document(table_document(["granite 12"]))
    other = store.save_document(table_document(["slate 3"], sha="b" * 64, path="/tmp/u.pdf"))
    store.db.execute("UPDATE blocks SET trusted = 0 WHERE document_id = ? AND ordinal = 1", (doc,))
    store.db.commit()
    rowids = [b.rowid for b in store.blocks(doc)]
    assert store.candidates(BlockFilter(documents=(doc,))).tolist() == [rowids[0], rowids[2]]
    both = store.candidates(BlockFilter(documents=(other, doc)))
    assert both.tolist() == sorted([rowids[0], rowids[2], *(b.rowid for b in store.blocks(other))])
    store.save_document(table_document(["granite 20"]), replaces=doc)
    again = store.candidates(BlockFilter(documents=(doc,))).tolist()
    assert again == [b.rowid for b in store.blocks(doc)] and not set(again) & set(rowids)
