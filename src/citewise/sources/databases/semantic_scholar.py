"""Semantic Scholar Academic Graph: `/paper/search` (plain text, year and type filters,
optional x-api-key)."""

from __future__ import annotations

from typing import Any

from citewise.sources.base import Fetcher, ParseError, Source, as_int, load_json
from citewise.sources.csl import parse_name, parts_from_iso
from citewise.sources.databases.paging import Page, collect, json_total
from citewise.sources.query import Query
from citewise.sources.record import SearchRecord, make_record

FIELDS = (
    "paperId,externalIds,title,abstract,year,authors,venue,journal,publicationDate,"
    "publicationTypes,citationCount,isOpenAccess,openAccessPdf,url"
)
PUBLICATION_TYPE = {"review": "Review", "article": "JournalArticle"}
DESIGN = {"meta-analysis": "MetaAnalysis", "systematic-review": "Review", "rct": "ClinicalTrial"}


def translate(query: Query, limit: int) -> dict[str, str]:
    """Search parameters. The endpoint takes plain text only (no operators or fields), so
    authors and headings join the words; years, types, open access and citations are filters."""
    words = [*query.phrases, *query.terms, *query.mesh, *query.authors]
    params = {"query": " ".join(words), "fields": FIELDS, "limit": str(min(limit, 100))}
    if query.year_from or query.year_to:
        params["year"] = f"{query.year_from or ''}-{query.year_to or ''}"
    types = [PUBLICATION_TYPE[k] for k in sorted(query.types) if k in PUBLICATION_TYPE]
    types += [DESIGN[d] for d in sorted(query.designs) if DESIGN[d] not in types]
    if types:
        params["publicationTypes"] = ",".join(types)
    if query.open_access:
        params["openAccessPdf"] = ""
    if query.min_citations:
        params["minCitationCount"] = str(query.min_citations)
    return params


def parse_papers(body: bytes | str) -> list[SearchRecord]:
    """Records from a search/match reply ({"data": [...]}, "data" absent when empty), a batch
    reply (a list, null for IDs not found) or a single paper object."""
    data = load_json("semantic_scholar", body)
    if isinstance(data, dict) and "paperId" in data:
        papers: list[Any] = [data]
    elif isinstance(data, dict) and ("data" in data or "total" in data):
        papers = data.get("data") or []
    elif isinstance(data, list):
        papers = data
    else:
        message = data.get("message") or data.get("error") if isinstance(data, dict) else None
        raise ParseError("semantic_scholar", f"unexpected reply: {message or str(data)[:80]}")
    return [paper_record(p) for p in papers if isinstance(p, dict) and p.get("paperId")]


def paper_record(paper: dict[str, Any]) -> SearchRecord:
    external = paper.get("externalIds") or {}
    ids = {
        "s2": paper.get("paperId"),
        "doi": external.get("DOI"),
        "arxiv": external.get("ArXiv"),
        "pmid": external.get("PubMed"),
        "pmcid": external.get("PubMedCentral"),
    }
    types = set(paper.get("publicationTypes") or [])
    journal = paper.get("journal") or {}
    venue = journal.get("name") or paper.get("venue") or None
    has_doi = bool(ids["doi"]) and not str(ids["doi"]).lower().startswith("10.48550/")
    if "Review" in types:
        kind: str | None = "review"
    elif has_doi or venue or types & {"JournalArticle", "Conference"}:
        kind = "article"
    elif ids["arxiv"]:
        kind = "preprint"
    else:
        kind = None
    if "Conference" in types:
        csl_type = "paper-conference"
    elif kind == "preprint" or kind is None:
        csl_type = "article"
    else:
        csl_type = "article-journal"
    pdf = (paper.get("openAccessPdf") or {}).get("url") or None
    issued = parts_from_iso(paper.get("publicationDate")) or (
        [paper["year"]] if as_int(paper.get("year")) else None
    )
    return make_record(
        "semantic_scholar",
        csl_type=csl_type,
        title=paper.get("title") or "",
        names=[parse_name(a.get("name") or "") for a in paper.get("authors") or [] if a],
        issued=issued,
        ids=ids,
        abstract=paper.get("abstract") or "",
        container=venue,
        volume=journal.get("volume"),
        page=journal.get("pages"),
        url=paper.get("url"),
        kind=kind,
        open_access=bool(paper.get("isOpenAccess")) or bool(pdf),
        pdf_url=pdf,
        citations=as_int(paper.get("citationCount")),
    )


class SemanticScholarSource(Source):
    name = "semantic_scholar"
    kinds = frozenset({"article", "review", "preprint"})

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        headers = {"x-api-key": self.settings.api_key} if self.settings.api_key else {}

        async def page(offset: int, size: int, cursor: str | None) -> Page:
            params = translate(query, size)
            if offset:
                params["offset"] = str(offset)
            url = f"{self.base_url}/paper/search"
            response = await fetch.get(url, self.params(params), headers)
            return Page(parse_papers(response.body), json_total(response.body, "total"))

        collected = await collect(page, limit, 100)
        self.total = collected.total
        return collected.records
