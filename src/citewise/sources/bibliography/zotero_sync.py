"""`citewise sync zotero`: keep a library in step with a Zotero data directory.

Zotero is the library of record. Each synced document remembers the Zotero attachment it
came from, the file's size and modification time, and a fingerprint of the item's metadata
(csl `zotero_sync`), so a rerun reads Zotero's database once and otherwise only stats files:

- a new attachment is ingested (its Better BibTeX key as the document ID when there is one);
- a changed item (title, authors, tags, collections, notes, key) updates the document's
  metadata in place, keeping what the PDF itself printed (volume, pages, ...);
- a changed file is re-parsed under the same document ID; a moved file likewise;
- an item deleted in Zotero (or moved to its trash), or whose attachment is gone, is
  removed from the library — whatever `--collection` says, since only Zotero's own deletion
  removes a document;
- an attachment whose file is missing (not downloaded yet) is reported; its document stays.

Zotero's files are only read: its database through a copy, its storage folder as it is.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from citewise.documents.manifests.manifest import PaperMetadata
from citewise.documents.manifests.zotero import ZoteroAttachment, ZoteroError, read_zotero
from citewise.embed.base import Embedder
from citewise.errors import Kind
from citewise.ingest import IngestFailure, Progress, Sources, ingest
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredDocument

STATE = "zotero_sync"


class ZoteroCollectionError(ZoteroError):
    code = "ZOTERO_COLLECTION"
    kind: Kind = "not_found"


@dataclass
class SyncReport:
    """What one sync changed; `unchanged` counts attachments it did not touch."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # metadata only
    replaced: list[str] = field(default_factory=list)  # the file changed: parsed again
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: list[IngestFailure] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    embedded_blocks: int = 0
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.replaced or self.removed)

    def to_dict(self) -> dict[str, object]:
        return {
            "added": self.added,
            "updated": self.updated,
            "replaced": self.replaced,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "failed": [vars(f) for f in self.failed],
            "warnings": [{"path": p, "warning": w} for p, w in self.warnings],
            "embedded_blocks": self.embedded_blocks,
            "seconds": round(self.seconds, 3),
        }


def in_collection(attachment: ZoteroAttachment, name: str) -> bool:
    """Whether the attachment's item sits in collection `name` (a name or a path such as
    'Thesis / Chapter 2') or in one of its subcollections."""
    paths = attachment.metadata.extra.get("collections") or []
    wanted = [part.strip() for part in name.split("/") if part.strip()]
    for path in paths if isinstance(paths, list) else []:
        parts = [part.strip() for part in str(path).split(" / ")]
        for start in range(len(parts)):
            if parts[start : start + len(wanted)] == wanted:
                return True
    return False


def sync_zotero(
    store: Store,
    directory: Path,
    embedder: Embedder | None = None,
    collection: str | None = None,
    progress: Progress | None = None,
) -> SyncReport:
    """Bring the library up to date with the Zotero data directory (see the module doc)."""
    started = time.perf_counter()
    directory = Path(directory).expanduser().resolve()
    found = read_zotero(directory)  # ZoteroError: not a Zotero folder, locked, unknown schema
    live = {a.key for a in found}
    scope = [a for a in found if collection is None or in_collection(a, collection)]
    if collection is not None and not scope:
        raise ZoteroCollectionError(
            f"no item with an attachment in a Zotero collection named '{collection}'",
            f"collections there: {', '.join(_collection_names(found)) or 'none'}",
        )
    synced = _synced_documents(store, directory)
    # a file added before (`ingest --zotero`, a folder ingest) is adopted, not parsed again
    by_path = {d.path: d for d in store.documents()}
    report = SyncReport()
    for key, gone in sorted(synced.items()):
        if key not in live:
            store.delete_document(gone.id)
            report.removed.append(gone.id)
    to_ingest: dict[Path, PaperMetadata] = {}
    for attachment in scope:
        if attachment.problem:
            report.failed.append(
                IngestFailure(str(attachment.path), "ZOTERO_ATTACHMENT", attachment.problem)
            )
            continue
        meta = _with_state(attachment, directory)
        doc = synced.get(attachment.key) or by_path.get(str(attachment.path.resolve()))
        outcome = _compare(doc, attachment, meta)
        if outcome == "unchanged":
            report.unchanged += 1
        elif outcome == "metadata" and doc is not None:
            _update_metadata(store, doc, meta)
            report.updated.append(doc.id)
        else:
            if doc is not None and doc.path != str(attachment.path.resolve()):
                store.delete_document(doc.id)  # moved: parsed again at its new path
                meta = replace(meta, id=doc.id)
            to_ingest[attachment.path] = meta
    if to_ingest:
        _ingest(store, to_ingest, embedder, progress, report)
    report.seconds = time.perf_counter() - started
    return report


