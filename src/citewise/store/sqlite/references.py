"""Bibliography entries and in-text citations in the store, resolved to library documents.

An entry resolves to a document in the same library by DOI, else by a close title match
(and a year within one, when both are known). Resolution runs both ways when a document
is saved: its own entries look for library papers, and entries elsewhere that were still
unresolved look at the new paper. Callers run these inside the save transaction.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from citewise.documents.model import Document, block_id

TITLE_MATCH = 92.0  # rapidfuzz ratio on normalised titles (0-100)


@dataclass(frozen=True)
class StoredReference:
    id: str
    document_id: str
    ordinal: int
    block_id: str | None
    raw: str
    authors: list[str]
    title: str | None
    year: int | None
    venue: str | None
    doi: str | None
    arxiv_id: str | None
    resolved_document: str | None


class Row(Protocol):
    """A result row read by column name (sqlite3.Row, a psycopg dict row)."""

    def __getitem__(self, key: str) -> Any: ...


def reference_id(sha256: str, ordinal: int) -> str:
    return f"{sha256[:12]}-r{ordinal:04d}"


# -- what every backend stores and decides (each runs it in its own SQL dialect) ------------

REFERENCE_COLUMNS = (
    "id, document_id, ordinal, block_id, raw, authors, title, year, venue, doi, arxiv_id"
)


def reference_rows(doc_id: str, doc: Document) -> list[tuple[Any, ...]]:
    """The `references` rows of a parsed document (REFERENCE_COLUMNS, in order)."""
    return [
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
    ]


def citation_rows(doc: Document) -> list[tuple[str, str, str]]:
    """(block id, reference id, marker) of the in-text citations to entries the document has."""
    known = {r.ordinal for r in doc.references}
    return [
        (block_id(doc.sha256, c.block), reference_id(doc.sha256, c.reference), c.marker)
        for c in doc.citations
        if c.reference in known
    ]


def outgoing_resolutions(refs: Iterable[Row], others: list[Row]) -> list[tuple[str, str]]:
    """(library document, reference id) for a document's entries that cite other library
    documents (`others`: id, title, year, lower-case doi): DOI first, then title."""
    by_doi = {r["doi"]: r["id"] for r in others if r["doi"]}
    titles = [(o["id"], _norm(o["title"]), o["year"]) for o in others]  # normalised once
    found = []
    for ref in refs:
        target = by_doi.get(ref["doi"]) if ref["doi"] else None
        if target is None:
            title, year = _norm(ref["title"]), ref["year"]
            target = next((i for i, t, y in titles if _close(title, year, t, y)), None)
        if target is not None:
            found.append((target, ref["id"]))
    return found


def incoming_resolutions(saved: Row, open_refs: Iterable[Row]) -> list[str]:
    """Ids of unresolved entries elsewhere that cite the document just `saved`."""
    title, year = _norm(saved["title"]), saved["year"]
    return [
        ref["id"]
        for ref in open_refs
        if (bool(saved["doi"]) and ref["doi"] == saved["doi"])
        or _close(_norm(ref["title"]), ref["year"], title, year)
    ]


def stored_reference(r: Row) -> StoredReference:
    return StoredReference(
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


# -- SQLite -----------------------------------------------------------------------------


def save_references(db: sqlite3.Connection, doc_id: str, doc: Document) -> None:
    """Store a document's entries and citation links, then resolve in both directions."""
    db.executemany(
        f'INSERT INTO "references" ({REFERENCE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
        reference_rows(doc_id, doc),
    )
    db.executemany(
        "INSERT OR IGNORE INTO citations (block_id, reference_id, marker) VALUES (?,?,?)",
        citation_rows(doc),
    )
    resolve_references(db, doc_id)
    resolve_to(db, doc_id)


_NOT_WORD = re.compile(r"[^a-z0-9]+")


def _norm(title: str | None) -> str:
    return _NOT_WORD.sub(" ", (title or "").lower()).strip()


