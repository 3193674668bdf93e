"""Metadata that comes with a file rather than from it: a library.yaml manifest or Zotero.

`library.yaml` (seed format):

    papers:
      - id: cohan2020specter
        title: "SPECTER: Document-level Representation Learning ..."
        authors: [Arman Cohan, Sergey Feldman]
        year: 2020
        doi: 10.18653/v1/2020.acl-main.207
        file_path: papers/specter.pdf      # relative to the manifest's folder
        notes: "Baseline for the citation-prediction chapter."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from citewise.documents.model import Document
from citewise.errors import BadDocumentError


@dataclass
class PaperMetadata:
    """Fields that override what the reader found; None / empty leaves the reader's value."""

    id: str | None = None
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    doi: str | None = None
    venue: str | None = None
    abstract: str | None = None
    kind: str | None = None  # "abstract" for a search record kept as its abstract
    arxiv_id: str | None = None
    # collections, tags, notes, source keys: kept with the document (documents.csl)
    extra: dict[str, object] = field(default_factory=dict)

    def apply(self, doc: Document) -> None:
        doc.title = self.title or doc.title
        doc.authors = self.authors or doc.authors
        doc.year = self.year or doc.year
        doc.doi = self.doi or doc.doi
        doc.venue = self.venue or doc.venue
        doc.abstract = self.abstract or doc.abstract
        doc.kind = self.kind or doc.kind
        doc.arxiv_id = self.arxiv_id or doc.arxiv_id
        doc.extra = {**doc.extra, **{k: v for k, v in self.extra.items() if v}}

    def stored_fields(self) -> dict[str, object]:
        """The document columns this metadata sets on a stored document (the ones given)."""
        fields: dict[str, object] = {
            "title": self.title,
            "authors": self.authors or None,
            "year": self.year,
            "doi": self.doi,
            "venue": self.venue,
            "abstract": self.abstract,
        }
        return {k: v for k, v in fields.items() if v}


@dataclass
class ManifestEntry:
    path: Path | None  # None when the entry names no file
    metadata: PaperMetadata
    problem: str | None = None  # why the entry cannot be ingested


def read_manifest(path: Path) -> list[ManifestEntry]:
    """Entries of a library.yaml; BadDocumentError when the file itself is unusable.

    A bad entry (no file_path, missing file, a year that is not a number) comes back
    with `problem` set, so the rest of the manifest still goes in.
    """
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadDocumentError(f"cannot read manifest: {exc.strerror}", "check the path") from exc
    except yaml.YAMLError as exc:
        raise BadDocumentError(f"invalid YAML in manifest: {exc}", "fix the syntax") from exc
    papers = data.get("papers") if isinstance(data, dict) else None
    if not isinstance(papers, list):
        raise BadDocumentError(
            "manifest has no 'papers' list", "see 'citewise ingest --help' for the format"
        )
    return [_entry(p, path.parent, n) for n, p in enumerate(papers, start=1)]


def _entry(paper: object, base: Path, number: int) -> ManifestEntry:
    if not isinstance(paper, dict):
        return ManifestEntry(None, PaperMetadata(), f"papers[{number}] is not a mapping")
    meta = PaperMetadata(
        id=str(paper["id"]) if paper.get("id") else None,
        title=str(paper["title"]) if paper.get("title") else None,
        authors=_authors(paper.get("authors")),
        doi=str(paper["doi"]) if paper.get("doi") else None,
        extra={"notes": paper.get("notes")} if paper.get("notes") else {},
    )
    label = f"papers[{number}]" + (f" ({meta.id})" if meta.id else "")
    year = paper.get("year")
    if year not in (None, ""):
        try:
            meta.year = int(str(year))
        except ValueError:
            return ManifestEntry(None, meta, f"{label}: year {year!r} is not a number")
    file_path = paper.get("file_path")
    if not file_path:
        return ManifestEntry(None, meta, f"{label}: no file_path")
    target = Path(str(file_path)).expanduser()
    target = target if target.is_absolute() else base / target
    if not target.is_file():
        return ManifestEntry(target, meta, f"{label}: file not found: {target}")
    return ManifestEntry(target, meta)


def _authors(value: object) -> list[str]:
    if isinstance(value, str):
        return [a.strip() for a in value.replace(" and ", ";").split(";") if a.strip()]
    if isinstance(value, list):
        return [str(a).strip() for a in value if str(a).strip()]
    return []
