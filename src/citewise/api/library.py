"""The Python API that the CLI (and later the server) share: open a library, ingest, ask."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from citewise.api.catalogue import CatalogueMethods
from citewise.api.chat import ChatMethods
from citewise.api.checks import HealthMethods, NoSupportedFilesError, check_question
from citewise.api.compare import ComparisonMethods, answerer_for
from citewise.api.enrich import EnrichMethods
from citewise.api.models import ModelMethods
from citewise.api.structure import BlockNotFoundError, StructureMethods, StructureNotFoundError
from citewise.api.sync import SyncMethods
from citewise.config import Settings
from citewise.errors import DocumentNotFoundError
from citewise.store.filters import BlockFilter
from citewise.store.rows import StoredBlock, StoredDocument
from citewise.store.sqlite.db import storage_error
from citewise.store.sqlite.library import DB_NAME, LibraryStore

if TYPE_CHECKING:
    from citewise.agent.ask.qa import Answer, QuestionAnswerer
    from citewise.agent.generation.generate import GeneratedAnswerer
    from citewise.api.documents import DocumentDetails, DocumentStructure
    from citewise.documents.options import ParseOptions
    from citewise.embed.base import Embedder
    from citewise.ingest import IngestReport, Progress, Sources
    from citewise.inputs import FileFilter
    from citewise.retrieval.hybrid import Hit
    from citewise.retrieval.postings import Cover
    from citewise.store.sqlite.vector_check import IndexReport
    from citewise.store.sqlite.vocabulary import ReviewEntry


log = logging.getLogger(__name__)

__all__ = [
    "BlockNotFoundError",
    "Library",
    "StructureNotFoundError",
    "storage_error",
]  # faces never import citewise.store

# Answers below this support (and every refusal) are logged for review (`citewise review`).
REVIEW_BELOW = 0.6

EMBEDDINGS_UNAVAILABLE = (
    "notice: embedding model unavailable (pip install 'citewise[embed]'); using keyword search only"
)


@dataclass(frozen=True)
class Compaction:
    """`citewise compact`: the store's bytes before and after giving free space back, and
    (a PostgreSQL library) the finished jobs and job outcomes past their retention removed."""

    location: str
    before: int
    after: int
    jobs_removed: int = 0
    outcomes_removed: int = 0

    def to_dict(self) -> dict[str, object]:
        removed = {"jobs_removed": self.jobs_removed, "outcomes_removed": self.outcomes_removed}
        sizes = {"bytes_before": self.before, "bytes_after": self.after}
        return {"library": self.location, **sizes, **removed}


@dataclass(frozen=True)
class Preparation:
    """What `Library.prepare()` did: blocks embedded now, and what the user should know."""

    embedded: int
    notices: list[str]

    def to_dict(self) -> dict[str, object]:
        return {"embedded": self.embedded, "notices": self.notices}


class Library(
    ModelMethods,
    ComparisonMethods,
    StructureMethods,
    ChatMethods,
    SyncMethods,
    EnrichMethods,
    HealthMethods,
    CatalogueMethods,
):
    """One library directory: its store, its embedder (kept warm) and its answerer."""

    def __init__(
        self,
        directory: str | Path | None = None,
        embeddings: bool = True,
        settings: Settings | None = None,
    ) -> None:
        # A face passes the Settings it built; Python callers get them read now.
        from citewise.store.factory import open_store

        self.settings = settings.for_library(directory) if settings else Settings.load(directory)
        self.directory = self.settings.library
        # A postgresql:// library, else the SQLite library in the folder.
        self.location: str | Path = self.settings.database or self.directory
        # a mistyped --library makes a new, empty library: say so where it matters
        self.created = not self.settings.database and not (self.directory / DB_NAME).exists()
        self.store = open_store(self.location, self.directory)
        self._embeddings = embeddings
        self._embedder: Embedder | None = None
        self._embedder_loaded = False
        self._answerer: QuestionAnswerer | None = None
        self._preparation: Preparation | None = None
        self._generators: dict[tuple[str | None, str | None, bool], GeneratedAnswerer | None] = {}
        self.notices: list[str] = []

    def close(self) -> None:
        self.store.close()

    def reader(self) -> Library:
        """Another Library on this directory with a database connection of its own (for one
        thread at a time), sharing this one's embedder: a server's per-request reader."""
        other = Library(self.directory, self._embeddings, settings=self.settings)
        other._embedder, other._embedder_loaded = self.embedder, True
        return other

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def embedder(self) -> Embedder | None:
        if not self._embedder_loaded:
            self._embedder_loaded = True
            if self._embeddings:  # a keyword-only library imports no embedding code
                from citewise.embed.settings import embed_settings, open_embedder

                self._embedder = open_embedder(
                    embed_settings(self.settings),
                    self.store.vectors.model_dimensions,
                    environ=self.settings.environ,
                )
                if self._embedder is None:
                    self.notices.append(EMBEDDINGS_UNAVAILABLE)
        return self._embedder

    @property
    def parse_options(self) -> ParseOptions:
        """How files are parsed (budgets, workers, OCR, GROBID, PDF password), from the
        settings' CITEWISE_* variables."""
        from citewise.documents.options import ParseOptions

        return ParseOptions.from_environ(self.settings.environ)

    def ingest(
        self,
        paths: list[Path],
        progress: Progress | None = None,
        sources: Sources | None = None,
        password: str | None = None,
        refresh: bool = True,
        selection: FileFilter | None = None,
    ) -> IngestReport:
        """Ingest files and folders, plus a manifest's or Zotero's files with their metadata;
        `selection` keeps some of the files found in folders (`--include`, `--exclude`);
        `password` opens encrypted PDFs (else $CITEWISE_PDF_PASSWORD); `refresh=False`
        leaves the search indexes and the vocabulary to be brought up to date later (a
        worker's job: the next search refreshes them)."""
        from citewise.ingest import AsStored, ingest, spaced_collections
        from citewise.retrieval.keyword_index import document_postings

        options = self.parse_options
        if password:
            options = replace(options, pdf_password=password)
        if refresh:  # the postings analysed in the parse workers, under their budgets
            options = replace(options, analyse=document_postings)
        stored = AsStored(self.store)  # vocabulary and keyword terms, as each is stored
        with spaced_collections():  # the indexes built after it allocate as storing does
            report = ingest(self.store, paths, self.embedder, progress, sources, options=options,
                            on_stored=stored if refresh else None, selection=selection)  # fmt: skip
            nothing = not (report.documents or report.unchanged or report.failed)
            if paths and nothing and not (sources and (sources.metadata or sources.failures)):
                filtered = selection and (selection.include or selection.exclude)
                raise NoSupportedFilesError(
                    f"no supported files in {', '.join(str(p) for p in paths)}",
                    hint="no file there matches --include and escapes --exclude"
                    if filtered
                    else "citewise reads .pdf, .docx, .ipynb, .csv, .tsv, .md, .html and .txt",
                )
            if refresh:
                self.refresh(stored.cover)
        return report

    def refresh(self, cover: Cover | None = None) -> None:
        """Update the search indexes and the learned vocabulary after the documents changed,
        so the next question does not pay for them (`cover`: postings analysed ahead)."""
        from citewise.agent.ask.vocabulary import learn as learn_vocabulary
        from citewise.retrieval.hybrid import Retriever

        Retriever(self.store, self.embedder).refresh(cover)
        learn_vocabulary(self.store)
        if self._answerer is not None:
            self._answerer.forget()

    def embed_missing(self) -> int:
        """Embed the trusted blocks lacking a vector of this library's embedding model
        (a worker's embedding job); how many were."""
        from citewise.vectors_missing import embed_missing

        embedder = self.embedder
        return embed_missing(self.store, embedder) if embedder is not None else 0

    def documents(self) -> list[StoredDocument]:
        return self.store.documents()

    def document(self, doc_id: str) -> StoredDocument:
        """A document by ID, or by its path, file name or file name without extension (a
        name two files share names neither, and the error lists their IDs)."""
        if (doc := self.store.document(doc_id)) is not None:
            return doc
        paths = ((d, Path(d.path)) for d in self.documents())
        matches = [d for d, p in paths if doc_id in (d.path, p.name, p.stem)]
        if len(matches) == 1:
            return matches[0]
        hint = "run 'citewise list' to see document IDs"
        if matches:
            hint = "the name is shared by " + ", ".join(d.id for d in matches) + ": give an ID"
        raise DocumentNotFoundError(f"no document '{doc_id}'", hint=hint)

    def document_details(self, doc_id: str) -> DocumentDetails:
        """The `show --json` object (and `GET /documents/{id}`): metadata and structure."""
        from citewise.api.documents import DocumentDetails, DocumentStructure

        doc = self.document(doc_id)
        return DocumentDetails(doc, DocumentStructure.read(self.store, doc.id))

    def structure(self, doc_id: str) -> DocumentStructure:
        """Sections, tables, equations and references of a stored document."""
        from citewise.api.documents import DocumentStructure

        return DocumentStructure.read(self.store, self.document(doc_id).id)

    def blocks(self, doc_id: str) -> list[StoredBlock]:
        return self.store.blocks(self.document(doc_id).id)

    def prepare(self) -> Preparation:
        """Ready the library to answer, once: when it holds vectors (of any model), load the
        embedding model and embed the blocks lacking vectors of the current one (say, the
        default model changed); open the answerer. Keyword-only libraries skip the model's
        start-up time. `ask`, `search` and the generated-answer path call this first."""
        from citewise.vectors_missing import embed_missing

        if self._preparation is None:
            embedder = self.embedder if self.store.vectors.any_vectors() else None
            embedded = embed_missing(self.store, embedder) if embedder is not None else 0
            self._answerer = answerer_for(self, embedder)
            self._preparation = Preparation(embedded, list(self.notices))
        return self._preparation

    @property
    def answerer(self) -> QuestionAnswerer:
        """The answerer; reading it embeds nothing (`prepare()` does that, explicitly):
        before preparation it searches the vectors the library already has."""
        if self._answerer is None:
            embedder = self.embedder if self.store.vectors.any_vectors() else None
            self._answerer = answerer_for(self, embedder)
        return self._answerer

    def ask(
        self,
        question: str,
        documents: list[str] | None = None,
        k: int = 8,
        review: bool = True,
        trace: bool = False,
    ) -> Answer:
        """Answer with verbatim cited sentences, or refuse with the closest passages.
        Refusals and low-support answers are logged for `review` (unless review=False).
        `trace`: the answer's `pipeline` says what each answer shape proposed."""
        check_question(question)
        doc_ids = tuple(self.document(d).id for d in documents or [])
        self.prepare()
        self._note_empty()
        answer = self.answerer.ask(question, doc_ids, k, trace)  # compare table first
        if review and (answer.refused or answer.support_score < REVIEW_BELOW):
            sentences = answer.withheld if answer.refused else answer.sentences
            self.store.vocabulary.log_review(
                question,
                answer.refused,
                answer.refusal_kind,
                answer.support_score,
                answer.answer if not answer.refused else " ".join(s.text for s in sentences),
                [c for s in sentences for c in s.citations],
            )
        return answer

    def record_action(
        self, actor: str, action: str, subject: str | None, detail: dict[str, object]
    ) -> None:
        """Note in a shared (PostgreSQL) library's audit trail who did what; a one-user
        SQLite library keeps no such trail."""
        from citewise.store.records import ActionRecord

        if self.store.actions is not None:
            self.store.actions.record(ActionRecord(actor, action, subject, dict(detail)))

    def actions(self, limit: int = 50, actor: str | None = None) -> list[dict[str, object]]:
        """The audit trail, newest first (empty for a SQLite library)."""
        if self.store.actions is None:
            return []
        return [
            {"time": a.time, "actor": a.actor, "action": a.action, "subject": a.subject,
             "detail": a.detail}
            for a in self.store.actions.actions(limit, actor)
        ]  # fmt: skip

    def compact(self) -> Compaction:
        """Remove finished jobs past their retention (a PostgreSQL library), then return the
        store's free space (left by migrations and deletions) to the disk."""
        from citewise.api.queue import prune_finished
        from citewise.store.postgres.connection import redact

        pruned = prune_finished(self.settings)  # nothing to do for a SQLite library
        before, after = self.store.compact()
        location = redact(str(self.location))
        return Compaction(location, before, after, pruned.jobs, pruned.outcomes)

    def review(self, limit: int = 50) -> list[ReviewEntry]:
        """The latest low-support answers and refusals logged by `ask`, newest first."""
        return self.store.vocabulary.reviews(limit)

    def search(self, query: str, k: int = 8, documents: list[str] | None = None) -> list[Hit]:
        """The k best blocks of this library for `query` (hybrid retrieval, no answer)."""
        doc_ids = tuple(self.document(d).id for d in documents or [])
        self.prepare()
        return self.answerer.retriever.search(query, k, BlockFilter(documents=doc_ids))

    def search_records(
        self, query: str, k: int = 8, documents: list[str] | None = None
    ) -> list[dict[str, object]]:
        """`search` as plain data (GET /search and the MCP `search_library` tool)."""
        hits = self.search(query, k, documents)
        titles = {d.id: d.title for d in self.documents()}
        return [
            {
                "id": h.block.id,
                "document": h.block.document_id,
                "title": titles.get(h.block.document_id, ""),
                "page": h.block.page,
                "bbox": list(h.block.bbox),
                "section": h.block.section_path,
                "kind": h.block.kind,
                "text": h.block.text,
                "score": round(h.score, 4),
            }
            for h in hits
        ]

    def search_literature(
        self, query: str, sources: list[str] | None = None, limit: int = 10
    ) -> dict[str, object]:
        """Scholarly databases (network; all eight when `sources` is empty): merged, ranked
        records with each source's status, as `citewise search --json` prints them."""
        from citewise.sources import Query, SourcesConfig, search_sources

        result = search_sources(
            Query.parse(query, limit=limit),
            sources or [],
            audit=self.store.audit,
            limit=limit,
            config=SourcesConfig.load(None, self.settings.environ),
        )
        return {
            "query": result.query.text if result.query else "",
            "records": [r.to_dict() for r in result.records],
            "warnings": result.warnings,
            "notices": result.notices,
            "sources": [
                {"name": s.name, "status": s.status, "records": s.records, "message": s.message}
                for s in result.sources
            ],
        }

    def check_index(self) -> IndexReport:
        """Every vector index beside the library compared row by row with SQLite, and
        rebuilt where it differs (`citewise doctor --check`). A PostgreSQL library keeps
        its vectors in the database's own index: nothing beside it to check."""
        from citewise.store.sqlite.vector_check import IndexReport
        from citewise.store.sqlite.vector_index import check_vector_indexes

        if not isinstance(self.store, LibraryStore):
            return IndexReport([])
        return check_vector_indexes(self.directory, self.store.db)
