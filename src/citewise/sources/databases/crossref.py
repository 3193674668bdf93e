"""Crossref REST `/works`: `query.bibliographic` (or `query.title`), `query.author`, and
`filter=` for dates and types; `mailto` puts citewise in the polite pool."""

from __future__ import annotations

from typing import Any

from citewise.sources.base import Fetcher, ParseError, Source, as_int, load_json
from citewise.sources.csl import csl_name, date_parts, parse_name
from citewise.sources.databases.paging import Page, collect, json_total
from citewise.sources.query import Query
from citewise.sources.record import SearchRecord, make_record, normalize_ids, record_key

CSL_TYPE = {
    "journal-article": "article-journal",
    "proceedings-article": "paper-conference",
    "posted-content": "article",
    "book-chapter": "chapter",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "reference-book": "book",
    "dissertation": "thesis",
    "report": "report",
    "dataset": "dataset",
    "reference-entry": "entry",
    "peer-review": "review",
    "standard": "standard",
}
KIND = {
    "journal-article": "article",
    "proceedings-article": "article",
    "posted-content": "preprint",
}
TYPE_FILTER = {"article": "journal-article", "preprint": "posted-content"}


def translate(query: Query, limit: int) -> dict[str, str]:
    """Crossref has no boolean operators: words go to a field query, the rest to filters."""
    params: dict[str, str] = {"rows": str(min(limit, 1000))}
    text = " ".join([*query.phrases, *query.terms, *query.mesh])
    if text:
        params["query.title" if query.field == "title" else "query.bibliographic"] = text
    if query.authors:
        params["query.author"] = " ".join(query.authors)
    filters = []
    if query.year_from:
        filters.append(f"from-pub-date:{query.year_from}-01-01")
    if query.year_to:
        filters.append(f"until-pub-date:{query.year_to}-12-31")
    # A repeated filter is OR in Crossref.
    filters += [f"type:{TYPE_FILTER[k]}" for k in sorted(query.types) if k in TYPE_FILTER]
    if filters:
        params["filter"] = ",".join(filters)
    return params


def parse_works(body: bytes | str) -> list[SearchRecord]:
    """Records from a work-list reply, a single-work reply, or Crossref's own (not quite
    valid) CSL-JSON transform of one work."""
    data = load_json("crossref", body)
    if not isinstance(data, dict):
        raise ParseError("crossref", f"unexpected reply: {str(data)[:80]}")
    if data.get("status") == "failed":
        raise ParseError("crossref", f"request failed: {str(data.get('message'))[:120]}")
    message = data.get("message") if "message-type" in data else data
    if isinstance(message, dict) and isinstance(message.get("items"), list):
        items = message["items"]
    elif isinstance(message, dict) and message.get("DOI"):
        items = [message]
    else:
        raise ParseError("crossref", "reply holds no works")
    return [item_record(i) for i in items if isinstance(i, dict)]


def _issued(item: dict[str, Any]) -> list[int] | None:
    for key in ("issued", "published", "published-print", "published-online", "created"):
        parts = ((item.get(key) or {}).get("date-parts") or [[None]])[0]
        if parts and parts[0] is not None:
            found = date_parts(*parts[:3])
            if found:
                return found
    return None


def _first(value: Any) -> str | None:
    if isinstance(value, list):
        return str(value[0]) if value else None
    return str(value) if value else None


def item_record(item: dict[str, Any]) -> SearchRecord:
    work_type = item.get("type") or ""
    kind = KIND.get(work_type)
    if work_type == "posted-content" and item.get("subtype") not in (None, "preprint"):
        kind = None
    names = []
    for author in item.get("author") or []:
        if author.get("family"):
            names.append(csl_name(author["family"], author.get("given")))
        elif author.get("name") or author.get("literal"):
            names.append({"literal": author.get("name") or author.get("literal")})
        else:
            names.append(parse_name(author.get("given") or ""))
    licenses = [lic.get("URL", "") for lic in item.get("license") or [] if isinstance(lic, dict)]
    open_access = any("creativecommons.org" in url for url in licenses)
    pdf = None
    if open_access:
        pdf = next(
            (
                link.get("URL")
                for link in item.get("link") or []
                if link.get("content-type") == "application/pdf"
            ),
            None,
        )
    record = make_record(
        "crossref",
        csl_type=CSL_TYPE.get(work_type, "article-journal" if not work_type else "document"),
        title=_first(item.get("title")) or "",
        names=names,
        issued=_issued(item),
        ids={"doi": item.get("DOI")},
        abstract=item.get("abstract") or "",
        container=_first(item.get("container-title")),
        volume=item.get("volume"),
        issue=item.get("issue"),
        page=item.get("page"),
        publisher=item.get("publisher"),
        issn=_first(item.get("ISSN")),
        url=item.get("URL") or (f"https://doi.org/{item['DOI']}" if item.get("DOI") else None),
        language=item.get("language"),
        kind=kind,
        open_access=open_access,
        pdf_url=pdf,
        citations=as_int(item.get("is-referenced-by-count")),
    )
    # Crossref's own preprint <-> article links keep the versions connected.
    relation = item.get("relation") or {}
    for name in ("is-preprint-of", "has-preprint"):
        for target in relation.get(name) or []:
            if target.get("id-type") == "doi" and target.get("id"):
                record.related.append(record_key(normalize_ids({"doi": str(target["id"])})))
    _retraction(item, record)
    return record


RETRACTION_TYPES = {"retraction", "removal", "withdrawal"}


def _retraction(item: dict[str, Any], record: SearchRecord) -> None:
    """Crossref's update notices: `updated-by` on a retracted work, `update-to` on the
    notice that retracts another."""
    for update in item.get("updated-by") or []:
        if isinstance(update, dict) and update.get("type") in RETRACTION_TYPES:
            notice = update.get("DOI") or "a notice"
            record.retraction = f"Crossref {update['type']} ({notice})"
    for update in item.get("update-to") or []:
        if isinstance(update, dict) and update.get("type") in RETRACTION_TYPES:
            doi = normalize_ids({"doi": str(update.get("DOI") or "")}).get("doi")
            if doi:
                record.retracts.append(doi)


class CrossrefSource(Source):
    name = "crossref"
    kinds = frozenset({"article", "preprint"})

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        params = translate(query, limit)
        if self.settings.mailto:
            params["mailto"] = self.settings.mailto

        async def page(offset: int, size: int, cursor: str | None) -> Page:
            paged = {**params, "rows": str(size)}
            if offset:
                paged["offset"] = str(offset)
            response = await fetch.get(f"{self.base_url}/works", self.params(paged))
            total = json_total(response.body, "message", "total-results")
            return Page(parse_works(response.body), total)

        collected = await collect(page, limit, 1000)
        self.total = collected.total
        return collected.records
