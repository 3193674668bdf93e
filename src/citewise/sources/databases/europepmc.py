"""Europe PMC REST `/search`: TITLE/ABSTRACT/AUTH/PUB_YEAR/OPEN_ACCESS fields, resultType=core,
paged with `cursorMark` (`page` is ignored by the API)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from citewise.sources.base import Fetcher, ParseError, Source, as_int, load_json, load_xml
from citewise.sources.csl import csl_name, parse_name, parts_from_iso
from citewise.sources.databases.paging import Page, collect, json_total
from citewise.sources.query import LANGUAGE_CODES, Query, quote
from citewise.sources.record import SearchRecord, make_record

FIELD = {"all": "", "title": "TITLE:", "abstract": "ABSTRACT:"}
PUB_TYPE = {
    "review": 'PUB_TYPE:"review"',
    "preprint": "SRC:PPR",
    "article": 'PUB_TYPE:"journal article"',
}
DESIGN = {
    "meta-analysis": 'PUB_TYPE:"meta-analysis"',
    "systematic-review": 'PUB_TYPE:"systematic review"',
    "rct": 'PUB_TYPE:"randomized controlled trial"',
}
PAGE_SIZE_MAX = 1000


def _any(clauses: list[str]) -> list[str]:
    if not clauses:
        return []
    return [clauses[0] if len(clauses) == 1 else "(" + " OR ".join(clauses) + ")"]


def translate(query: Query, limit: int, cursor: str = "*") -> dict[str, str]:
    prefix = FIELD[query.field]
    headings = dict(query.headings)
    clauses = [
        f"({prefix}{quote(p)} OR MESH:{quote(headings[p])})"
        if p in headings
        else f"{prefix}{quote(p)}"
        for p in query.phrases
    ]
    clauses += [f"{prefix}{t}" for t in query.terms]
    clauses += [f"MESH:{quote(m)}" for m in query.mesh]
    clauses += [f"AUTH:{quote(a)}" for a in query.authors]
    if query.year_from or query.year_to:
        clauses.append(f"PUB_YEAR:[{query.year_from or 1000} TO {query.year_to or 3000}]")
    clauses += _any([PUB_TYPE[k] for k in sorted(query.types)])
    clauses += _any([DESIGN[d] for d in sorted(query.designs)])
    clauses += _any([f"LANG:{LANGUAGE_CODES[c][1]}" for c in query.languages])
    if query.open_access:
        clauses.append("OPEN_ACCESS:y")
    return {
        "query": " AND ".join(clauses),
        "resultType": "core",
        "pageSize": str(min(limit, PAGE_SIZE_MAX)),
        "cursorMark": cursor,
        "format": "json",
    }


def parse_search(body: bytes | str) -> tuple[list[SearchRecord], str | None]:
    """(records, next cursor or None at the end) from a JSON or XML search reply."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    if text.lstrip().startswith("<"):
        return _parse_xml(load_xml("europepmc", body))
    data = load_json("europepmc", body)
    if not isinstance(data, dict) or "hitCount" not in data:
        # Under load the API has answered 200 with only {"version": ...}.
        raise ParseError("europepmc", f"reply without results: {str(data)[:80]}")
    results = (data.get("resultList") or {}).get("result") or []
    return [result_record(r) for r in results if isinstance(r, dict)], data.get("nextCursorMark")


def _parse_xml(root: ET.Element) -> tuple[list[SearchRecord], str | None]:
    if root.tag != "responseWrapper":
        raise ParseError("europepmc", f"expected responseWrapper, got <{root.tag}>")
    records = []
    for result in root.findall("resultList/result"):
        # The lite result is flat; nested lists of the core result are not needed here.
        flat = {child.tag: (child.text or "") for child in result if len(child) == 0}
        records.append(result_record(flat))
    return records, root.findtext("nextCursorMark")


