"""Ingesting files into a library: dedupe by content, parse, store atomically, embed.

One bad file never stops the batch: it is reported with its reason and the rest go in.
A rerun finishes what a killed run left undone (documents are stored whole or not at all;
blocks without vectors are embedded on the next run).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from citewise.documents import READERS, read_document
from citewise.embed.base import Embedder
from citewise.errors import BadDocumentError, CitewiseError, DuplicateDocumentError
from citewise.store.library import LibraryStore
from citewise.store.vectors import blocks_without_vectors, register_model, save_vectors

SUFFIXES = tuple(READERS)
EMBED_BATCH = 64


@dataclass
class IngestFailure:
    path: str
    code: str
    reason: str


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[IngestFailure] = field(default_factory=list)
    # (path, message): parsed and stored, but the user should know (e.g. OCR unavailable)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    pages: int = 0
    blocks: int = 0
    embedded_blocks: int = 0
    embedding_model: str | None = None
    seconds: float = 0.0
    embed_seconds: float = 0.0

    @property
    def documents(self) -> int:
        return len(self.added) + len(self.replaced)


Progress = Callable[[str, int, int], None]


def expand_paths(paths: list[Path]) -> Iterator[Path | IngestFailure]:
    """Files to ingest (folders searched recursively), or a failure for a path that is not."""
    for path in paths:
        if path.is_dir():
            try:
                found = sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES)
            except OSError as exc:
                yield IngestFailure(str(path), "UNREADABLE_PATH", f"cannot list folder: {exc}")
                continue
            yield from (p for p in found if p.is_file())
        elif path.is_file():
            yield path
        elif not path.exists():
            yield IngestFailure(str(path), "UNREADABLE_PATH", "no such file or folder")
        else:
            yield IngestFailure(str(path), "UNREADABLE_PATH", "not a regular file")


def ingest_file(store: LibraryStore, path: Path, report: IngestReport) -> None:
    """Add, replace or skip one file; raise CitewiseError if it cannot be ingested."""
    absolute = path.expanduser().resolve()
    try:
        content = absolute.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror or exc}") from exc
    sha256 = hashlib.sha256(content).hexdigest()
    existing = store.document_by_sha(sha256)
    if existing is not None:
        if existing.path == str(absolute):
            report.unchanged.append(existing.id)
            return
        raise DuplicateDocumentError(
            f"same content as '{existing.id}' ({existing.path})",
            hint="the file is already in the library; nothing to do",
        )
    if absolute.suffix.lower() not in SUFFIXES:
        raise BadDocumentError(f"unsupported file type '{absolute.suffix}'")
    doc = read_document(absolute)
    doc.path = absolute
    previous = store.document_by_path(str(absolute))
    doc_id = store.save_document(doc, replaces=previous.id if previous else None)
    (report.replaced if previous else report.added).append(doc_id)
    report.warnings.extend((str(absolute), w) for w in doc.warnings)
    report.pages += doc.pages
    report.blocks += len(doc.blocks)


def embed_missing(store: LibraryStore, embedder: Embedder, progress: Progress | None = None) -> int:
    """Embed every trusted block that has no vector for this model yet; return how many."""
    register_model(store.db, embedder.name, embedder.dimensions)
    todo = blocks_without_vectors(store.db, embedder.name)
    for start in range(0, len(todo), EMBED_BATCH):
        batch = todo[start : start + EMBED_BATCH]
        vectors = embedder.encode([text for _, text in batch], batch_size=EMBED_BATCH)
        save_vectors(store.db, embedder.name, [rowid for rowid, _ in batch], vectors)
        if progress:
            progress("embedding", min(start + EMBED_BATCH, len(todo)), len(todo))
    return len(todo)


def ingest(
    store: LibraryStore,
    paths: list[Path],
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> IngestReport:
    """Ingest files and folders; failures are collected in the report, never raised."""
    report = IngestReport()
    started = time.perf_counter()
    items = list(expand_paths(paths))
    for done, item in enumerate(items, start=1):
        if isinstance(item, IngestFailure):
            report.failed.append(item)
            continue
        if progress:
            progress(item.name, done, len(items))
        try:
            ingest_file(store, item, report)
        except CitewiseError as exc:
            report.failed.append(IngestFailure(str(item), exc.code, exc.message))
        except Exception as exc:  # a parser bug must not lose the rest of the batch
            report.failed.append(IngestFailure(str(item), "INTERNAL_ERROR", repr(exc)))
    parsed = time.perf_counter()
    if embedder is not None:
        report.embedding_model = embedder.name
        report.embedded_blocks = embed_missing(store, embedder, progress)
    report.embed_seconds = time.perf_counter() - parsed
    report.seconds = time.perf_counter() - started
    return report
