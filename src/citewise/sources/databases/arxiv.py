"""arXiv: the export API (Atom), queried with ti:/abs:/all: prefixes and submittedDate ranges;
also reads OAI-PMH `arXiv` metadata records."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from citewise.sources.base import Fetcher, ParseError, Source, as_int, load_xml
from citewise.sources.csl import csl_name, parse_name, parts_from_iso
from citewise.sources.databases.paging import Page, collect
from citewise.sources.query import Query, quote
from citewise.sources.record import SearchRecord, make_record, normalize_arxiv

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
OAI = "{http://www.openarchives.org/OAI/2.0/}"
OAI_ARXIV = "{http://arxiv.org/OAI/arXiv/}"

PAGE_SIZE = 100  # the export API's advice for one request
PREFIX = {"all": "all", "title": "ti", "abstract": "abs"}


def translate(query: Query, limit: int, review_words: tuple[str, ...] = ()) -> dict[str, str]:
    """Export-API parameters: every word and phrase ANDed under the field's prefix; a search
    for reviews only also asks for one of `review_words` in the title (arXiv has no record
    type for a survey, but surveys say so in their titles)."""
    prefix = PREFIX[query.field]
    clauses = [f"{prefix}:{quote(p)}" for p in query.phrases]
    clauses += [f"{prefix}:{t}" for t in query.terms]
    if review_words and "review" in query.types and not query.types & ArxivSource.kinds:
        titles = (f"ti:{w}" if w.isalnum() else f"ti:{quote(w)}" for w in review_words)
        clauses.append("(" + " OR ".join(titles) + ")")
    clauses += [f"all:{quote(m)}" for m in query.mesh]
    clauses += [f"au:{quote(a)}" for a in query.authors]
    if query.year_from or query.year_to:
        start = f"{query.year_from or 1991}01010000"
        end = f"{query.year_to or 9999}12312359"
        clauses.append(f"submittedDate:[{start} TO {end}]")
    if query.added_since:
        clauses.append(f"submittedDate:[{query.added_since.replace('-', '')}0000 TO 999912312359]")
    return {
        "search_query": " AND ".join(clauses),
        "start": "0",
        "max_results": str(limit),
        "sortBy": "submittedDate" if query.added_since else "relevance",
        "sortOrder": "descending",
    }


def parse_total(body: bytes | str) -> int | None:
    """opensearch:totalResults of an export-API feed."""
    return as_int(load_xml("arxiv", body).findtext(f"{OPENSEARCH}totalResults"))


def parse_feed(body: bytes | str) -> list[SearchRecord]:
    """Records from an export-API Atom feed; an error entry becomes a ParseError."""
    root = load_xml("arxiv", body)
    if root.tag != f"{ATOM}feed":
        raise ParseError("arxiv", f"expected an Atom feed, got <{root.tag}>")
    records = []
    for entry in root.findall(f"{ATOM}entry"):
        entry_id = entry.findtext(f"{ATOM}id") or ""
        if "/api/errors" in entry_id:
            raise ParseError("arxiv", clean(entry.findtext(f"{ATOM}summary")) or "error entry")
        records.append(_entry(entry))
    return records


def _entry(entry: ET.Element) -> SearchRecord:
    arxiv_id = normalize_arxiv((entry.findtext(f"{ATOM}id") or "").rsplit("/abs/", 1)[-1])
    pdf = None
    for link in entry.findall(f"{ATOM}link"):
        if link.get("title") == "pdf" or link.get("type") == "application/pdf":
            pdf = link.get("href")
    names = [parse_name(a.findtext(f"{ATOM}name") or "") for a in entry.findall(f"{ATOM}author")]
    journal_doi = entry.findtext(f"{ARXIV}doi")
    return make_record(
        "arxiv",
        csl_type="article",
        title=clean(entry.findtext(f"{ATOM}title")),
        names=names,
        issued=parts_from_iso(entry.findtext(f"{ATOM}published")),
        # The journal DOI of the published version, when the authors gave one, ties the
        # preprint to it.
        ids={"arxiv": arxiv_id, "doi": journal_doi},
        abstract=clean(entry.findtext(f"{ATOM}summary")),
        url=f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else None,
        kind="preprint",
        open_access=True,
        pdf_url=pdf,
    )


def parse_oai(body: bytes | str) -> list[SearchRecord]:
    """Records from an OAI-PMH GetRecord/ListRecords reply with metadataPrefix=arXiv."""
    root = load_xml("arxiv", body)
    if root.tag != f"{OAI}OAI-PMH":
        raise ParseError("arxiv", f"expected an OAI-PMH reply, got <{root.tag}>")
    records = []
    for meta in root.iter(f"{OAI_ARXIV}arXiv"):
        arxiv_id = normalize_arxiv(meta.findtext(f"{OAI_ARXIV}id"))
        names = []
        for author in meta.iter(f"{OAI_ARXIV}author"):
            family = (author.findtext(f"{OAI_ARXIV}keyname") or "").strip()
            given = author.findtext(f"{OAI_ARXIV}forenames")
            if family.strip(":;,. "):
                names.append(csl_name(family, given))
        records.append(
            make_record(
                "arxiv",
                csl_type="article",
                title=clean(meta.findtext(f"{OAI_ARXIV}title")),
                names=names,
                issued=parts_from_iso(meta.findtext(f"{OAI_ARXIV}created")),
                ids={"arxiv": arxiv_id, "doi": meta.findtext(f"{OAI_ARXIV}doi")},
                abstract=clean(meta.findtext(f"{OAI_ARXIV}abstract")),
                url=f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else None,
                kind="preprint",
                open_access=True,
                pdf_url=f"https://arxiv.org/pdf/{arxiv_id}" if arxiv_id else None,
            )
        )
    return records


def clean(text: str | None) -> str:
    return " ".join((text or "").split())


class ArxivSource(Source):
    name = "arxiv"
    kinds = frozenset({"preprint"})

    def skip_reason(self, query: Query) -> str | None:
        """A search for reviews is asked of arXiv by title words (sources.yaml's
        review_title_words), not skipped."""
        if query.types == frozenset({"review"}) and self.settings.review_title_words:
            return super().skip_reason(replace(query, types=self.kinds))
        return super().skip_reason(query)

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        words = tuple(self.settings.review_title_words)

        async def page(offset: int, size: int, cursor: str | None) -> Page:
            params = {**translate(query, size, words), "start": str(offset)}
            response = await fetch.get(f"{self.base_url}/query", self.params(params))
            return Page(parse_feed(response.body), parse_total(response.body))

        collected = await collect(page, limit, PAGE_SIZE)
        self.total = collected.total
        return collected.records