def result_record(result: dict[str, Any]) -> SearchRecord:
    journal_info = result.get("journalInfo") or {}
    journal = journal_info.get("journal") or {}
    type_text = _type_text(result)
    preprint = result.get("source") == "PPR" or "preprint" in type_text
    kind = "preprint" if preprint else ("review" if "review" in type_text else "article")
    pmcid = result.get("pmcid")
    pdf = _pdf_url(result, pmcid)
    issn = journal.get("issn") or (result.get("journalIssn") or "").split(";")[0].strip()
    source_id = f"{result.get('source')}/{result.get('id')}" if result.get("id") else None
    record = make_record(
        "europepmc",
        csl_type="article" if preprint else "article-journal",
        title=result.get("title") or "",
        names=_names(result),
        issued=parts_from_iso(result.get("firstPublicationDate"))
        or ([int(result["pubYear"])] if as_int(result.get("pubYear")) else None),
        ids={"pmid": result.get("pmid"), "pmcid": pmcid, "doi": result.get("doi")},
        abstract=result.get("abstractText") or "",
        container=journal.get("title") or result.get("journalTitle"),
        volume=journal_info.get("volume") or result.get("journalVolume"),
        issue=journal_info.get("issue") or result.get("issue"),
        page=result.get("pageInfo"),
        issn=issn or None,
        url=f"https://europepmc.org/article/{source_id}" if source_id else None,
        language=result.get("language"),
        kind=kind,
        open_access=result.get("isOpenAccess") == "Y",
        pdf_url=pdf,
        citations=as_int(result.get("citedByCount")),
    )
    if "retracted publication" in type_text:
        record.retraction = "Europe PMC publication type Retracted Publication"
    return record


def _names(result: dict[str, Any]) -> list[dict[str, str]]:
    """The authors as CSL names: from the author list when there is one, else the string."""
    authors = (result.get("authorList") or {}).get("author")
    if not authors:
        return [parse_name(n) for n in (result.get("authorString") or "").rstrip(".").split(",")]
    return [
        {"literal": a["collectiveName"]}
        if a.get("collectiveName")
        else csl_name(a.get("lastName"), a.get("firstName") or a.get("initials"))
        if a.get("lastName")
        else parse_name(a.get("fullName") or "")
        for a in authors
        if isinstance(a, dict)
    ]


def _type_text(result: dict[str, Any]) -> str:
    """The publication types, lower case, space-separated."""
    pub_types = (
        result.get("pubTypeList", {}).get("pubType")
        if isinstance(result.get("pubTypeList"), dict)
        else None
    )
    type_text = (
        " ".join(pub_types) if isinstance(pub_types, list) else (result.get("pubType") or "")
    )
    lowered: str = type_text.lower()
    return lowered


def _pdf_url(result: dict[str, Any], pmcid: str | None) -> str | None:
    """The first open PDF link the result lists, else Europe PMC's rendering of a PMC article."""
    entries = (result.get("fullTextUrlList") or {}).get("fullTextUrl") or []
    pdf: str | None = next(
        (
            e.get("url")
            for e in entries
            if e.get("documentStyle") == "pdf" and e.get("availabilityCode") in ("OA", "F")
        ),
        None,
    )
    if not pdf and pmcid and result.get("hasPDF") == "Y":
        pdf = f"https://europepmc.org/articles/{pmcid}?pdf=render"
    return pdf


class EuropePmcSource(Source):
    name = "europepmc"

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:

        async def page(offset: int, size: int, cursor: str | None) -> Page:
            params = self.params(translate(query, size, cursor or "*"))
            if self.settings.mailto:
                params.setdefault("email", self.settings.mailto)
            response = await fetch.get(f"{self.base_url}/search", params)
            records, next_cursor = parse_search(response.body)
            total = json_total(response.body, "hitCount")
            # No next cursor means the end; collect() also stops on a repeated one.
            return Page(records, total, next_cursor, last=next_cursor is None)

        collected = await collect(page, limit, PAGE_SIZE_MAX)
        self.total = collected.total
        return collected.records
