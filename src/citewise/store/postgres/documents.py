"""Documents on PostgreSQL: save (blocks, full text, references in one transaction),
metadata updates, deletes, lookups."""

from __future__ import annotations

import json
from typing import Any

from citewise.documents.model import Document
from citewise.store.postgres.connection import Database
from citewise.store.postgres.references import save_references
from citewise.store.postgres.text import CONFIG, index_text
from citewise.store.rows import block_values, document_values
from citewise.store.sqlite.library import StoredDocument, document_slug, stored_document

# A logged answer (answer_reviews) keeps its citations of other documents' blocks only.
_FORGET_CITED = (
    "UPDATE answer_reviews SET citations = (SELECT coalesce(json_agg(j.value), '[]')::text "
    "FROM json_array_elements_text(answer_reviews.citations::json) j(value) WHERE j.value "
    "NOT IN (SELECT id FROM blocks WHERE document_id = %s)) "
    "WHERE EXISTS (SELECT 1 FROM json_array_elements_text(answer_reviews.citations::json) "
    "j(value) JOIN blocks b ON b.id = j.value WHERE b.document_id = %s)"
)
_METADATA = ("title", "authors", "year", "doi", "arxiv_id", "pmid", "venue", "abstract", "csl")


def _block_rows(doc: Document, doc_id: str) -> list[tuple[Any, ...]]:
    """`rows.block_values` and the three texts the server builds the tsvector from."""
    return [
        (*row, index_text(b.text), index_text(b.section_path), index_text(b.label or ""))
        for row, b in zip(block_values(doc_id, doc), doc.blocks, strict=True)
    ]


# A document's blocks in one INSERT: each column an array (sent binary: psycopg's text form
# escapes every element, 15x the client CPU), unnested in ordinal order (the rowids follow
# it), the tsvector built by the server from the three indexed texts.
_COLUMNS = (
    ("id", "text"),
    ("document_id", "text"),
    ("ordinal", "int"),
    ("kind", "text"),
    ("page", "int"),
    ("x0", "float8"),
    ("y0", "float8"),
    ("x1", "float8"),
    ("y1", "float8"),
    ("section_path", "text"),
    ("label", "text"),
    ("text", "text"),
    ("font_size", "float8"),
    ("font_name", "text"),
    ("bold", "int"),
    ("trusted", "int"),
    ("data", "text"),
)
_INDEXED = ("tsv_text", "tsv_section", "tsv_label")
_INSERT_BLOCKS = (
    f"INSERT INTO blocks ({', '.join(c for c, _ in _COLUMNS)}, tsv) "
    f"SELECT {', '.join(c for c, _ in _COLUMNS)}, "
    f"setweight(to_tsvector('{CONFIG}', tsv_text), 'A') || "
    f"setweight(to_tsvector('{CONFIG}', tsv_section), 'C') || "
    f"setweight(to_tsvector('{CONFIG}', tsv_label), 'B') "
    f"FROM unnest({', '.join(f'%b::{t}[]' for _, t in _COLUMNS)}, "
    f"{', '.join('%b::text[]' for _ in _INDEXED)}) "
    f"WITH ORDINALITY AS u({', '.join(c for c, _ in _COLUMNS)}, {', '.join(_INDEXED)}, i) "
    "ORDER BY i"
)


def _arrays(rows: list[tuple[Any, ...]]) -> list[list[Any]]:
    """The rows as one list per column, each value of the column's type (an array has one
    element type: a coordinate given as an int goes as a float)."""
    types = [t for _, t in _COLUMNS] + ["text"] * len(_INDEXED)
    cast = {"float8": float, "int": int, "text": str}
    return [
        [None if v is None else cast[t](v) for v in column]
        for t, column in zip(types, zip(*rows, strict=True), strict=True)
    ]


class PostgresDocuments:
    """DocumentRepository over one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def _documents(self, where: str = "", params: tuple[Any, ...] = ()) -> list[StoredDocument]:
        rows = self.db.rows(
            "SELECT d.*, (SELECT count(*) FROM blocks WHERE document_id = d.id) AS block_count "
            f'FROM documents d {where} ORDER BY d.id COLLATE "C"',
            params,
        )
        return [stored_document(r) for r in rows]

    def documents(self) -> list[StoredDocument]:
        return self._documents()

    def document(self, doc_id: str) -> StoredDocument | None:
        found = self._documents("WHERE d.id = %s", (doc_id,))
        return found[0] if found else None

    def document_by_sha(self, sha256: str) -> StoredDocument | None:
        found = self._documents("WHERE d.sha256 = %s", (sha256,))
        return found[0] if found else None

    def document_by_path(self, path: str) -> StoredDocument | None:
        found = self._documents("WHERE d.path = %s", (path,))
        return found[0] if found else None

    @staticmethod
    def _free_id(conn: Any, wanted: str) -> str:
        candidate, n = wanted, 1
        while conn.execute("SELECT 1 FROM documents WHERE id = %s", (candidate,)).fetchone():
            n += 1
            candidate = f"{wanted}-{n}"
        return candidate

    def save_document(
        self, doc: Document, replaces: str | None = None, wanted_id: str | None = None
    ) -> str:
        """Store a parsed document, its blocks and references in one transaction."""
        with self.db.transaction() as conn:
            if replaces:
                conn.execute("DELETE FROM documents WHERE id = %s", (replaces,))
                doc_id = replaces
            else:
                # Two machines saving papers of one author and year at once take turns here.
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('citewise-document-ids'))")
                doc_id = self._free_id(conn, wanted_id or document_slug(doc))
            conn.execute(
                "INSERT INTO documents (id, sha256, path, kind, title, authors, year, doi, "
                "abstract, pages, flagged_pages, venue, arxiv_id, csl) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                document_values(doc_id, doc),
            )
            rows = _block_rows(doc, doc_id)
            if rows:  # one statement: the change counter's trigger runs once per document
                conn.execute(_INSERT_BLOCKS, _arrays(rows))
            save_references(conn, doc_id, doc)
        return doc_id

    def update_metadata(self, doc_id: str, fields: dict[str, object]) -> None:
        sets = {k: v for k, v in fields.items() if k in _METADATA}
        if not sets:
            return
        values = [
            json.dumps(v, ensure_ascii=False) if k in ("authors", "csl") else v
            for k, v in sets.items()
        ]
        with self.db.transaction() as conn:
            conn.execute(
                f"UPDATE documents SET {', '.join(f'{k} = %s' for k in sets)} WHERE id = %s",
                (*values, doc_id),
            )

    def delete_document(self, doc_id: str) -> None:
        with self.db.transaction() as conn:  # blocks, vectors, references, cells cascade
            conn.execute(_FORGET_CITED, (doc_id, doc_id))
            conn.execute("DELETE FROM documents WHERE id = %s", (doc_id,))

    def stats(self) -> dict[str, int]:
        row = self.db.one(
            "SELECT (SELECT count(*) FROM documents) AS documents, "
            "(SELECT count(*) FROM blocks) AS blocks, "
            "(SELECT coalesce(sum(pages), 0) FROM documents) AS pages"
        )
        assert row is not None
        return {k: int(v) for k, v in row.items()}
