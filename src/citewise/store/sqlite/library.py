"""Documents and blocks in the library store.

Callers get dataclasses back, never sqlite3 rows (rows.py), so another store (PostgreSQL +
pgvector) can implement the same methods. Keyword search and term frequencies are not
here: they are served by the postings beside library.db (retrieval/keyword_index.py).
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.documents.model import Document
from citewise.errors import LibraryError
from citewise.store.filters import BlockFilter
from citewise.store.rows import (
    BLOCK_COLUMNS,
    Row,
    StoredBlock,
    StoredDocument,
    block_values,
    document_values,
    stored_block,
    stored_document,
)
from citewise.store.sqlite.audit import SqliteAuditLog
from citewise.store.sqlite.block_cache import DocumentBlocks
from citewise.store.sqlite.db import connect, transaction, writable
from citewise.store.sqlite.matrix_cache import MatrixCache
from citewise.store.sqlite.references import (
    StoredReference,
    documents_citing,
    save_references,
    stored_citations,
    stored_references,
)
from citewise.store.sqlite.tasks import SqliteTaskRepository
from citewise.store.sqlite.vocabulary import SqliteVocabulary
from citewise.store.sqlite.watches import LEGACY_FILE as LEGACY_WATCH_FILE
from citewise.store.sqlite.watches import SqliteWatchRepository

if TYPE_CHECKING:  # numpy and the vector files load when searched, not to open a library
    import numpy as np

    from citewise.store.sqlite.index_source import BlockState
    from citewise.store.sqlite.vector_index import SqliteDenseIndex
    from citewise.store.sqlite.vectors import SqliteVectors

__all__ = [
    "DB_NAME",
    "BlockFilter",
    "LibraryStore",
    "Row",
    "StoredBlock",
    "StoredDocument",
    "stored_block",
    "stored_document",
]

DB_NAME = "library.db"


def _file_bytes(path: Path) -> int:
    """The database file and its write-ahead log, in bytes."""
    wal = path.with_name(path.name + "-wal")
    return sum(p.stat().st_size for p in (path, wal) if p.is_file())


# A logged answer (answer_reviews) keeps its citations of other documents' blocks only.
FORGET_CITED = (
    "UPDATE answer_reviews SET citations = (SELECT json_group_array(j.value) "
    "FROM json_each(answer_reviews.citations) j WHERE j.value NOT IN "
    "(SELECT id FROM blocks WHERE document_id = ?1)) "
    "WHERE EXISTS (SELECT 1 FROM json_each(answer_reviews.citations) j "
    "JOIN blocks b ON b.id = j.value WHERE b.document_id = ?2)"
)


def document_slug(doc: Document) -> str:
    """A human-readable ID: first author's family name + year + first title word."""
    family = doc.authors[0].split()[-1] if doc.authors else ""
    words = [w for w in re.findall(r"[^\W_]+", doc.title) if len(w) > 3]
    parts = [family, str(doc.year or ""), words[0] if words else ""]
    slug = "".join(parts) if family and words else doc.path.stem
    ascii_slug = unicodedata.normalize("NFKD", slug).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_slug.lower()).strip("-") or "document"