def _ingest(
    store: Store,
    metadata: dict[Path, PaperMetadata],
    embedder: Embedder | None,
    progress: Progress | None,
    report: SyncReport,
) -> None:
    done = ingest(store, [], embedder, progress, Sources(metadata=metadata))
    report.added += done.added
    report.replaced += done.replaced
    report.updated += done.unchanged  # same bytes as before: only its metadata was new
    for failure in done.failed:
        if failure.code == "DUPLICATE_DOCUMENT":  # the same PDF was added from elsewhere
            report.warnings.append((failure.path, f"not added: {failure.reason}"))
        else:
            report.failed.append(failure)
    report.warnings += done.warnings
    report.embedded_blocks = done.embedded_blocks


def _synced_documents(store: Store, directory: Path) -> dict[str, StoredDocument]:
    """Documents an earlier sync of this Zotero directory made, by attachment key."""
    out = {}
    for doc in store.documents():
        state = (doc.csl or {}).get(STATE)
        if isinstance(state, dict) and state.get("directory") == str(directory):
            out[str(state.get("attachment"))] = doc
    return out


def _fingerprint(meta: PaperMetadata) -> str:
    fields = {
        "id": meta.id,
        "title": meta.title,
        "authors": meta.authors,
        "year": meta.year,
        "doi": meta.doi,
        "venue": meta.venue,
        "abstract": meta.abstract,
        "extra": {k: v for k, v in meta.extra.items() if k != STATE},
    }
    text = json.dumps(fields, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _stamp(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


def _with_state(attachment: ZoteroAttachment, directory: Path) -> PaperMetadata:
    meta = attachment.metadata
    state = {
        "directory": str(directory),
        "attachment": attachment.key,
        "file": _stamp(attachment.path),
        "fingerprint": _fingerprint(meta),
    }
    return replace(meta, extra={**meta.extra, STATE: state})


def _compare(doc: StoredDocument | None, attachment: ZoteroAttachment, meta: PaperMetadata) -> str:
    """'unchanged', 'metadata' (same file, new item data) or 'file' (parse it)."""
    if doc is None or doc.path != str(attachment.path.resolve()):
        return "file"
    old = (doc.csl or {}).get(STATE) or {}
    new = meta.extra[STATE]
    assert isinstance(old, dict) and isinstance(new, dict)
    if old.get("file") != new["file"]:
        # touched, or really changed: only a new content hash means parsing again
        digest = hashlib.sha256(attachment.path.read_bytes()).hexdigest()
        if digest != doc.sha256:
            return "file"
        return "metadata"
    return "unchanged" if old.get("fingerprint") == new["fingerprint"] else "metadata"


def _update_metadata(store: Store, doc: StoredDocument, meta: PaperMetadata) -> None:
    """The item's new metadata over the stored document's, keeping what the PDF printed
    (volume, pages, ...) and dropping Zotero fields the item no longer has."""
    kept = {k: v for k, v in (doc.csl or {}).items() if k not in ZOTERO_FIELDS}
    csl = {**kept, **{k: v for k, v in meta.extra.items() if v}}
    store.update_metadata(doc.id, {**meta.stored_fields(), "csl": csl})


# csl keys a Zotero item sets (documents/manifests/zotero.py): replaced whole on an update
ZOTERO_FIELDS = {
    "item_type",
    "collections",
    "tags",
    "notes",
    "zotero_key",
    "zotero_attachment",
    "zotero_uri",
    "citation_key",
    STATE,
}


def _collection_names(found: list[ZoteroAttachment]) -> list[str]:
    names: set[str] = set()
    for attachment in found:
        paths = attachment.metadata.extra.get("collections")
        if isinstance(paths, list):
            names.update(str(p) for p in paths)
    return sorted(names)
