"""Acquire: fetch an included record's open-access PDF and ingest it, when the user allowed
it (--fetch); otherwise, or when the download fails, the record stays abstract-only.

The file lands in the library's `acquired/` folder under a name derived from the record
key, written to a temporary name and renamed, so a kill never leaves half a PDF; ingest is
idempotent (by content hash), so a rerun reuses what an earlier run stored. Downloads go
through citewise.sources' one downloader (host allowlist, size cap, deadline); every
request is logged in `http_requests`.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from citewise.abstracts import record_metadata, write_abstract
from citewise.agent.research.context import StageContext
from citewise.agent.research.model import Paper
from citewise.documents.options import ParseOptions
from citewise.errors import CitewiseError
from citewise.ingest import Sources, ingest
from citewise.sources.record import SearchRecord
from citewise.store.sqlite.library import resolve_path

FOLDER = "acquired"


class AcquireError(CitewiseError):
    code = "ACQUIRE_FAILED"


def pdf_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("._")[:80] + ".pdf"


class AcquireStage:
    """Open-access PDF of a remote paper -> library document ID (or None: abstract-only)."""

    name = "acquire"

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.transport = transport

    def run(self, ctx: StageContext, paper: Paper) -> str | None:
        if paper.local:
            return None
        document = self._fetched(ctx, paper) if ctx.options.fetch and paper.pdf_url else None
        if document is None and ctx.options.save_abstracts and paper.abstract.strip():
            self._keep_abstract(ctx, paper)
        return document

    def _keep_abstract(self, ctx: StageContext, paper: Paper) -> None:
        """The record kept in the library as an abstract-level document (`--save`): cited
        as "abstract of …" by later questions, replaced when its full text arrives. This
        run still quotes the record's abstract as before."""
        path = write_abstract(ctx.store.directory, paper_record(paper))
        options = ParseOptions.from_environ(ctx.environ)
        sources = Sources({path: record_metadata(paper_record(paper))})
        report = ingest(ctx.store, [], None, sources=sources, options=options)
        kept = report.added + report.replaced + report.unchanged
        if kept:
            ctx.tasks.event(
                ctx.task.id, self.name, "abstract_saved", {"document": kept[0], "paper": paper.key}
            )
        for failure in report.failed:
            ctx.tasks.event(
                ctx.task.id, self.name, "warning", {"message": f"{failure.path}: {failure.reason}"}
            )

    def _fetched(self, ctx: StageContext, paper: Paper) -> str | None:
        target = ctx.store.directory / FOLDER / pdf_name(paper.key)
        try:
            if not target.exists():
                self._download(ctx, paper, target)
            options = ParseOptions.from_environ(ctx.environ)
            report = ingest(ctx.store, [target], None, options=options)
        except (AcquireError, OSError) as exc:
            ctx.tasks.event(ctx.task.id, self.name, "warning", {"message": str(exc)})
            return None
        if report.failed:
            failure = report.failed[0]
            message = f"{paper.pdf_url}: {failure.reason}; using the abstract only"
            ctx.tasks.event(ctx.task.id, self.name, "warning", {"message": message})
            return None
        doc = ctx.store.document_by_path(resolve_path(target))
        return doc.id if doc else None

    def _download(self, ctx: StageContext, paper: Paper, target: Path) -> None:
        """The paper's PDF into `target`, through the sources' one downloader: only from a
        host the sources that named the link are known to serve PDFs from, under its size
        cap and deadline, logged in `http_requests` with this task."""
        from citewise.sources.base import SourceError
        from citewise.sources.config import SourcesConfig
        from citewise.sources.downloads.downloader import fetch_pdf
        from citewise.sources.search.api import run_blocking

        config = SourcesConfig.load(ctx.options.sources_config, ctx.environ)
        named_by = [s for s in paper.origin.split(",") if s in config.sources]
        try:
            body = run_blocking(
                fetch_pdf(
                    paper.pdf_url,
                    sources=named_by,
                    config=config,
                    audit=ctx.store.audit,
                    transport=self.transport,
                    log_as=self.name,
                    task=ctx.task.id,
                )
            )
        except SourceError as exc:
            raise AcquireError(
                f"could not fetch {exc.message.removeprefix(self.name + ': ')}",
                hint="using the abstract only",
            ) from exc
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(body)
        partial.replace(target)


def paper_record(paper: Paper) -> SearchRecord:
    """A research task's remote paper as the search record it came from."""
    csl = dict(paper.csl)
    doi = str(csl.get("DOI") or "") or (paper.key[4:] if paper.key.startswith("doi:") else "")
    ids = {"arxiv": paper.key[6:]} if paper.key.startswith("arxiv:") else {}
    return SearchRecord(
        key=paper.key,
        csl=csl,
        title=paper.title,
        abstract=paper.abstract,
        year=paper.year,
        authors=list(paper.authors),
        doi=doi or None,
        ids=ids,
        sources=[s for s in paper.origin.split(",") if s],
        url=paper.link or None,
    )
