"""Which parser reads which recorded exchange, and whether a record is expected from it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

from citewise.sources.databases import arxiv, core, crossref, doaj, europepmc, openalex, pubmed
from citewise.sources.databases import semantic_scholar as s2
from citewise.sources.record import SearchRecord
from tests.sources.recorded import Recorded

Parser = Callable[[bytes], list[SearchRecord]]


def _europepmc(body: bytes) -> list[SearchRecord]:
    return europepmc.parse_search(body)[0]


def _esearch(body: bytes) -> list[SearchRecord]:
    pubmed.parse_esearch(body)  # IDs only: parsed for errors, no records
    return []


def parser_for(path: Path, exchange: Recorded) -> Parser | None:
    """The connector parser for this exchange; None for hosts citewise does not query."""
    host = urlparse(exchange.url).netloc
    folder = path.parent.name
    if "unpaywall" in host:
        return None
    if folder == "arxiv":
        return arxiv.parse_oai if path.name.startswith("oai_") else arxiv.parse_feed
    if folder == "pubmed":
        return _esearch if path.name.startswith("esearch") else pubmed.parse_efetch
    if "semanticscholar" in host or folder == "semanticscholar":
        return s2.parse_papers
    if "openalex" in host or folder == "openalex":
        return openalex.parse_works
    if "crossref" in host or "doi.org" in host:
        return crossref.parse_works
    if folder == "legacy_v2":
        return core.parse_works
    if folder == "doaj":
        return doaj.parse_articles
    if folder == "europepmc":
        return _europepmc
    raise AssertionError(f"no parser chosen for {path.name} {exchange.url}")


def expects_garbage(path: Path, exchange: Recorded) -> bool:
    """Exchanges a search connector never consumes as results: errors, redirects, BibTeX,
    spelling suggestions and summaries. Their parser must raise ParseError, not crash."""
    if exchange.status >= 300:
        return True
    if exchange.body.lstrip().startswith(b"@"):
        return True  # BibTeX transform
    return path.name.startswith(("espell", "esummary"))
