"""Ingesting files into a library: dedupe by content, parse, store atomically, embed.

One bad file never stops the batch: it is reported with its reason and the rest go in.
A rerun finishes what a killed run left undone (documents are stored whole or not at all;
blocks without vectors are embedded on the next run).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from citewise.abstracts import ABSTRACT_KIND, ABSTRACTS_DIR, abstract_index, upgraded_abstract
from citewise.documents import read_document
from citewise.documents.bounds import bound_blocks
from citewise.documents.model import Document
from citewise.documents.options import FILE_MB_VARIABLE
from citewise.documents.pool.parallel import Parse, ParseBudget, ParseOptions
from citewise.errors import (
    BadDocumentError,
    CitewiseError,
    DuplicateDocumentError,
)
from citewise.ingest_files import Step, check_file_size, parse_and_store, spaced_collections
from citewise.inputs import SUFFIXES, FileFilter, IngestFailure, Sources, expand_paths
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredDocument
from citewise.vectors_missing import EMBED_BATCH, Progress, embed_missing

if TYPE_CHECKING:  # GROBID's client is imported only when a server is configured
    from citewise.documents.manifests.manifest import PaperMetadata
    from citewise.documents.references.grobid import GrobidClient
    from citewise.embed.base import Embedder
    from citewise.retrieval.keyword_index import TermsAhead
    from citewise.retrieval.postings import BlockText, Piece

log = logging.getLogger(__name__)
# FileFilter, IngestFailure, Sources and expand_paths live in inputs.py, check_file_size in
# ingest_files.py (and spaced_collections), embed_missing and Progress in vectors_missing.py,
# FILE_MB_VARIABLE in documents/options.py;
# importers name them here too.
__all__ = [
    "AsStored",
    "FILE_MB_VARIABLE",
    "IngestFailure",
    "IngestReport",
    "EMBED_BATCH",
    "FileFilter",
    "Progress",
    "Sources",
    "check_file_size",
    "embed_missing",
    "expand_paths",
    "ingest",
    "ingest_file",
    "spaced_collections",
]


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


Stored = Callable[[str, Document], None]  # a document just stored: its ID and its parse
Stepper = Callable[[Path, Parse, str | None], tuple[str, Document] | None]


def ingest_file(
    store: Store,
    path: Path,
    report: IngestReport,
    metadata: PaperMetadata | None = None,
    grobid: GrobidClient | None = None,
    parse: Parse = read_document,
    abstracts: dict[str, str] | None = None,
    max_file_mb: float | None = None,
    sha256: str | None = None,
) -> tuple[str, Document] | None:
    """Add, replace or skip one file; raise CitewiseError if it cannot be ingested. Returns
    the ID and parse of the document stored, None when the library held it already.

    `metadata` (manifest / Zotero) overrides what the reader found, also for a file that
    is already in the library; `grobid` parses the bibliography when configured; `parse`
    reads the file (a ParsePool's, when the batch is parsed ahead in worker processes);
    `abstracts` (identifier -> abstract-level document, citewise/abstracts.py): the full text
    of a work saved as its abstract takes that document's place and ID; `max_file_mb`
    overrides the per-type size caps (ParseOptions.max_file_mb); `sha256` is the file's
    digest when the batch has just read it (each file is read and hashed once).
    """
    absolute = path.expanduser().resolve()
    check_file_size(absolute, max_file_mb)
    if sha256 is None:
        sha256 = hashlib.sha256(_read(absolute)).hexdigest()
    if _already_stored(store, absolute, sha256, metadata, report):
        return None
    if absolute.suffix.lower() not in SUFFIXES:
        raise BadDocumentError(f"unsupported file type '{absolute.suffix}'")
    doc = parse(path)
    doc.path = absolute
    bound_blocks(doc)
    if grobid is not None and doc.kind == "pdf":
        _grobid_references(doc, _read(absolute), grobid, report)
    wanted = _apply_metadata(store, doc, metadata)
    return _save(store, doc, wanted, abstracts, report), doc


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror or exc}") from exc


def _already_stored(
    store: Store,
    absolute: Path,
    sha256: str,
    metadata: PaperMetadata | None,
    report: IngestReport,
) -> bool:
    """Whether the library holds this content (`sha256`) already: at this path it is
    unchanged (its metadata updated), at another path it is a duplicate
    (DuplicateDocumentError)."""
    existing = store.document_by_sha(sha256)
    if existing is None:
        return False
    if existing.path == str(absolute):
        report.unchanged.append(existing.id)
        if metadata is not None:
            _update_stored(store, existing.id, metadata, report, str(absolute))
        return True
    raise DuplicateDocumentError(
        f"same content as '{existing.id}' ({existing.path})",
        hint="the file is already in the library; nothing to do",
    )


def _apply_metadata(store: Store, doc: Document, metadata: PaperMetadata | None) -> str | None:
    """Apply a manifest's or Zotero's metadata to `doc`; the ID it wants, if any
    (BadDocumentError when another file holds that ID)."""
    if metadata is None:
        return None
    metadata.apply(doc)
    wanted = metadata.id
    taken = store.document(wanted) if wanted else None
    if taken is not None and taken.path != str(doc.path) and taken.kind != ABSTRACT_KIND:
        raise BadDocumentError(f"id '{wanted}' is already used by {taken.path}")
    return wanted


def _save(
    store: Store,
    doc: Document,
    wanted: str | None,
    abstracts: dict[str, str] | None,
    report: IngestReport,
) -> str:
    """Store `doc` in one transaction, in place of the file's previous version or of the
    abstract-level document it upgrades; count it in the report; its ID."""
    path = str(doc.path)
    previous = store.document_by_path(path)
    if previous is None:
        previous = _abstract_replaced(store, doc, wanted, abstracts or {})
    doc_id = store.save_document(doc, replaces=previous.id if previous else None, wanted_id=wanted)
    (report.replaced if previous else report.added).append(doc_id)
    if previous is not None and previous.kind == ABSTRACT_KIND and doc.kind != ABSTRACT_KIND:
        # The full text took the abstract's place: its Markdown file has served.
        if abstracts is not None:
            for identifier in [k for k, v in abstracts.items() if v == doc_id]:
                del abstracts[identifier]
        kept = Path(previous.path)
        if kept.parent.name == ABSTRACTS_DIR:
            kept.unlink(missing_ok=True)
    report.warnings.extend((path, w) for w in doc.warnings)
    report.pages += doc.pages
    report.blocks += len(doc.blocks)
    return doc_id


def _abstract_replaced(
    store: Store, doc: Document, wanted: str | None, abstracts: dict[str, str]
) -> StoredDocument | None:
    """The abstract-level document that full text `doc` upgrades: the one its manifest ID
    names, or the one kept for its DOI / arXiv ID."""
    if doc.kind == ABSTRACT_KIND:
        return None
    taken = store.document(wanted) if wanted else None
    if taken is not None and taken.kind == ABSTRACT_KIND:
        return taken
    upgraded = upgraded_abstract(doc, abstracts)
    return store.document(upgraded) if upgraded else None


def _update_stored(
    store: Store, doc_id: str, meta: PaperMetadata, report: IngestReport, path: str
) -> None:
    csl = {k: v for k, v in meta.extra.items() if v}
    store.update_metadata(doc_id, {**meta.stored_fields(), **({"csl": csl} if csl else {})})
    if meta.id and meta.id != doc_id:
        report.warnings.append(
            (path, f"already in the library as '{doc_id}'; its id stays (wanted '{meta.id}')")
        )


def _grobid_references(
    doc: Document, content: bytes, grobid: GrobidClient, report: IngestReport
) -> None:
    """Swap the built-in bibliography for GROBID's; keep it when GROBID fails."""
    from citewise.documents.references.entries import link_citations
    from citewise.documents.references.grobid import GrobidError, attach_blocks

    try:
        refs = grobid.references(content, doc.path.name)
    except GrobidError as exc:
        report.warnings.append((str(doc.path), f"{exc}; built-in reference parsing used"))
        return
    attach_blocks(refs, doc.blocks)
    doc.references = refs
    doc.citations = link_citations(doc.blocks, refs)


def ingest(
    store: Store,
    paths: list[Path],
    embedder: Embedder | None = None,
    progress: Progress | None = None,
    sources: Sources | None = None,
    grobid: GrobidClient | None = None,
    budget: ParseBudget | None = None,
    options: ParseOptions | None = None,
    on_stored: Stored | None = None,
    selection: FileFilter | None = None,
) -> IngestReport:
    """Ingest files and folders (and a manifest's or Zotero's files, with their metadata);
    failures are collected in the report, never raised.

    Files are parsed in worker processes as `options` say (budget, workers, size caps,
    OCR, password; default: citewise's own), each under `budget` when given, and stored as
    they finish, so a file that hangs or is stopped loses no other file. `grobid` defaults
    to the server at `options.grobid_url`, if any. `on_stored` is called with each
    document as it is stored, while the workers parse the rest (what would read the document
    back later can take it from its parse; a failure there is left to a later pass).
    `selection` keeps some of the files found in folders (`--include`, `--exclude`).
    """
    options = options or ParseOptions()
    if budget is not None:
        options = replace(options, budget=budget)
    report = IngestReport()
    started = time.perf_counter()
    grobid = grobid or _grobid_client(options.grobid_url)
    metadata = sources.metadata if sources else {}
    if sources:
        report.failed.extend(sources.failures)
    items = list(expand_paths(paths, selection)) + (list(sources.metadata) if sources else [])
    report.failed.extend(i for i in items if isinstance(i, IngestFailure))
    files = [i for i in items if isinstance(i, Path)]
    abstracts = abstract_index(store.documents())
    stepper = _stepper(store, report, len(files), metadata, grobid, abstracts, options, progress)
    step = stepper if on_stored is None else _then(stepper, on_stored)
    with spaced_collections():
        parse_and_store(store, files, step, options)
        parsed = time.perf_counter()
        if embedder is not None:
            report.embedding_model = embedder.name
            report.embedded_blocks = embed_missing(store, embedder, progress)
    report.embed_seconds = time.perf_counter() - parsed
    report.seconds = time.perf_counter() - started
    return report


def _grobid_client(url: str) -> GrobidClient | None:
    """The GROBID server at `url`, None when none is set (its module not imported)."""
    if not url.strip():
        return None
    from citewise.documents.references.grobid import GrobidClient

    return GrobidClient.from_url(url)


def _stepper(
    store: Store,
    report: IngestReport,
    total: int,
    metadata: dict[Path, PaperMetadata],
    grobid: GrobidClient | None,
    abstracts: dict[str, str],
    options: ParseOptions,
    progress: Progress | None,
) -> Stepper:
    """What is done with each file of the batch: progress, ingest_file with its parse,
    any failure into the report; what was stored, if anything."""
    done = 0

    def step(path: Path, parse: Parse, sha256: str | None) -> tuple[str, Document] | None:
        nonlocal done
        done += 1
        if progress:
            progress(path.name, done, total)
        try:
            meta = metadata.get(path)
            mb = options.max_file_mb
            return ingest_file(store, path, report, meta, grobid, parse, abstracts, mb, sha256)
        except Exception as exc:  # a parser bug must not lose the rest of the batch
            report.failed.append(_failure(path, exc))
            return None

    return step


def _then(step: Stepper, on_stored: Stored) -> Step:
    """`step`, then `on_stored` with the document it stored; a failure there is logged
    and left to a later pass (the document is stored whole whatever it does)."""

    def then(path: Path, parse: Parse, sha256: str | None) -> None:
        stored = step(path, parse, sha256)
        if stored is not None:
            try:
                on_stored(*stored)
            except Exception:  # e.g. the vocabulary: the next refresh learns it
                log.debug("after storing %s", path, exc_info=True)

    return then


class AsStored:
    """What is done with each document as it is stored (an ingest's `on_stored`) for the
    indexes brought up to date after the batch: its vocabulary learned and its keyword
    postings analysed (retrieval/keyword_index.TermsAhead; `cover` hands them to the
    refresh). Their modules are imported with the first document, while the workers parse,
    not before the workers start."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ahead: TermsAhead | None = None
        self._learn: Stored | None = None

    def __call__(self, doc_id: str, doc: Document) -> None:
        if self.ahead is None or self._learn is None:
            from citewise.agent.ask.vocabulary import learning
            from citewise.retrieval.keyword_index import TermsAhead

            self.ahead, self._learn = TermsAhead(), learning(self.store)
        self._learn(doc_id, doc)
        self.ahead.add(doc_id, doc)

    def cover(self, rows: list[BlockText]) -> list[tuple[int, Piece]]:
        """The documents' postings analysed ahead, for the rows a keyword refresh reads."""
        if self.ahead is None:
            from citewise.retrieval.postings import analysed

            return [(0, analysed(rows))] if rows else []
        return self.ahead.cover(rows)


def _failure(path: Path, exc: Exception) -> IngestFailure:
    """The report line of a file that could not be ingested: its CitewiseError, or for an
    unexpected failure (a parser bug) the exception's type only (traceback at debug level)."""
    if isinstance(exc, CitewiseError):
        return IngestFailure(str(path), exc.code, exc.message)
    log.debug("unexpected failure ingesting %s", path, exc_info=True)
    return IngestFailure(
        str(path),
        "UNREADABLE",
        f"citewise could not read this file ({type(exc).__name__}); the rest of "
        "the batch went on — please report it if the file opens elsewhere",
    )
