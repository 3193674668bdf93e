"""Documents and blocks as every store returns them: dataclasses, never driver rows, built
from a row by one mapper each, so the SQLite and PostgreSQL stores agree field by field."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from citewise.documents.model import BBox, Document, block_id


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


BLOCK_COLUMNS = (
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


def document_values(doc_id: str, doc: Document) -> tuple[object, ...]:
    """The `documents` row of `doc` under `doc_id`, in the column order both stores' INSERT
    names (id, sha256, path, kind, title, authors, year, doi, abstract, pages,
    flagged_pages, venue, arxiv_id, csl): the inverse of `stored_document`."""
    return (
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
    )


def block_values(doc_id: str, doc: Document) -> list[tuple[object, ...]]:
    """The `blocks` rows of `doc` under `doc_id`, in block order, in the column order both
    stores' INSERT names (id, document_id, ordinal, kind, page, x0, y0, x1, y1, section_path,
    label, text, font_size, font_name, bold, trusted, data): the inverse of `stored_block`.
    SQLite puts the rowid in front, PostgreSQL its index texts behind."""
    return [
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
        )
        for b in doc.blocks
    ]
