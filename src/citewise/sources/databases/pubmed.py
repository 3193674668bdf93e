"""PubMed through NCBI E-utilities: esearch for PMIDs ([tiab], [au], [mh], [dp], [pt]
tags), then efetch for the article XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from citewise.sources.base import Fetcher, ParseError, Source, as_int, load_xml
from citewise.sources.csl import csl_name, date_parts, parse_name, season_month
from citewise.sources.databases.paging import Page, collect
from citewise.sources.query import LANGUAGE_CODES, Query, quote
from citewise.sources.record import SearchRecord, make_record

PAGE_SIZE = 200  # esearch ids per page; efetch takes them in one request
TAG = {"all": "[tiab]", "title": "[ti]", "abstract": "[ab]"}
PUBLICATION_TYPE = {
    "review": "review[pt]",
    "preprint": "preprint[pt]",
    "article": "journal article[pt]",
}
DESIGN = {
    "meta-analysis": "meta-analysis[pt]",
    "systematic-review": "systematic review[pt]",
    "rct": "randomized controlled trial[pt]",
}


def _any(clauses: list[str]) -> list[str]:
    """One clause, or an OR group; nothing for none."""
    if not clauses:
        return []
    return [clauses[0] if len(clauses) == 1 else "(" + " OR ".join(clauses) + ")"]


def translate(query: Query, limit: int) -> dict[str, str]:
    """esearch parameters: a tagged boolean term, most relevant first (newest first when
    watching for records added since a date)."""
    tag = TAG[query.field]
    headings = dict(query.headings)
    clauses = [
        f"({quote(p)}{tag} OR {quote(headings[p])}[mh])" if p in headings else f"{quote(p)}{tag}"
        for p in query.phrases
    ]
    clauses += [f"{t}{tag}" for t in query.terms]
    clauses += [f"{quote(m)}[mh]" for m in query.mesh]
    clauses += [f"{quote(a)}[au]" for a in query.authors]
    if query.year_from or query.year_to:
        clauses.append(f"{query.year_from or 1800}:{query.year_to or 3000}[dp]")
    clauses += _any([PUBLICATION_TYPE[k] for k in sorted(query.types)])
    clauses += _any([DESIGN[d] for d in sorted(query.designs)])
    clauses += _any([f"{LANGUAGE_CODES[c][0]}[la]" for c in query.languages])
    if query.open_access:
        clauses.append('"free full text"[sb]')
    params = {"db": "pubmed", "term": " AND ".join(clauses), "retmax": str(limit)}
    if query.added_since:
        # Entrez date: when the record entered PubMed, whatever its publication date.
        params.update(
            datetype="edat",
            mindate=query.added_since.replace("-", "/"),
            maxdate="3000",
            sort="pub_date",
        )
    else:
        params["sort"] = "relevance"
    return params


def parse_esearch(body: bytes | str) -> list[str]:
    """PMIDs from an esearch reply (an empty list when nothing matched)."""
    root = load_xml("pubmed", body)
    if root.tag != "eSearchResult":
        raise ParseError("pubmed", f"expected eSearchResult, got <{root.tag}>")
    error = root.findtext("ERROR")
    if error:
        raise ParseError("pubmed", error)
    return [i.text.strip() for i in root.findall("IdList/Id") if i.text]


def parse_count(body: bytes | str) -> int | None:
    """The number of matching records esearch reports (its Count)."""
    return as_int(load_xml("pubmed", body).findtext("Count"))


def parse_efetch(body: bytes | str) -> list[SearchRecord]:
    """Records from an efetch PubmedArticleSet."""
    root = load_xml("pubmed", body)
    if root.tag != "PubmedArticleSet":
        raise ParseError("pubmed", f"expected PubmedArticleSet, got <{root.tag}>")
    return [_article(a) for a in root.findall("PubmedArticle")]


def _text(element: ET.Element | None) -> str:
    """All text inside an element, tags (HTML, MathML) flattened."""
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def _article(node: ET.Element) -> SearchRecord:
    citation = node.find("MedlineCitation")
    assert citation is not None
    article = citation.find("Article")
    if article is None:
        raise ParseError("pubmed", "PubmedArticle without Article")
    journal = article.find("Journal")
    issue = journal.find("JournalIssue") if journal is not None else None
    ids: dict[str, str | None] = {"pmid": citation.findtext("PMID")}
    # Only the article's own ids: PubmedData/ArticleIdList (reference lists hold others).
    for article_id in node.findall("PubmedData/ArticleIdList/ArticleId"):
        kind = {"doi": "doi", "pmc": "pmcid"}.get(article_id.get("IdType", ""))
        if kind and article_id.text:
            ids.setdefault(kind, article_id.text)
    for location in article.findall("ELocationID"):
        if location.get("EIdType") == "doi" and location.text:
            ids.setdefault("doi", location.text)
    abstract_parts = []
    for part in article.findall("Abstract/AbstractText"):
        label = part.get("Label")
        text = _text(part)
        abstract_parts.append(f"{label}: {text}" if label and text else text)
    types = {
        t.text.strip().lower()
        for t in article.findall("PublicationTypeList/PublicationType")
        if t.text
    }
    kind = (
        "review"
        if types & {"review", "systematic review", "meta-analysis"}
        else ("preprint" if "preprint" in types else "article")
    )
    pmcid = ids.get("pmcid")
    record = make_record(
        "pubmed",
        csl_type="article" if kind == "preprint" else "article-journal",
        title=_text(article.find("ArticleTitle")) or _text(article.find("VernacularTitle")),
        names=[_author(a) for a in article.findall("AuthorList/Author")],
        issued=_pub_date(issue.find("PubDate") if issue is not None else None)
        or _article_date(article),
        ids=ids,
        abstract=" ".join(p for p in abstract_parts if p),
        container=journal.findtext("Title") if journal is not None else None,
        volume=issue.findtext("Volume") if issue is not None else None,
        issue=issue.findtext("Issue") if issue is not None else None,
        page=article.findtext("Pagination/MedlinePgn"),
        issn=journal.findtext("ISSN") if journal is not None else None,
        url=f"https://pubmed.ncbi.nlm.nih.gov/{ids['pmid']}/" if ids.get("pmid") else None,
        language=article.findtext("Language"),
        kind=kind,
        open_access=bool(pmcid),
        pdf_url=None,
        keywords=[k.text for k in citation.findall("KeywordList/Keyword") if k.text][:10],
    )
    if "retracted publication" in types:
        record.retraction = "PubMed publication type Retracted Publication"
    return record


def _author(node: ET.Element) -> dict[str, str]:
    collective = node.findtext("CollectiveName")
    if collective:
        return {"literal": " ".join(collective.split())}
    family = node.findtext("LastName")
    if family:
        return csl_name(family, node.findtext("ForeName") or node.findtext("Initials"))
    return parse_name(_text(node))


def _pub_date(node: ET.Element | None) -> list[int] | None:
    if node is None:
        return None
    year = node.findtext("Year")
    if year:
        month = node.findtext("Month") or season_month(node.findtext("Season"))
        return date_parts(year, month, node.findtext("Day"))
    medline = node.findtext("MedlineDate")  # "1998 Dec-1999 Jan"
    if medline:
        words = medline.split()
        return date_parts(words[0], words[1][:3] if len(words) > 1 else None)
    return None


def _article_date(article: ET.Element) -> list[int] | None:
    node = article.find("ArticleDate")
    if node is None:
        return None
    return date_parts(node.findtext("Year"), node.findtext("Month"), node.findtext("Day"))


class PubmedSource(Source):
    name = "pubmed"

    def _identify(self, params: dict[str, str]) -> dict[str, str]:
        if self.settings.mailto:
            params.setdefault("email", self.settings.mailto)
        if self.settings.api_key:
            params["api_key"] = self.settings.api_key
        return params

    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        async def page(offset: int, size: int, cursor: str | None) -> Page:
            params = translate(query, size)
            if offset:
                params["retstart"] = str(offset)
            found = await fetch.get(
                f"{self.base_url}/esearch.fcgi", self._identify(self.params(params))
            )
            pmids = parse_esearch(found.body)[:size]
            return Page(await self._fetch(fetch, query, pmids), parse_count(found.body))

        collected = await collect(page, limit, PAGE_SIZE)
        self.total = collected.total
        return collected.records

    async def _fetch(self, fetch: Fetcher, query: Query, pmids: list[str]) -> list[SearchRecord]:
        if not pmids:
            return []
        fetched = await fetch.get(
            f"{self.base_url}/efetch.fcgi",
            self._identify(self.params({"db": "pubmed", "id": ",".join(pmids), "retmode": "xml"})),
        )
        records = parse_efetch(fetched.body)
        if query.open_access:
            # The server filtered on free full text; PMC ids are not always listed.
            for record in records:
                record.open_access = True
        # Keep esearch's relevance order.
        order = {pmid: i for i, pmid in enumerate(pmids)}
        return sorted(records, key=lambda r: order.get(r.ids.get("pmid", ""), len(order)))
