"""Finding and downloading an open-access copy of one work: arXiv, Europe PMC (PMC),
OpenAlex `oa_url` and Semantic Scholar `openAccessPdf`, tried in that order.

Downloads go through `downloader.fetch_pdf`, the one PDF downloader (research's acquire
stage uses it too): a link is downloaded only from a host its source is known to serve PDFs
from (`pdf_hosts` in sources.yaml, and the source's own host), redirects included, or when
the user named it; the body is streamed under a size cap, the whole under a deadline."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

import httpx

from citewise.errors import CitewiseError, Kind
from citewise.sources.base import SourceError
from citewise.sources.config import SourcesConfig
from citewise.sources.databases import arxiv, europepmc, openalex
from citewise.sources.databases import semantic_scholar as s2
from citewise.sources.downloads.downloader import PDF_MAGIC, fetch_pdf, link_problem
from citewise.sources.net.http import HttpLayer, SourceFetcher
from citewise.sources.net.transfer import RefusedURL
from citewise.sources.record import SearchRecord, arxiv_from_doi, normalize_arxiv, normalize_doi
from citewise.sources.search.dedupe import dedupe
from citewise.store.protocols import AuditLog, DocumentRepository

__all__ = ["PDF_MAGIC", "fetch_pdf", "link_problem"]

ORDER = ("arxiv", "europepmc", "openalex", "semantic_scholar")


class NoOpenCopyError(CitewiseError):
    code = "NO_OPEN_COPY"
    kind: Kind = "not_found"


@dataclass(frozen=True)
class Identifier:
    kind: str  # doi, arxiv, pmid, pmcid
    value: str


@dataclass
class Located:
    """What the sources know about the work, and where open copies may be."""

    identifier: Identifier
    record: SearchRecord | None
    candidates: list[tuple[str, str]] = field(default_factory=list)  # (source, PDF URL)
    warnings: list[str] = field(default_factory=list)


def identify(target: str) -> Identifier:
    """DOI, arXiv ID, PMID or PMCID from what the user typed."""
    text = target.strip()
    if re.fullmatch(r"(?i)pmc\d+", text):
        return Identifier("pmcid", text.upper())
    if re.fullmatch(r"(?i)(pmid:\s*)?\d{1,9}", text):
        return Identifier("pmid", re.sub(r"\D", "", text))
    doi = normalize_doi(text)
    if doi and not arxiv_from_doi(doi):
        return Identifier("doi", doi)
    arxiv_id = arxiv_from_doi(doi) or normalize_arxiv(text)
    if arxiv_id and re.fullmatch(r"\d{4}\.\d{4,5}|[a-z.-]+/\d{7}", arxiv_id):
        return Identifier("arxiv", arxiv_id)
    raise CitewiseError(
        f"'{target}' is not a DOI, arXiv ID or PMID",
        hint="e.g. 10.7717/peerj.4375, arXiv:2101.00001 or 29456894",
        code="BAD_IDENTIFIER",
    )


def _epmc_query(ident: Identifier) -> str | None:
    return {
        "doi": f'DOI:"{ident.value}"',
        "pmid": f"EXT_ID:{ident.value} AND SRC:MED",
        "pmcid": f"PMCID:{ident.value}",
    }.get(ident.kind)


async def _arxiv(fetch: SourceFetcher, base: str, ident: Identifier) -> list[SearchRecord]:
    if ident.kind != "arxiv":
        return []
    response = await fetch.get(f"{base}/query", {"id_list": ident.value, "max_results": "1"})
    return arxiv.parse_feed(response.body)


async def _europepmc(fetch: SourceFetcher, base: str, ident: Identifier) -> list[SearchRecord]:
    query = _epmc_query(ident)
    if query is None:
        return []
    params = {"query": query, "resultType": "core", "format": "json", "pageSize": "1"}
    response = await fetch.get(f"{base}/search", params)
    return europepmc.parse_search(response.body)[0]


async def _openalex(fetch: SourceFetcher, base: str, ident: Identifier) -> list[SearchRecord]:
    if ident.kind not in ("doi", "pmid", "pmcid"):
        return []
    response = await fetch.get(f"{base}/works/{ident.kind}:{ident.value}")
    return openalex.parse_works(response.body)


async def _semantic_scholar(
    fetch: SourceFetcher, base: str, ident: Identifier
) -> list[SearchRecord]:
    prefix = {"doi": "DOI", "arxiv": "ARXIV", "pmid": "PMID", "pmcid": "PMCID"}[ident.kind]
    value = ident.value.removeprefix("PMC") if ident.kind == "pmcid" else ident.value
    response = await fetch.get(f"{base}/paper/{prefix}:{value}", {"fields": s2.FIELDS})
    return s2.parse_papers(response.body)


LOOKUPS = {
    "arxiv": _arxiv,
    "europepmc": _europepmc,
    "openalex": _openalex,
    "semantic_scholar": _semantic_scholar,
}


async def locate(
    target: str,
    *,
    config: SourcesConfig | None = None,
    audit: AuditLog | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Located:
    """Ask the open-access sources about one work, all at once."""
    ident = identify(target)
    config = config or SourcesConfig.load()
    located = Located(ident, None)
    async with HttpLayer(config, audit, transport) as http:
        names = list(ORDER)
        found = await asyncio.gather(
            *(
                LOOKUPS[name](http.fetcher(name), config.settings(name).base_url.rstrip("/"), ident)
                for name in names
            ),
            return_exceptions=True,
        )
    records: list[SearchRecord] = []
    for name, outcome in zip(names, found, strict=True):
        if isinstance(outcome, SourceError):
            if "HTTP 404" not in outcome.message:  # "not there" is an answer, not a failure
                located.warnings.append(outcome.message)
            continue
        if isinstance(outcome, BaseException):
            located.warnings.append(f"{name}: unreadable reply ({type(outcome).__name__})")
            continue
        for record in outcome:
            if record.ids.get(ident.kind) != ident.value:
                continue  # another work in the same reply
            records.append(record)
            if record.pdf_url:
                located.candidates.append((name, record.pdf_url))
    priority = {n: config.settings(n).priority for n in ORDER}
    merged = dedupe(records, priority)
    located.record = merged[0] if merged else None
    return located


async def download(
    located: Located,
    *,
    config: SourcesConfig | None = None,
    audit: AuditLog | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    pdf_url: str | None = None,
) -> tuple[bytes, str]:
    """The first candidate that really is a PDF: (bytes, URL); NoOpenCopyError otherwise.
    A candidate on a host its source is not known to serve PDFs from is refused, not
    downloaded; `pdf_url` (the user's own choice) replaces the candidates."""
    config = config or SourcesConfig.load()
    candidates = [("user", pdf_url)] if pdf_url else located.candidates
    tried: list[str] = []
    refused = False
    for source, url in candidates:
        allowed = None if pdf_url else [source]
        try:
            body = await fetch_pdf(
                url,
                sources=allowed,
                config=config,
                audit=audit,
                transport=transport,
                log_as=f"fetch:{source}",
            )
        except SourceError as exc:
            refused = refused or isinstance(exc, RefusedURL)
            tried.append(f"{source} ({exc.message.removeprefix(f'fetch:{source}: ')})")
            continue
        return body, url
    where = "; ".join(tried) if tried else "no source lists an open-access copy"
    raise NoOpenCopyError(
        f"no open copy of {located.identifier.kind} {located.identifier.value} could be "
        f"downloaded ({where})",
        hint="pass --pdf-url URL to download a link you trust"
        if refused
        else "look for it through your library, then 'citewise ingest' the PDF",
    )


def apply_metadata(store: DocumentRepository, doc_id: str, record: SearchRecord) -> None:
    """Give an ingested document the metadata the sources hold (the PDF's own is often thin);
    fields the sources lack keep what ingest found."""
    found: dict[str, object] = {
        "title": record.title or None,
        "authors": record.authors or None,
        "year": record.year,
        "doi": record.doi,
        "arxiv_id": record.ids.get("arxiv"),
        "pmid": record.ids.get("pmid"),
        "venue": record.venue,
        "abstract": record.abstract or None,
    }
    fields = {k: v for k, v in found.items() if v is not None}
    store.update_metadata(doc_id, {**fields, "csl": {**record.csl, "id": doc_id}})
