"""Bibliography entries and in-text citations on PostgreSQL, resolved to library documents
by the same rule as SQLite (DOI, else a close title match; store/references.py)."""

from __future__ import annotations

import json
from typing import Any

from citewise.documents.model import Document, block_id
from citewise.store.postgres.connection import Database
from citewise.store.references import StoredReference, _matches, reference_id


def save_references(conn: Any, doc_id: str, doc: Document) -> None:
    """Store a document's entries and citation links, then resolve in both directions
    (inside the caller's save transaction)."""
    with conn.cursor() as cur:
        cur.executemany(
            'INSERT INTO "references" (id, document_id, ordinal, block_id, raw, authors, title, '
            "year, venue, doi, arxiv_id) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            [
                (
                    reference_id(doc.sha256, ref.ordinal),
                    doc_id,
                    ref.ordinal,
                    block_id(doc.sha256, ref.block) if ref.block is not None else None,
                    ref.raw,
                    json.dumps(ref.authors, ensure_ascii=False),
                    ref.title,
                    ref.year,
                    ref.venue,
                    ref.doi.lower() if ref.doi else None,
                    ref.arxiv_id,
                )
                for ref in doc.references
            ],
        )
        known = {r.ordinal for r in doc.references}
        cur.executemany(
            "INSERT INTO citations (block_id, reference_id, marker) VALUES (%s,%s,%s) "
            "ON CONFLICT DO NOTHING",
            [
                (block_id(doc.sha256, c.block), reference_id(doc.sha256, c.reference), c.marker)
                for c in doc.citations
                if c.reference in known
            ],
        )
    _resolve_own(conn, doc_id)
    _resolve_to(conn, doc_id)


def _resolve_own(conn: Any, doc_id: str) -> None:
    others = conn.execute(
        "SELECT id, title, year, lower(doi) AS doi FROM documents WHERE id != %s", (doc_id,)
    ).fetchall()
    if not others:
        return
    by_doi = {r["doi"]: r["id"] for r in others if r["doi"]}
    refs = conn.execute(
        'SELECT id, title, year, doi FROM "references" WHERE document_id = %s', (doc_id,)
    ).fetchall()
    for ref in refs:
        target = by_doi.get(ref["doi"]) if ref["doi"] else None
        if target is None:
            target = next(
                (
                    o["id"]
                    for o in others
                    if _matches(ref["title"], ref["year"], o["title"], o["year"])
                ),
                None,
            )
        if target is not None:
            conn.execute(
                'UPDATE "references" SET resolved_document = %s WHERE id = %s', (target, ref["id"])
            )


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
    for ref in open_refs:
        same_doi = bool(row["doi"]) and ref["doi"] == row["doi"]
        if same_doi or _matches(ref["title"], ref["year"], row["title"], row["year"]):
            conn.execute(
                'UPDATE "references" SET resolved_document = %s WHERE id = %s', (doc_id, ref["id"])
            )


class PostgresReferences:
    """ReferenceRepository over one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def references(self, doc_id: str) -> list[StoredReference]:
        rows = self.db.rows(
            'SELECT * FROM "references" WHERE document_id = %s ORDER BY ordinal', (doc_id,)
        )
        return [
            StoredReference(
                id=r["id"],
                document_id=r["document_id"],
                ordinal=r["ordinal"],
                block_id=r["block_id"],
                raw=r["raw"],
                authors=json.loads(r["authors"]),
                title=r["title"],
                year=r["year"],
                venue=r["venue"],
                doi=r["doi"],
                arxiv_id=r["arxiv_id"],
                resolved_document=r["resolved_document"],
            )
            for r in rows
        ]

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
