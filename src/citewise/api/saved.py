"""Search records kept in the library as abstract-level documents (`search --save`), and
the full text that later takes their place (citewise/abstracts.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from citewise.abstracts import (
    abstract_index,
    full_text_identifiers,
    identifiers,
    record_identifiers,
    record_metadata,
    write_abstract,
)
from citewise.api.library import Library
from citewise.documents.manifests.manifest import PaperMetadata
from citewise.ingest import Sources
from citewise.report.words import plural
from citewise.sources import SearchRecord
from citewise.sources.downloads.fetch import Located


@dataclass
class SavedRecords:
    """What `search --save` kept: abstract documents added or already there, and the
    records left out with the reason."""

    added: list[str] = field(default_factory=list)  # document IDs
    unchanged: list[str] = field(default_factory=list)
    full_text: list[str] = field(default_factory=list)  # record keys: full text is in already
    no_abstract: list[str] = field(default_factory=list)  # record keys: nothing to keep
    failures: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)

    def to_dict(self) -> dict[str, object]:
        return {
            "added": self.added,
            "unchanged": self.unchanged,
            "skipped_full_text": self.full_text,
            "skipped_no_abstract": self.no_abstract,
            "failures": [{"path": p, "reason": r} for p, r in self.failures],
        }

    def summary(self) -> str:
        parts = [f"saved {plural(len(self.added), 'abstract')}"]
        if self.unchanged:
            parts.append(f"{len(self.unchanged)} already saved")
        if self.full_text:
            parts.append(f"{len(self.full_text)} already in the library as full text")
        if self.no_abstract:
            parts.append(f"{len(self.no_abstract)} without an abstract")
        return ", ".join(parts)


def save_records(
    directory: Path, records: list[SearchRecord], open_library: Callable[[], Library]
) -> SavedRecords:
    """Keep each record that has an abstract as an abstract-level document of the library
    at `directory` (searchable and citable as "abstract of ..."); reruns change nothing."""
    saved = SavedRecords()
    with open_library() as lib:
        full = full_text_identifiers(lib.store.documents())
        metadata: dict[Path, PaperMetadata] = {}
        for record in records:
            if not record.abstract.strip():
                saved.no_abstract.append(record.key)
            elif record_identifiers(record) & full:
                saved.full_text.append(record.key)
            else:
                metadata[write_abstract(directory, record)] = record_metadata(record)
        if metadata:
            report = lib.ingest([], sources=Sources(metadata=metadata))
            saved.added = report.added + report.replaced
            saved.unchanged = report.unchanged
            saved.failures = [(f.path, f.reason) for f in report.failed]
    return saved


def abstract_to_upgrade(lib: Library, located: Located) -> str | None:
    """The abstract document a fetched PDF replaces: same DOI or arXiv ID."""
    index = abstract_index(lib.store.documents())
    wanted = set(record_identifiers(located.record)) if located.record else set()
    kind, value = located.identifier.kind, located.identifier.value
    wanted |= identifiers(value if kind == "doi" else None, value if kind == "arxiv" else None)
    return next((index[i] for i in sorted(wanted) if i in index), None)