class LibraryStore:
    """One library = one directory holding one SQLite file (opened read-only when this
    process may not write it, or when `read_only` says so)."""

    def __init__(self, directory: Path, read_only: bool | None = None) -> None:
        self.directory = directory
        self.db = connect(directory / DB_NAME, read_only)
        self.tasks = SqliteTaskRepository(self.db)
        self.audit = SqliteAuditLog(self.db)
        self.watches = SqliteWatchRepository(self.db)
        self._vectors: SqliteVectors | None = None
        self._documents_blocks = DocumentBlocks(self.db)  # read once per ingest, kept
        self.vocabulary = SqliteVocabulary(self.db)
        self.matrix_cells = MatrixCache(self.db)
        self.actions = None  # one user's library: no audit trail of who did what
        if (directory / LEGACY_WATCH_FILE).is_file() and writable(directory / DB_NAME):
            self.watches.import_watch_file(directory)

    def close(self) -> None:
        self.db.close()

    def compact(self) -> tuple[int, int]:
        """Give the file's free pages back (VACUUM): what a migration freed, or deleted
        documents left. Returns the database's bytes before and after."""
        path = self.directory / DB_NAME
        before = _file_bytes(path)
        try:
            self.db.execute("VACUUM")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as exc:
            raise LibraryError(
                f"cannot compact the library at {self.directory}: {exc}",
                hint="it must be writable and no other citewise process (serve, worker) "
                "may be using it; stop them and run it again",
                code="LIBRARY_BUSY",
            ) from exc
        return before, _file_bytes(path)

    @property
    def vectors(self) -> SqliteVectors:
        """The block vectors of record (built on first use: it imports numpy)."""
        if self._vectors is None:
            from citewise.store.sqlite.vectors import SqliteVectors

            self._vectors = SqliteVectors(self.db)
        return self._vectors

    def dense_index(self, model: str) -> SqliteDenseIndex:
        """`model`'s vectors mirrored into mapped files beside the database."""
        from citewise.store.sqlite.vector_index import SqliteDenseIndex

        return SqliteDenseIndex(self.directory, model, self.db)

    # -- documents -------------------------------------------------------------------

    def _documents(self, where: str = "", params: tuple[object, ...] = ()) -> list[StoredDocument]:
        rows = self.db.execute(
            "SELECT d.*, (SELECT count(*) FROM blocks WHERE document_id = d.id) AS block_count "
            f"FROM documents d {where} ORDER BY d.id",
            params,
        ).fetchall()
        return [stored_document(r) for r in rows]

    def documents(self) -> list[StoredDocument]:
        """Every document, in ID order: the same order whatever order they were stored in
        (the papers a question may name, the matrix's rows, `list`)."""
        return self._documents()

    def document(self, doc_id: str) -> StoredDocument | None:
        found = self._documents("WHERE d.id = ?", (doc_id,))
        return found[0] if found else None

    def document_by_sha(self, sha256: str) -> StoredDocument | None:
        found = self._documents("WHERE d.sha256 = ?", (sha256,))
        return found[0] if found else None

    def document_by_path(self, path: str) -> StoredDocument | None:
        found = self._documents("WHERE d.path = ?", (path,))
        return found[0] if found else None

    def _free_id(self, wanted: str) -> str:
        candidate, n = wanted, 1
        while self.db.execute("SELECT 1 FROM documents WHERE id = ?", (candidate,)).fetchone():
            n += 1
            candidate = f"{wanted}-{n}"
        return candidate

    def save_document(
        self, doc: Document, replaces: str | None = None, wanted_id: str | None = None
    ) -> str:
        """Store a parsed document and its blocks in one transaction; return its ID.

        `replaces` names a document whose file changed: its rows are swapped for the new
        ones atomically, keeping its ID. `wanted_id` (from a manifest) is used when free.
        """
        with transaction(self.db):
            if replaces:
                self._delete_rows(replaces)
                doc_id = replaces
            else:
                doc_id = self._free_id(wanted_id or document_slug(doc))
            self._insert_document(doc_id, doc)
            self._insert_blocks(doc_id, doc, self._next_block_rowid())
            save_references(self.db, doc_id, doc)  # entries, citation links, resolution
        return doc_id

    def _insert_document(self, doc_id: str, doc: Document) -> None:
        """The `documents` row of `doc` under `doc_id` (inside the caller's transaction)."""
        self.db.execute(
            "INSERT INTO documents (id, sha256, path, kind, title, authors, year, doi, "
            "abstract, pages, flagged_pages, venue, arxiv_id, csl) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            document_values(doc_id, doc),
        )

    def _next_block_rowid(self) -> int:
        """Past every rowid ever given, so no index beside the database meets a reused one."""
        (first,) = self.db.execute(
            "SELECT max(high_rowid, (SELECT coalesce(max(rowid), 0) FROM blocks)) + 1 "
            "FROM block_changes WHERE id = 1"
        ).fetchone()
        return int(first)

    def _insert_blocks(self, doc_id: str, doc: Document, first: int) -> None:
        """The `blocks` rows of `doc`, numbered from rowid `first` in block order."""
        self.db.executemany(
            "INSERT INTO blocks (rowid, id, document_id, ordinal, kind, page, x0, y0, "
            "x1, y1, section_path, label, text, font_size, font_name, bold, trusted, "
            "data) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(first + n, *row) for n, row in enumerate(block_values(doc_id, doc))],
        )

    def update_metadata(self, doc_id: str, fields: dict[str, object]) -> None:
        """Set bibliographic fields of a stored document (from a manifest or Zotero)."""
        allowed = (
            "title",
            "authors",
            "year",
            "doi",
            "arxiv_id",
            "pmid",
            "venue",
            "abstract",
            "csl",
        )
        sets = {k: v for k, v in fields.items() if k in allowed}
        if not sets:
            return
        values = [json.dumps(v, ensure_ascii=False) if k in ("authors", "csl") else v
                  for k, v in sets.items()]  # fmt: skip
        with transaction(self.db):
            self.db.execute(
                f"UPDATE documents SET {', '.join(f'{k} = ?' for k in sets)} WHERE id = ?",
                (*values, doc_id),
            )

    def _delete_rows(self, doc_id: str) -> None:
        self.db.execute("DELETE FROM blocks WHERE document_id = ?", (doc_id,))
        self.db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def delete_document(self, doc_id: str) -> None:
        """The document gone with everything that hangs on it: blocks, vectors, references,
        citation links, matrix cells, vocabulary (foreign keys cascade; other documents'
        references to it are unresolved), and its blocks cut from logged answers' citations."""
        with transaction(self.db):
            self.db.execute(FORGET_CITED, (doc_id, doc_id))
            self._delete_rows(doc_id)

    # -- blocks ----------------------------------------------------------------------

    def blocks(self, doc_id: str) -> list[StoredBlock]:
        """The document's blocks in reading order (kept in memory until it changes)."""
        return self._documents_blocks.blocks(doc_id)

    def block(self, block_id: str) -> StoredBlock | None:
        row = self.db.execute(
            f"SELECT {BLOCK_COLUMNS} FROM blocks b WHERE b.id = ?", (block_id,)
        ).fetchone()
        return stored_block(row) if row else None

    def blocks_with_data(
        self, doc_id: str, kinds: tuple[str, ...]
    ) -> list[tuple[StoredBlock, dict[str, Any] | None]]:
        """Blocks of the given kinds with their structured data (table cells, equation
        text), decoded once per document until it changes: callers must not change it."""
        return self._documents_blocks.with_data(doc_id, kinds)

    def blocks_by_rowid(self, rowids: list[int]) -> dict[int, StoredBlock]:
        found: dict[int, StoredBlock] = {}
        for start in range(0, len(rowids), 500):
            chunk = rowids[start : start + 500]
            rows = self.db.execute(
                f"SELECT {BLOCK_COLUMNS} FROM blocks b "
                f"WHERE b.rowid IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            found.update((r["rowid"], stored_block(r)) for r in rows)
        return found

    def neighbours(self, block: StoredBlock, span: int = 1) -> list[StoredBlock]:
        """Trusted blocks within `span` ordinals of `block` in the same document."""
        rows = self.db.execute(
            f"SELECT {BLOCK_COLUMNS} FROM blocks b WHERE b.document_id = ? AND b.trusted = 1 "
            "AND b.ordinal BETWEEN ? AND ? AND b.ordinal != ? ORDER BY b.ordinal",
            (block.document_id, block.ordinal - span, block.ordinal + span, block.ordinal),
        ).fetchall()
        return [stored_block(r) for r in rows]

    def neighbours_of(self, blocks: list[StoredBlock], span: int = 1) -> list[list[StoredBlock]]:
        return [self.neighbours(block, span) for block in blocks]

    def candidates(self, where: BlockFilter) -> np.ndarray:
        """Rowids of the trusted blocks `where` allows, ascending (for whole documents, from
        the blocks kept in memory: a search within a passage's paper reads no rows)."""
        from citewise.store.sqlite import index_source

        if where.documents and not where.pages and not where.kinds:
            import numpy as np

            parts = [self._documents_blocks.trusted_rowids(d) for d in set(where.documents)]
            return parts[0] if len(parts) == 1 else np.sort(np.concatenate(parts))
        return index_source.filtered_rowids(self.db, where)

    # -- what indexes beside the database read -----------------------------------------

    def block_state(self) -> BlockState:
        from citewise.store.sqlite import index_source

        return index_source.block_state(self.db)

    def iter_trusted_blocks(
        self, after_rowid: int = 0, chunk: int = 50_000
    ) -> Iterator[list[tuple[int, str, str, str]]]:
        from citewise.store.sqlite import index_source

        return index_source.iter_trusted_blocks(self.db, after_rowid, chunk)

    def trusted_rowids(self) -> np.ndarray:
        from citewise.store.sqlite import index_source

        return index_source.trusted_rowids(self.db)

    # -- references --------------------------------------------------------------------

    def references(self, doc_id: str) -> list[StoredReference]:
        return stored_references(self.db, doc_id)

    def citations(self, doc_id: str) -> list[tuple[str, str, str]]:
        """(block id, reference id, marker) for the document's in-text citations."""
        return stored_citations(self.db, doc_id)

    def cited_by(self, doc_id: str) -> list[str]:
        """Library documents whose bibliography resolves to this one."""
        return documents_citing(self.db, doc_id)

    def stats(self) -> dict[str, int]:
        """Documents, blocks and pages; the block count from the change counters the
        triggers keep (inserted - deleted: one row, where count(*) reads every block)."""
        (docs,) = self.db.execute("SELECT count(*) FROM documents").fetchone()
        (blocks,) = self.db.execute(
            "SELECT coalesce((SELECT inserted - deleted FROM block_changes WHERE id = 1), "
            "(SELECT count(*) FROM blocks))"
        ).fetchone()
        (pages,) = self.db.execute("SELECT coalesce(sum(pages), 0) FROM documents").fetchone()
        return {"documents": docs, "blocks": blocks, "pages": pages}


def resolve_path(path: Path) -> str:
    """The path as stored: absolute, so links work from anywhere."""
    return str(path.expanduser().resolve())
