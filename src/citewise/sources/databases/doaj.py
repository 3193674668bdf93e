"""DOAJ (v4 search path `/search/articles/{query}`): Elasticsearch query_string in the URL
path, `bibjson.*` fields. Every article in DOAJ is open access."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote as url_quote

from citewise.sources.base import Fetcher, ParseError, Source, load_json
from citewise.sources.csl import date_parts, parse_name
from citewise.sources.databases.paging import Page, collect, json_total, page_number
from citewise.sources.query import Query, quote
from citewise.sources.record import SearchRecord, make_record

FIELD = {"all": "", "title": "bibjson.title:", "abstract": "bibjson.abstract:"}


def translate(query: Query, limit: int) -> tuple[str, dict[str, str]]:
    """(query_string for the path, URL parameters)."""
    prefix = FIELD[query.field]
    clauses = [f"{prefix}{quote(p)}" for p in query.phrases]
    clauses += [f"{prefix}{t}" for t in query.terms]
    clauses += [quote(m) for m in query.mesh]
    clauses += [f"bibjson.author.name:{quote(a)}" for a in query.authors]
    if query.year_from or query.year_to:
        clauses.append(f"bibjson.year:[{query.year_from or '*'} TO {query.year_to or '*'}]")
    return " AND ".join(clauses), {"pageSize": str(min(limit, 100)), "page": "1"}


def search_path(query_string: str) -> str:
    return "/search/articles/" + url_quote(query_string, safe="")


def parse_articles(body: bytes | str) -> list[SearchRecord]:
    """Records from a search reply ({"total", "results"}) or one article ({"bibjson"})."""
    data = load_json("doaj", body)
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        articles = data["results"]
    elif isinstance(data, dict) and "bibjson" in data:
        articles = [data]
    else:
        detail = data.get("error") if isinstance(data, dict) else None
        raise ParseError("doaj", f"unexpected reply: {detail or str(data)[:80]}")
    return [article_record(a) for a in articles if isinstance(a, dict)]


def article_record(article: dict[str, Any]) -> SearchRecord:
    bib = article.get("bibjson") or {}
    journal = bib.get("journal") or {}
    identifiers = {i.get("type", "").lower(): i.get("id") for i in bib.get("identifier") or []}
    links = [link for link in bib.get("link") or [] if isinstance(link, dict)]
    fulltext = next((link.get("url") for link in links if link.get("type") == "fulltext"), None)
    pdf = next(
        (link.get("url") for link in links if (link.get("content_type") or "").upper() == "PDF"),
        None,
    )
    pages = "-".join(p for p in (bib.get("start_page"), bib.get("end_page")) if p)
    languages = journal.get("language") or []
    return make_record(
        "doaj",
        csl_type="article-journal",
        title=bib.get("title") or "",
        names=[
            parse_name(a.get("name") or "") for a in bib.get("author") or [] if isinstance(a, dict)
        ],
        issued=date_parts(bib.get("year"), bib.get("month")),
        ids={"doaj": article.get("id"), "doi": identifiers.get("doi")},
        abstract=bib.get("abstract") or "",
        container=journal.get("title"),
        volume=journal.get("volume"),
        issue=journal.get("number"),
        page=pages,
        publisher=journal.get("publisher"),
        issn=identifiers.get("eissn") or identifiers.get("pissn"),
        url=fulltext
        or (f"https://doaj.org/article/{article['id']}" if article.get("id") else None),
        language=str(languages[0]).lower() if languages else None,
        kind="article",
        open_access=True,
        pdf_url=pdf,
        keywords=[str(k) for k in bib.get("keywords") or []][:10],
    )


class DoajSource(Source):
    name = "doaj"
    kinds = frozenset({"article", "review"})

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        query_string, params = translate(query, limit)
        url = self.base_url + search_path(query_string)

        async def page(offset: int, size: int, cursor: str | None) -> Page:
            paged = {**params, "pageSize": str(size), "page": str(page_number(offset, size))}
            response = await fetch.get(url, self.params(paged))
            return Page(parse_articles(response.body), json_total(response.body, "total"))

        collected = await collect(page, limit, 100)
        self.total = collected.total
        return collected.records
