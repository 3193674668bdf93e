"""Abstract-level documents: search records kept in the library with their abstracts.

`citewise search ... --save` writes each record that has an abstract as a small Markdown file
under `<library>/abstracts/` and ingests it as a document of kind "abstract", so `ask` can
find and cite it, always labelled as an abstract, never as the paper. When the full text
arrives later (`fetch`, or any ingest of a file with the same DOI or arXiv ID), it takes the
abstract document's place: same document ID, rows swapped in one transaction (the abstract
stays until the full text is stored, so a failed ingest loses nothing)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from citewise.documents.manifests.manifest import PaperMetadata
from citewise.documents.model import Document
from citewise.store.sqlite.library import StoredDocument

if TYPE_CHECKING:  # records are made by the search commands, not imported for an ingest
    from citewise.sources.record import SearchRecord

ABSTRACT_KIND = "abstract"
ABSTRACTS_DIR = "abstracts"


def identifiers(doi: str | None, arxiv_id: str | None) -> set[str]:
    """The comparable identifiers of a work: "doi:..." (lower case) and "arxiv:..." (no
    version suffix)."""
    out = set()
    if doi:
        out.add("doi:" + doi.strip().lower())
    if arxiv_id:
        out.add("arxiv:" + re.sub(r"v\d+$", "", arxiv_id.strip().lower()))
    return out


def record_identifiers(record: SearchRecord) -> set[str]:
    arxiv = record.ids.get("arxiv")
    found = identifiers(record.doi, arxiv)
    if record.doi and record.doi.lower().startswith("10.48550/arxiv."):
        found |= identifiers(None, record.doi.split(".", 2)[-1])
    return found


def abstract_index(documents: Iterable[StoredDocument]) -> dict[str, str]:
    """Identifier -> ID of the abstract-level document kept for that work."""
    index: dict[str, str] = {}
    for doc in documents:
        if doc.kind == ABSTRACT_KIND:
            for identifier in identifiers(doc.doi, doc.arxiv_id):
                index.setdefault(identifier, doc.id)
    return index


def full_text_identifiers(documents: Iterable[StoredDocument]) -> set[str]:
    """Identifiers of works whose full text is already in the library."""
    found: set[str] = set()
    for doc in documents:
        if doc.kind != ABSTRACT_KIND:
            found |= identifiers(doc.doi, doc.arxiv_id)
    return found


def upgraded_abstract(doc: Document, index: dict[str, str]) -> str | None:
    """The abstract document that full-text `doc` replaces, if any."""
    if doc.kind == ABSTRACT_KIND:
        return None
    for identifier in sorted(identifiers(doc.doi, doc.arxiv_id)):
        if identifier in index:
            return index[identifier]
    return None


def abstract_path(directory: Path, record: SearchRecord) -> Path:
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", record.key).strip("_")[:120] or "record"
    return directory / ABSTRACTS_DIR / f"{name}.md"


def write_abstract(directory: Path, record: SearchRecord) -> Path:
    """The record's title and abstract as a Markdown file in the library folder."""
    path = abstract_path(directory, record)
    path.parent.mkdir(parents=True, exist_ok=True)
    title = " ".join((record.title or "(untitled)").split())
    abstract = "\n\n".join(p.strip() for p in record.abstract.split("\n\n") if p.strip())
    text = f"# {title}\n\n## Abstract\n\n{abstract}\n"
    if not path.exists() or path.read_text("utf-8") != text:
        path.write_text(text, "utf-8")
    return path


def record_metadata(record: SearchRecord) -> PaperMetadata:
    """What the abstract document keeps of the record (CSL-JSON and links in `extra`)."""
    arxiv = record.ids.get("arxiv")
    return PaperMetadata(
        title=record.title or None,
        authors=list(record.authors),
        year=record.year,
        doi=record.doi,
        venue=record.venue,
        abstract=record.abstract,
        kind=ABSTRACT_KIND,
        arxiv_id=arxiv,
        extra={
            "record": record.key,
            "sources": list(record.sources),
            "url": record.url or (f"https://doi.org/{record.doi}" if record.doi else None),
            "csl": record.csl,
        },
    )
