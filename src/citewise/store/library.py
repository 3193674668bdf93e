"""Documents and blocks in the library store.

Callers get dataclasses back, never sqlite3 rows, so another store (PostgreSQL + pgvector)
can implement the same methods.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from citewise.documents.model import BBox, Document, block_id
from citewise.store import index_source
from citewise.store.audit import SqliteAuditLog
from citewise.store.db import connect, transaction, writable
from citewise.store.filters import BlockFilter
from citewise.store.fts import index_text, match_expression
from citewise.store.index_source import BlockState, filter_clause
from citewise.store.matrix_cache import MatrixCache
from citewise.store.references import (
    StoredReference,
    documents_citing,
    save_references,
    stored_citations,
    stored_references,
)
from citewise.store.tasks import SqliteTaskRepository
from citewise.store.vector_index import SqliteDenseIndex
from citewise.store.vectors import SqliteVectors
from citewise.store.vocabulary import SqliteVocabulary
from citewise.store.watches import LEGACY_FILE as LEGACY_WATCH_FILE
from citewise.store.watches import SqliteWatchRepository

__all__ = ["DB_NAME", "BlockFilter", "LibraryStore", "StoredBlock", "StoredDocument"]

DB_NAME = "library.db"


@dataclass(frozen=True)
class StoredDocument:
    id: str
    sha256: str
    path: str
    kind: str
    title: str
    authors: list[str]
    year: int | None
    doi: str | None
    abstract: str
    pages: int
    blocks: int
    flagged_pages: dict[int, str] = field(default_factory=dict)
    venue: str | None = None
    arxiv_id: str | None = None
    pmid: str | None = None
    csl: dict[str, object] | None = None


@dataclass(frozen=True)
class StoredBlock:
    rowid: int
    id: str
    document_id: str
    ordinal: int
    kind: str
    page: int
    bbox: BBox
    section_path: str
    label: str | None
    text: str
    trusted: bool


_BLOCK_COLUMNS = (
    "b.rowid, b.id, b.document_id, b.ordinal, b.kind, b.page, b.x0, b.y0, b.x1, b.y1, "
    "b.section_path, b.label, b.text, b.trusted"
)


class Row(Protocol):
    """A result row read by column name: sqlite3.Row here, a psycopg dict row in postgres/."""

    def __getitem__(self, key: str) -> Any: ...


def stored_block(row: Row) -> StoredBlock:
    """A blocks row (with its rowid) as the StoredBlock every backend returns."""
    return StoredBlock(
        rowid=int(row["rowid"]),
        id=row["id"],
        document_id=row["document_id"],
        ordinal=row["ordinal"],
        kind=row["kind"],
        page=row["page"],
        bbox=(row["x0"], row["y0"], row["x1"], row["y1"]),
        section_path=row["section_path"],
        label=row["label"],
        text=row["text"],
        trusted=bool(row["trusted"]),
    )


def stored_document(row: Row) -> StoredDocument:
    """A documents row (with its block_count) as the StoredDocument every backend returns."""
    return StoredDocument(
        id=row["id"],
        sha256=row["sha256"],
        path=row["path"],
        kind=row["kind"],
        title=row["title"],
        authors=json.loads(row["authors"]),
        year=row["year"],
        doi=row["doi"],
        abstract=row["abstract"],
        pages=row["pages"],
        blocks=int(row["block_count"]),
        flagged_pages={int(k): v for k, v in json.loads(row["flagged_pages"]).items()},
        venue=row["venue"],
        arxiv_id=row["arxiv_id"],
        pmid=row["pmid"],
        csl=json.loads(row["csl"]) if row["csl"] else None,
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
        self.vectors = SqliteVectors(self.db)
        self.vocabulary = SqliteVocabulary(self.db)
        self.matrix_cells = MatrixCache(self.db)
        self.actions = None  # one user's library: no audit trail of who did what
        if (directory / LEGACY_WATCH_FILE).is_file() and writable(directory / DB_NAME):
            self.watches.import_watch_file(directory)

    def close(self) -> None:
        self.db.close()

    def dense_index(self, model: str) -> SqliteDenseIndex:
        """`model`'s vectors mirrored into mapped files beside the database."""
        return SqliteDenseIndex(self.directory, model, self.db)

    # -- documents -------------------------------------------------------------------

    def _documents(self, where: str = "", params: tuple[object, ...] = ()) -> list[StoredDocument]:
        rows = self.db.execute(
            "SELECT d.*, (SELECT count(*) FROM blocks WHERE document_id = d.id) AS block_count "
            f"FROM documents d {where} ORDER BY d.ingested_at, d.id",
            params,
        ).fetchall()
        return [stored_document(r) for r in rows]

    def documents(self) -> list[StoredDocument]:
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
            self.db.execute(
                "INSERT INTO documents (id, sha256, path, kind, title, authors, year, doi, "
                "abstract, pages, flagged_pages, venue, arxiv_id, csl) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    doc_id,
                    doc.sha256,
                    str(doc.path),
                    doc.kind,
                    doc.title,
                    json.dumps(doc.authors),
                    doc.year,
                    doc.doi,
                    doc.abstract,
                    doc.pages,
                    json.dumps(doc.flagged_pages),
                    doc.venue,
                    doc.arxiv_id,
                    json.dumps(doc.extra, ensure_ascii=False) if doc.extra else None,
                ),
            )
            for b in doc.blocks:
                cursor = self.db.execute(
                    "INSERT INTO blocks (id, document_id, ordinal, kind, page, x0, y0, x1, y1, "
                    "section_path, label, text, font_size, font_name, bold, trusted, data) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        block_id(doc.sha256, b.ordinal),
                        doc_id,
                        b.ordinal,
                        b.kind,
                        b.page,
                        *b.bbox,
                        b.section_path,
                        b.label,
                        b.text,
                        b.font_size,
                        b.font_name,
                        int(b.bold),
                        int(b.trusted),
                        json.dumps(b.data) if b.data is not None else None,
                    ),
                )
                self.db.execute(
                    "INSERT INTO blocks_fts (rowid, text, section_path, label) VALUES (?,?,?,?)",
                    (cursor.lastrowid, index_text(b.text), b.section_path, b.label or ""),
                )
            save_references(self.db, doc_id, doc)  # entries, citation links, resolution
        return doc_id

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
        self.db.execute(
            "DELETE FROM blocks_fts WHERE rowid IN "
            "(SELECT rowid FROM blocks WHERE document_id = ?)",
            (doc_id,),
        )
        self.db.execute("DELETE FROM blocks WHERE document_id = ?", (doc_id,))
        self.db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def delete_document(self, doc_id: str) -> None:
        with transaction(self.db):
            self._delete_rows(doc_id)

    # -- blocks ----------------------------------------------------------------------

    def blocks(self, doc_id: str) -> list[StoredBlock]:
        rows = self.db.execute(
            f"SELECT {_BLOCK_COLUMNS} FROM blocks b WHERE b.document_id = ? ORDER BY b.ordinal",
            (doc_id,),
        ).fetchall()
        return [stored_block(r) for r in rows]

    def block(self, block_id: str) -> StoredBlock | None:
        row = self.db.execute(
            f"SELECT {_BLOCK_COLUMNS} FROM blocks b WHERE b.id = ?", (block_id,)
        ).fetchone()
        return stored_block(row) if row else None

    def blocks_with_data(
        self, doc_id: str, kinds: tuple[str, ...]
    ) -> list[tuple[StoredBlock, dict[str, Any] | None]]:
        """Blocks of the given kinds with their structured data (table cells, equation text)."""
        rows = self.db.execute(
            f"SELECT {_BLOCK_COLUMNS}, b.data FROM blocks b WHERE b.document_id = ? "
            f"AND b.kind IN ({','.join('?' * len(kinds))}) ORDER BY b.ordinal",
            (doc_id, *kinds),
        ).fetchall()
        return [(stored_block(r), json.loads(r["data"]) if r["data"] else None) for r in rows]

    def blocks_by_rowid(self, rowids: list[int]) -> dict[int, StoredBlock]:
        found: dict[int, StoredBlock] = {}
        for start in range(0, len(rowids), 500):
            chunk = rowids[start : start + 500]
            rows = self.db.execute(
                f"SELECT {_BLOCK_COLUMNS} FROM blocks b "
                f"WHERE b.rowid IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            found.update((r["rowid"], stored_block(r)) for r in rows)
        return found

    def neighbours(self, block: StoredBlock, span: int = 1) -> list[StoredBlock]:
        """Trusted blocks within `span` ordinals of `block` in the same document."""
        rows = self.db.execute(
            f"SELECT {_BLOCK_COLUMNS} FROM blocks b WHERE b.document_id = ? AND b.trusted = 1 "
            "AND b.ordinal BETWEEN ? AND ? AND b.ordinal != ? ORDER BY b.ordinal",
            (block.document_id, block.ordinal - span, block.ordinal + span, block.ordinal),
        ).fetchall()
        return [stored_block(r) for r in rows]

    def keyword_search(
        self, terms: list[str], limit: int, where: BlockFilter | None = None
    ) -> list[tuple[int, float]]:
        """(block rowid, BM25 score; higher is better) for blocks matching any term."""
        if not terms:
            return []
        clause, params = filter_clause(where or BlockFilter())
        rows = self.db.execute(
            "SELECT f.rowid, bm25(blocks_fts, 1.0, 0.3, 0.5) AS rank FROM blocks_fts f "
            f"JOIN blocks b ON b.rowid = f.rowid WHERE blocks_fts MATCH ? AND {clause} "
            "ORDER BY rank LIMIT ?",
            (match_expression(terms), *params, limit),
        ).fetchall()
        return [(r[0], -r[1]) for r in rows]

    def document_frequencies(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        """(number of trusted blocks, blocks containing each term) for IDF weighting."""
        (total,) = self.db.execute("SELECT count(*) FROM blocks WHERE trusted = 1").fetchone()
        freqs = {}
        for term in dict.fromkeys(terms):
            (n,) = self.db.execute(
                "SELECT count(*) FROM blocks_fts WHERE blocks_fts MATCH ?",
                (match_expression([term]),),
            ).fetchone()
            freqs[term] = n
        return total, freqs

    def document_term_counts(
        self, terms: list[str], documents: list[str]
    ) -> dict[str, tuple[int, dict[str, int]]]:
        """Per document: (trusted blocks, blocks containing each term), for in-paper IDF."""
        counts: dict[str, tuple[int, dict[str, int]]] = {}
        for doc_id in documents:
            (total,) = self.db.execute(
                "SELECT count(*) FROM blocks WHERE document_id = ? AND trusted = 1", (doc_id,)
            ).fetchone()
            freqs = {}
            for term in dict.fromkeys(terms):
                (n,) = self.db.execute(
                    "SELECT count(*) FROM blocks_fts f JOIN blocks b ON b.rowid = f.rowid "
                    "WHERE blocks_fts MATCH ? AND b.document_id = ? AND b.trusted = 1",
                    (match_expression([term]), doc_id),
                ).fetchone()
                freqs[term] = n
            counts[doc_id] = (total, freqs)
        return counts

    def candidates(self, where: BlockFilter) -> np.ndarray:
        """Rowids of the trusted blocks `where` allows, ascending."""
        return index_source.filtered_rowids(self.db, where)

    # -- what indexes beside the database read -----------------------------------------

    def block_state(self) -> BlockState:
        return index_source.block_state(self.db)

    def iter_trusted_blocks(
        self, after_rowid: int = 0, chunk: int = 50_000
    ) -> Iterator[list[tuple[int, str, str, str]]]:
        return index_source.iter_trusted_blocks(self.db, after_rowid, chunk)

    def trusted_rowids(self) -> np.ndarray:
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
        (docs,) = self.db.execute("SELECT count(*) FROM documents").fetchone()
        (blocks,) = self.db.execute("SELECT count(*) FROM blocks").fetchone()
        (pages,) = self.db.execute("SELECT coalesce(sum(pages), 0) FROM documents").fetchone()
        return {"documents": docs, "blocks": blocks, "pages": pages}


def resolve_path(path: Path) -> str:
    """The path as stored: absolute, so links work from anywhere."""
    return str(path.expanduser().resolve())