def _close(a: str, year: int | None, b: str, doc_year: int | None) -> bool:
    """Whether normalised titles `a` and `b` (and their years, when both are known) name
    the same work."""
    if len(a) < 12 or len(b) < 12:
        return False
    if year and doc_year and abs(year - doc_year) > 1:
        return False
    if a == b:
        return True
    # rapidfuzz's ratio is 200 * LCS / (len(a) + len(b)), and the longest common
    # subsequence is at most the shorter title and at most the characters the two share:
    # titles the first bound puts below the threshold are not compared; until rapidfuzz is
    # imported, the second bound spares its import (~6 ms) for titles that cannot match
    # (once it is, its ratio is cheaper than counting characters)
    total = len(a) + len(b)
    if 200 * min(len(a), len(b)) < TITLE_MATCH * total:
        return False
    if "rapidfuzz.fuzz" not in sys.modules:
        shared = Counter(a) & Counter(b)
        if 200 * sum(shared.values()) < TITLE_MATCH * total:
            return False
    from rapidfuzz import fuzz  # imported when a document is saved, not when one is read

    return fuzz.ratio(a, b) >= TITLE_MATCH


def resolve_references(db: sqlite3.Connection, doc_id: str) -> None:
    """Point this document's entries at library documents (DOI first, then title)."""
    others = db.execute(
        "SELECT id, title, year, lower(doi) AS doi FROM documents WHERE id != ?", (doc_id,)
    ).fetchall()
    if not others:
        return
    refs = db.execute(
        'SELECT id, title, year, doi FROM "references" WHERE document_id = ?', (doc_id,)
    ).fetchall()
    for target, ref_id in outgoing_resolutions(refs, others):
        db.execute('UPDATE "references" SET resolved_document = ? WHERE id = ?', (target, ref_id))


def resolve_to(db: sqlite3.Connection, doc_id: str) -> None:
    """Entries in other documents that cite the paper just saved now point at it."""
    row = db.execute(
        "SELECT title, year, lower(doi) AS doi FROM documents WHERE id = ?", (doc_id,)
    ).fetchone()
    if row is None:
        return
    # Only entries the DOI or the year (within one, when both are known) may match:
    # _close decides the rest, on far fewer entries than the library's
    open_refs = db.execute(
        'SELECT id, title, year, doi FROM "references" '
        "WHERE resolved_document IS NULL AND document_id != ? AND (doi = ? OR year IS NULL "
        "OR year = 0 OR ? IS NULL OR ? = 0 OR abs(year - ?) <= 1)",
        (doc_id, row["doi"], *[row["year"]] * 3),
    ).fetchall()
    for ref_id in incoming_resolutions(row, open_refs):
        db.execute('UPDATE "references" SET resolved_document = ? WHERE id = ?', (doc_id, ref_id))


def stored_references(db: sqlite3.Connection, doc_id: str) -> list[StoredReference]:
    rows = db.execute(
        'SELECT * FROM "references" WHERE document_id = ? ORDER BY ordinal', (doc_id,)
    ).fetchall()
    return [stored_reference(r) for r in rows]


def stored_citations(db: sqlite3.Connection, doc_id: str) -> list[tuple[str, str, str]]:
    """(block id, reference id, marker) for the document's in-text citations."""
    rows = db.execute(
        "SELECT c.block_id, c.reference_id, c.marker FROM citations c "
        'JOIN "references" r ON r.id = c.reference_id WHERE r.document_id = ? '
        "ORDER BY c.block_id",
        (doc_id,),
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def documents_citing(db: sqlite3.Connection, doc_id: str) -> list[str]:
    """Library documents whose bibliography resolves to this one."""
    rows = db.execute(
        'SELECT DISTINCT document_id FROM "references" WHERE resolved_document = ? '
        "ORDER BY document_id",
        (doc_id,),
    ).fetchall()
    return [r[0] for r in rows]


class ReferenceRepository(Protocol):
    """What reads a library's references and citations (a part of `store.protocols.Store`)."""

    def references(self, doc_id: str) -> list[StoredReference]: ...
    def citations(self, doc_id: str) -> list[tuple[str, str, str]]: ...
    def cited_by(self, doc_id: str) -> list[str]: ...


def references(store: ReferenceRepository, doc_id: str) -> list[StoredReference]:
    return store.references(doc_id)


def citations(store: ReferenceRepository, doc_id: str) -> list[tuple[str, str, str]]:
    """(block id, reference id, marker) for the document's in-text citations."""
    return store.citations(doc_id)


def cited_by(store: ReferenceRepository, doc_id: str) -> list[str]:
    """Library documents whose bibliography resolves to this one."""
    return store.cited_by(doc_id)
