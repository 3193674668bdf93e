"""The one PDF downloader (`citewise fetch`, and research's acquire stage).

A link a source names is downloaded only from a host that source is known to serve PDFs
from: its `pdf_hosts` in sources.yaml (subdomains included) or the host of its base URL,
every redirect hop included; a link the user gave is downloaded from wherever it points.
Either way the body is streamed under a size cap, the whole exchange under one deadline,
and the request is logged in `http_requests`."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import httpx

from citewise.sources.base import SourceError
from citewise.sources.config import SourcesConfig
from citewise.sources.net import transfer
from citewise.sources.net.http import user_agent
from citewise.sources.net.transfer import Caps, RefusedURL, redact
from citewise.store.protocols import AuditLog
from citewise.store.records import HttpRequest

PDF_MAGIC = b"%PDF-"
PDF_CAPS = Caps(max_bytes=50_000_000, deadline=120.0, timeout=30.0)


def pdf_hosts(config: SourcesConfig, source: str) -> list[str]:
    """The hosts `source`'s PDF links may be downloaded from."""
    settings = config.settings(source)
    own = urlsplit(settings.base_url).hostname or ""
    return [h.lower().strip(".") for h in [*settings.pdf_hosts, own] if h]


def on_host(url: str, hosts: list[str]) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    return any(host == h or host.endswith(f".{h}") for h in hosts)


def link_problem(url: str, sources: list[str] | None, config: SourcesConfig) -> str | None:
    """Why `url` may not be downloaded for a link named by `sources` (None: the user's own
    link, any web host), or None when it may."""
    if urlsplit(url).scheme.lower() not in ("http", "https"):
        return f"{redact(url)} is not a web URL"
    if sources is None:
        return None
    known = [s for s in sources if s in config.sources]
    hosts = sorted({h for s in known for h in pdf_hosts(config, s)})
    if on_host(url, hosts):
        return None
    named = ", ".join(known) or "the source"
    return (
        f"{redact(url)} is not on a host {named} is known to serve PDFs from"
        f" ({', '.join(hosts) or 'none'})"
    )


async def fetch_pdf(
    url: str,
    *,
    sources: list[str] | None,
    config: SourcesConfig,
    audit: AuditLog | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    log_as: str = "fetch",
    task: str | None = None,
    caps: Caps = PDF_CAPS,
) -> bytes:
    """The PDF at `url` (named by `sources`, or by the user when None); a SourceError naming
    `log_as` and the URL when it is refused, fails, is too large or slow, or is no PDF."""
    refused = link_problem(url, sources, config)
    if refused:
        raise RefusedURL(log_as, refused, hint="pass --pdf-url URL to download a link you trust")
    mailto = next((s.mailto for s in config.sources.values() if s.mailto), None)
    headers = {"User-Agent": user_agent(mailto), "Accept": "application/pdf"}
    started = time.perf_counter()
    status: int | None = None
    error: SourceError | None = None
    body = b""
    async with httpx.AsyncClient(transport=transport, follow_redirects=False) as client:
        try:
            reply = await transfer.get(
                client, log_as, url, headers, caps, lambda u: link_problem(u, sources, config)
            )
            status, body = reply.status, reply.body
            if status != 200:
                error = SourceError(log_as, f"{redact(url)}: HTTP {status}")
            elif not body.startswith(PDF_MAGIC):
                error = SourceError(log_as, f"{redact(url)}: not a PDF")
        except SourceError as exc:
            error = exc
        except httpx.HTTPError as exc:
            error = SourceError(log_as, f"{redact(url)}: {type(exc).__name__}")
        finally:
            _log(audit, log_as, url, status, time.perf_counter() - started, error, task)
    if error is not None:
        raise error
    return body


def _log(
    audit: AuditLog | None,
    source: str,
    url: str,
    status: int | None,
    seconds: float,
    error: SourceError | None,
    task: str | None,
) -> None:
    if audit is None:
        return
    problem = None
    if error is not None:
        problem = error.message.removeprefix(f"{source}: ")
        problem = problem if error.code == SourceError.code else f"{error.code}: {problem}"
    audit.log_request(
        HttpRequest(
            source, redact(url), task=task, status=status, latency_ms=seconds * 1000, error=problem
        )
    )
