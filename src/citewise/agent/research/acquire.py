"""Acquire: fetch an included record's open-access PDF and ingest it, when the user allowed
it (--fetch); otherwise, or when the download fails, the record stays abstract-only.

The file lands in the library's `acquired/` folder under a name derived from the record
key, written to a temporary name and renamed, so a kill never leaves half a PDF; ingest is
idempotent (by content hash), so a rerun reuses what an earlier run stored. Every request
is logged in `http_requests`.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx

from citewise.agent.research.context import StageContext
from citewise.agent.research.model import Paper
from citewise.errors import CitewiseError
from citewise.ingest import ingest
from citewise.store.db import transaction
from citewise.store.library import resolve_path

MAX_BYTES = 50 * 1024 * 1024
TIMEOUT = 30.0
FOLDER = "acquired"


class AcquireError(CitewiseError):
    code = "ACQUIRE_FAILED"


def pdf_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("._")[:80] + ".pdf"


class AcquireStage:
    """Open-access PDF of a remote paper -> library document ID (or None: abstract-only)."""

    name = "acquire"

    def __init__(self, transport: httpx.BaseTransport | None = None) -> None:
        self.transport = transport

    def run(self, ctx: StageContext, paper: Paper) -> str | None:
        if paper.local or not ctx.options.fetch or not paper.pdf_url:
            return None
        target = ctx.store.directory / FOLDER / pdf_name(paper.key)
        try:
            if not target.exists():
                self._download(ctx, paper.pdf_url, target)
            report = ingest(ctx.store, [target], None)
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

    def _download(self, ctx: StageContext, url: str, target: Path) -> None:
        started = time.perf_counter()
        status: int | None = None
        error = ""
        try:
            with httpx.Client(
                timeout=TIMEOUT, follow_redirects=True, transport=self.transport
            ) as client:
                response = client.get(url, headers={"Accept": "application/pdf"})
                status = response.status_code
                body = response.content
            if status != 200:
                error = f"HTTP {status}"
            elif len(body) > MAX_BYTES or not body.startswith(b"%PDF"):
                error = "not a PDF (or larger than 50 MB)"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"
        finally:
            self._log(ctx, url, status, time.perf_counter() - started, error)
        if error:
            raise AcquireError(f"could not fetch {url}: {error}", hint="using the abstract only")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(body)
        partial.replace(target)

    @staticmethod
    def _log(ctx: StageContext, url: str, status: int | None, seconds: float, error: str) -> None:
        with transaction(ctx.store.db):
            ctx.store.db.execute(
                "INSERT INTO http_requests (task, source, method, url, status, latency_ms, error) "
                "VALUES (?,?,?,?,?,?,?)",
                (ctx.task.id, "acquire", "GET", url, status, seconds * 1000, error or None),
            )
