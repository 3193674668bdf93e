"""OpenAlex `/works`: `search=` (or title/abstract search filters) plus filters for dates,
type, open access, citations and author names; `api_key` when configured."""

from __future__ import annotations

from typing import Any

from citewise.sources.base import Fetcher, ParseError, Source, as_int, load_json
from citewise.sources.csl import parse_name, parts_from_iso
from citewise.sources.databases.paging import Page, collect, json_total, page_number
from citewise.sources.query import Query, quote
from citewise.sources.record import SearchRecord, make_record

PAGE_SIZE = 200  # the most per-page allows
SEARCH_FILTER = {"title": "title.search", "abstract": "abstract.search"}
KIND_BY_TYPE = {"review": "review", "preprint": "preprint", "article": "article"}
CSL_TYPE = {
    "journal-article": "article-journal",
    "proceedings-article": "paper-conference",
    "posted-content": "article",
    "book-chapter": "chapter",
    "book": "book",
    "monograph": "book",
    "dissertation": "thesis",
    "dataset": "dataset",
    "report": "report",
    "preprint": "article",
    "review": "article-journal",
    "article": "article-journal",
}


def _value(text: str) -> str:
    # Commas separate filters and pipes mean OR inside a filter value.
    return " ".join(text.replace(",", " ").replace("|", " ").split())


def search_expression(query: Query) -> str:
    return " AND ".join(
        [*(quote(p) for p in query.phrases), *query.terms, *(quote(m) for m in query.mesh)]
    )


def translate(query: Query, limit: int) -> dict[str, str]:
    filters = []
    expression = search_expression(query)
    params: dict[str, str] = {"per-page": str(min(limit, 200))}
    if query.field == "all":
        if expression:
            params["search"] = expression
    elif expression:
        filters.append(f"{SEARCH_FILTER[query.field]}:{_value(expression)}")
    for author in query.authors:
        filters.append(f"raw_author_name.search:{_value(author)}")
    if query.year_from:
        filters.append(f"from_publication_date:{query.year_from}-01-01")
    if query.year_to:
        filters.append(f"to_publication_date:{query.year_to}-12-31")
    if query.types:
        filters.append("type:" + "|".join(sorted(query.types)))
    if query.languages:
        filters.append("language:" + "|".join(query.languages))
    if query.open_access:
        filters.append("is_oa:true")
    if query.min_citations:
        filters.append(f"cited_by_count:>{query.min_citations - 1}")
    if filters:
        params["filter"] = ",".join(filters)
    return params


def parse_works(body: bytes | str) -> list[SearchRecord]:
    """Records from a list page ({"meta", "results"}) or a single work object."""
    data = load_json("openalex", body)
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        works = data["results"]
    elif isinstance(data, dict) and (data.get("id") or data.get("doi")):
        works = [data]
    else:
        detail = data.get("error") or data.get("message") if isinstance(data, dict) else None
        raise ParseError("openalex", f"unexpected reply: {detail or str(data)[:80]}")
    return [work_record(w) for w in works if isinstance(w, dict)]


def abstract_from_index(index: dict[str, list[int]] | None) -> str:
    """The abstract text rebuilt from OpenAlex's inverted index (word -> positions)."""
    if not index:
        return ""
    positions = [(pos, word) for word, where in index.items() for pos in where]
    return " ".join(word for _, word in sorted(positions))


def work_record(work: dict[str, Any]) -> SearchRecord:
    ids_block = work.get("ids") or {}
    ids = {
        "openalex": work.get("id") or ids_block.get("openalex"),
        "doi": work.get("doi") or ids_block.get("doi"),
        "pmid": ids_block.get("pmid"),
        "pmcid": ids_block.get("pmcid"),
    }
    location = work.get("primary_location") or {}
    source = location.get("source") or {}
    biblio = work.get("biblio") or {}
    pages = "-".join(p for p in (biblio.get("first_page"), biblio.get("last_page")) if p)
    if biblio.get("first_page") and biblio.get("first_page") == biblio.get("last_page"):
        pages = biblio["first_page"]
    oa = work.get("open_access") or {}
    best = work.get("best_oa_location") or {}
    work_type = work.get("type")
    crossref_type = work.get("type_crossref")
    kind = KIND_BY_TYPE.get(work_type or "")
    if crossref_type == "posted-content" and kind == "article":
        kind = "preprint"
    csl_type = CSL_TYPE.get(crossref_type or "") or CSL_TYPE.get(work_type or "", "article-journal")
    if kind == "preprint":
        csl_type = "article"
    names = []
    for authorship in work.get("authorships") or []:
        author = authorship.get("author") or {}
        names.append(
            parse_name(author.get("display_name") or authorship.get("raw_author_name") or "")
        )
    issued = parts_from_iso(work.get("publication_date")) or (
        [work["publication_year"]] if as_int(work.get("publication_year")) else None
    )
    issns = source.get("issn") or []
    record = make_record(
        "openalex",
        csl_type=csl_type,
        title=work.get("display_name") or work.get("title") or "",
        names=names,
        issued=issued,
        ids=ids,
        abstract=abstract_from_index(work.get("abstract_inverted_index")),
        container=source.get("display_name"),
        volume=biblio.get("volume"),
        issue=biblio.get("issue"),
        page=pages,
        publisher=source.get("host_organization_name"),
        issn=issns[0] if issns else None,
        url=location.get("landing_page_url") or work.get("doi"),
        language=work.get("language"),
        kind=kind,
        open_access=bool(oa.get("is_oa")),
        pdf_url=best.get("pdf_url") or oa.get("oa_url"),
        citations=as_int(work.get("cited_by_count")),
    )
    if work.get("is_retracted") is True:
        record.retraction = "OpenAlex is_retracted"
    return record


class OpenAlexSource(Source):
    name = "openalex"

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        params = translate(query, limit)
        if self.settings.api_key:
            params["api_key"] = self.settings.api_key
        if self.settings.mailto:
            params["mailto"] = self.settings.mailto

        async def page(offset: int, size: int, cursor: str | None) -> Page:
            paged = {**params, "per-page": str(size)}
            if offset:
                paged["page"] = str(page_number(offset, size))
            response = await fetch.get(f"{self.base_url}/works", self.params(paged))
            return Page(parse_works(response.body), json_total(response.body, "meta", "count"))

        collected = await collect(page, limit, PAGE_SIZE)
        self.total = collected.total
        return collected.records
