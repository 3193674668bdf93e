"""CORE v3 `/search/works` (Lucene-like `q`, Bearer API key). Without a key the source is
skipped with a notice. Also reads the retired v2 search replies found in old fixtures."""

from __future__ import annotations

from typing import Any

from citewise.sources.base import Fetcher, ParseError, Source, as_int, load_json
from citewise.sources.csl import parse_name, parts_from_iso
from citewise.sources.databases.paging import Page, collect, json_total
from citewise.sources.query import Query, quote
from citewise.sources.record import SearchRecord, make_record

FIELD = {"all": "", "title": "title:", "abstract": "abstract:"}


def translate(query: Query, limit: int) -> dict[str, str]:
    """`q` in CORE's query language; values are quoted because a bare `title:x` may match
    nothing."""
    prefix = FIELD[query.field]
    clauses = [f"{prefix}{quote(p)}" for p in query.phrases]
    clauses += [f"{prefix}{quote(t)}" if prefix else t for t in query.terms]
    clauses += [quote(m) for m in query.mesh]
    clauses += [f"authors:{quote(a)}" for a in query.authors]
    if query.year_from:
        clauses.append(f"yearPublished>={query.year_from}")
    if query.year_to:
        clauses.append(f"yearPublished<={query.year_to}")
    return {"q": " AND ".join(clauses), "limit": str(min(limit, 100))}


def parse_works(body: bytes | str) -> list[SearchRecord]:
    """Records from a v3 search reply ({"totalHits", "results"}) or a single v3 work."""
    data = load_json("core", body)
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        works = data["results"]
    elif isinstance(data, dict) and data.get("id") and "title" in data:
        works = [data]
    elif isinstance(data, (dict, list)) and _is_legacy(data):
        return parse_legacy_v2(data)
    else:
        detail = data.get("message") if isinstance(data, dict) else None
        raise ParseError("core", f"unexpected reply: {detail or str(data)[:80]}")
    return [work_record(w) for w in works if isinstance(w, dict)]


def work_record(work: dict[str, Any]) -> SearchRecord:
    identifiers = {
        i.get("type"): i.get("identifier")
        for i in work.get("identifiers") or []
        if isinstance(i, dict)
    }
    ids = {
        "core": str(work["id"]) if work.get("id") is not None else None,
        "doi": work.get("doi") or identifiers.get("DOI"),
        "arxiv": work.get("arxivId") or identifiers.get("ARXIV_ID"),
        "pmid": work.get("pubmedId") or identifiers.get("PUBMED_ID"),
    }
    journals = work.get("journals") or []
    journal = journals[0] if journals and isinstance(journals[0], dict) else {}
    issns = [str(i).removeprefix("issn:") for i in journal.get("identifiers") or []]
    links = {
        link.get("type"): link.get("url")
        for link in work.get("links") or []
        if isinstance(link, dict)
    }
    document_type = (work.get("documentType") or "").lower()
    kind = "preprint" if document_type == "preprint" else ("article" if ids["doi"] else None)
    language = work.get("language")
    return make_record(
        "core",
        csl_type="thesis"
        if document_type == "thesis"
        else ("article" if kind != "article" else "article-journal"),
        title=work.get("title") or "",
        names=[
            parse_name(a.get("name") or "")
            for a in work.get("authors") or []
            if isinstance(a, dict)
        ],
        issued=parts_from_iso(work.get("publishedDate"))
        or ([work["yearPublished"]] if as_int(work.get("yearPublished")) else None),
        ids=ids,
        abstract=work.get("abstract") or "",
        container=journal.get("title"),
        publisher=work.get("publisher"),
        issn=issns[0] if issns else None,
        url=links.get("display")
        or (f"https://core.ac.uk/works/{ids['core']}" if ids["core"] else None),
        language=language.get("code") if isinstance(language, dict) else None,
        kind=kind,
        # CORE aggregates open repositories; a download link means a readable copy.
        open_access=bool(work.get("downloadUrl")),
        pdf_url=work.get("downloadUrl") or links.get("download"),
        citations=as_int(work.get("citationCount")),
    )


def _is_legacy(data: Any) -> bool:
    if isinstance(data, list):
        return all(isinstance(d, dict) and "totalHits" in d for d in data)
    return isinstance(data, dict) and "totalHits" in data and "status" in data


def parse_legacy_v2(data: Any) -> list[SearchRecord]:
    """Records from the retired v2 API ({"status", "totalHits", "data": [{"_source"}]})."""
    pages = data if isinstance(data, list) else [data]
    records = []
    for page in pages:
        for hit in page.get("data") or []:
            item = hit.get("_source", hit) if isinstance(hit, dict) else {}
            records.append(
                make_record(
                    "core",
                    csl_type="article",
                    title=item.get("title") or "",
                    names=[parse_name(a) for a in item.get("authors") or [] if isinstance(a, str)],
                    issued=parts_from_iso(item.get("datePublished"))
                    or ([item["year"]] if as_int(item.get("year")) else None),
                    ids={"core": str(item.get("id") or ""), "doi": item.get("doi")},
                    abstract=item.get("description") or "",
                    publisher=item.get("publisher"),
                    url=f"https://core.ac.uk/display/{item['id']}" if item.get("id") else None,
                    open_access=bool(item.get("downloadUrl")),
                    pdf_url=item.get("downloadUrl") or None,
                )
            )
    return records


class CoreSource(Source):
    name = "core"
    kinds = frozenset({"article", "preprint"})
    needs_key = True

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        headers = {"Authorization": f"Bearer {self.settings.api_key}"}

        async def page(offset: int, size: int, cursor: str | None) -> Page:
            params = translate(query, size)
            if offset:
                params["offset"] = str(offset)
            url = f"{self.base_url}/search/works"
            response = await fetch.get(url, self.params(params), headers)
            return Page(parse_works(response.body), json_total(response.body, "totalHits"))

        collected = await collect(page, limit, 100)
        self.total = collected.total
        return collected.records
