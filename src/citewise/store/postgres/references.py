"""Bibliography entries and in-text citations on PostgreSQL: the rows and the resolution
rule (DOI, else a close title match) are store/sqlite/references.py's; only the SQL is here."""

from __future__ import annotations

from typing import Any

from citewise.documents.model import Document
from citewise.store.postgres.connection import Database
from citewise.store.sqlite.references import (
    REFERENCE_COLUMNS,
    StoredReference,
    citation_rows,
    incoming_resolutions,
    outgoing_resolutions,
    reference_rows,
    stored_reference,
)

_RESOLVE = 'UPDATE "references" SET resolved_document = %s WHERE id = %s'


def save_references(conn: Any, doc_id: str, doc: Document) -> None:
    """Store a document's entries and citation links, then resolve in both directions
    (inside the caller's save transaction)."""
    with conn.cursor() as cur:
        marks = ",".join(["%s"] * len(REFERENCE_COLUMNS.split(",")))
        cur.executemany(
            f'INSERT INTO "references" ({REFERENCE_COLUMNS}) VALUES ({marks})',
            reference_rows(doc_id, doc),
        )
        cur.executemany(
            "INSERT INTO citations (block_id, reference_id, marker) VALUES (%s,%s,%s) "
            "ON CONFLICT DO NOTHING",
            citation_rows(doc),
        )
    _resolve_own(conn, doc_id)
    _resolve_to(conn, doc_id)


def _resolve_own(conn: Any, doc_id: str) -> None:
    others = conn.execute(
        "SELECT id, title, year, lower(doi) AS doi FROM documents WHERE id != %s", (doc_id,)
    ).fetchall()
    if not others:
        return
    refs = conn.execute(
        'SELECT id, title, year, doi FROM "references" WHERE document_id = %s', (doc_id,)
    ).fetchall()
    for target, ref_id in outgoing_resolutions(refs, others):
        conn.execute(_RESOLVE, (target, ref_id))


def _resolve_to(conn: Any, doc_id: str) -> None:
    row = conn.execute(
        "SELECT title, year, lower(doi) AS doi FROM documents WHERE id = %s", (doc_id,)
    ).fetchone()
    if row is None:
        return
    open_refs = conn.execute(
        'SELECT id, title, year, doi FROM "references" '
        "WHERE resolved_document IS NULL AND document_id != %s",
        (doc_id,),
    ).fetchall()
    for ref_id in incoming_resolutions(row, open_refs):
        conn.execute(_RESOLVE, (doc_id, ref_id))


class PostgresReferences:
    """ReferenceRepository over one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def references(self, doc_id: str) -> list[StoredReference]:
        rows = self.db.rows(
            'SELECT * FROM "references" WHERE document_id = %s ORDER BY ordinal', (doc_id,)
        )
        return [stored_reference(r) for r in rows]

    def citations(self, doc_id: str) -> list[tuple[str, str, str]]:
        rows = self.db.rows(
            "SELECT c.block_id, c.reference_id, c.marker FROM citations c "
            'JOIN "references" r ON r.id = c.reference_id WHERE r.document_id = %s '
            "ORDER BY c.block_id",
            (doc_id,),
        )
        return [(r["block_id"], r["reference_id"], r["marker"]) for r in rows]

    def cited_by(self, doc_id: str) -> list[str]:
        rows = self.db.rows(
            'SELECT DISTINCT document_id FROM "references" WHERE resolved_document = %s '
            "ORDER BY document_id",
            (doc_id,),
        )
        return [r["document_id"] for r in rows]
