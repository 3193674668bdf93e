"""SearchRecord: one work found by a scholarly database, as a CSL-JSON item plus what CSL
cannot hold (identifiers, sources, open-access flag, PDF link, citation count, score).

Also the small helpers every parser uses to build valid CSL-JSON: names, dates, cleaning.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from citewise.sources.csl import clean_text, display_name, fold, iso_from_parts

# Identifier kinds a record may carry, in the order a record key prefers them.
ID_KINDS = ("doi", "arxiv", "pmid", "pmcid", "openalex", "s2", "core", "doaj")
# Kinds that tie two records into one work when they share a value.
MERGE_ID_KINDS = ("doi", "arxiv", "pmid", "pmcid", "openalex", "s2")

# What a record is, in the user's words (the --type values).
KINDS = ("article", "review", "preprint")


@dataclass
class SearchRecord:
    """A work as citewise reports it: `csl` is a valid CSL-JSON item; the rest sits beside it."""

    key: str
    csl: dict[str, Any]
    title: str = ""
    abstract: str = ""
    year: int | None = None
    authors: list[str] = field(default_factory=list)
    doi: str | None = None
    ids: dict[str, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    open_access: bool = False
    pdf_url: str | None = None
    citations: int | None = None
    score: float = 0.0
    kind: str | None = None  # "article", "review", "preprint" or None when unknown
    url: str | None = None
    venue: str | None = None
    published: str | None = None  # ISO date (YYYY[-MM[-DD]]) when the source gives one
    # Other records judged to be the same work in another version (preprint vs journal).
    related: list[str] = field(default_factory=list)
    # How the score was made: component name -> contribution.
    explanation: dict[str, float] = field(default_factory=dict)
    # Links derived from identifiers ("arxiv_doi", "pmc"), by sources/search/flags.py.
    links: dict[str, str] = field(default_factory=dict)
    # Why the work counts as retracted ("OpenAlex is_retracted"), None when no source says so.
    retraction: str | None = None
    # DOIs this record (a retraction notice) retracts.
    retracts: list[str] = field(default_factory=list)

    @property
    def first_author_family(self) -> str:
        names = self.csl.get("author") or []
        if not names:
            return ""
        first = names[0]
        return str(first.get("family") or first.get("literal") or "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "authors": self.authors,
            "year": self.year,
            "doi": self.doi,
            "ids": self.ids,
            "sources": self.sources,
            "kind": self.kind,
            "venue": self.venue,
            "open_access": self.open_access,
            "pdf_url": self.pdf_url,
            "url": self.url,
            "citations": self.citations,
            "score": round(self.score, 4),
            "explanation": {k: round(v, 4) for k, v in self.explanation.items()},
            "related": self.related,
            "links": self.links,
            "retracted": self.retraction is not None,
            "retraction": self.retraction,
            "abstract": self.abstract,
            "csl": self.csl,
        }


# ---------------------------------------------------------------- identifiers

_DOI_PREFIXES = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*|urn:doi:)", re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)
_ARXIV_VERSION = re.compile(r"v\d+$")
_ARXIV_PREFIX = re.compile(r"^(?:https?://(?:export\.)?arxiv\.org/(?:abs|pdf)/|arxiv:)", re.I)


def normalize_doi(value: str | None) -> str | None:
    """Lower-case DOI without `https://doi.org/` or `doi:`; None if it is not a DOI."""
    if not value:
        return None
    doi = _DOI_PREFIXES.sub("", value.strip()).strip().lower()
    return doi if doi.startswith("10.") and "/" in doi else None


def normalize_arxiv(value: str | None) -> str | None:
    """arXiv ID without URL, `arXiv:` prefix, `.pdf` or version: `2101.00001`, `hep-th/9901001`."""
    if not value:
        return None
    ident = _ARXIV_PREFIX.sub("", value.strip())
    ident = ident.removesuffix(".pdf")
    ident = _ARXIV_VERSION.sub("", ident)
    return ident.lower() if ident else None


def arxiv_from_doi(doi: str | None) -> str | None:
    """`10.48550/arxiv.2101.00001` (arXiv's DataCite DOI) -> `2101.00001`."""
    if not doi:
        return None
    match = _ARXIV_DOI.match(doi)
    return normalize_arxiv(match.group(1)) if match else None


def normalize_pmid(value: str | int | None) -> str | None:
    if value is None:
        return None
    digits = re.sub(r"^.*/", "", str(value).strip().rstrip("/"))
    return digits if digits.isdigit() else None


def normalize_pmcid(value: str | None) -> str | None:
    if not value:
        return None
    tail = re.sub(r"^.*/", "", str(value).strip().rstrip("/")).upper()
    if tail.isdigit():
        tail = "PMC" + tail
    return tail if re.fullmatch(r"PMC\d+", tail) else None


def normalize_ids(ids: dict[str, str | None]) -> dict[str, str]:
    """Normalized identifiers: DOIs cleaned, arXiv DOIs turned into arXiv IDs, empties dropped."""
    out: dict[str, str] = {}
    for kind, raw in ids.items():
        if not raw:
            continue
        value: str | None
        if kind == "doi":
            value = normalize_doi(raw)
            arxiv = arxiv_from_doi(value)
            if arxiv:
                out.setdefault("arxiv", arxiv)
                continue
        elif kind == "arxiv":
            value = normalize_arxiv(raw)
        elif kind == "pmid":
            value = normalize_pmid(raw)
        elif kind == "pmcid":
            value = normalize_pmcid(raw)
        elif kind == "openalex":
            value = re.sub(r"^.*/", "", raw.strip()).upper()
        else:
            value = str(raw).strip()
        if value:
            out[kind] = value
    return out


def record_key(ids: dict[str, str], title: str = "", year: int | None = None) -> str:
    """A stable key: the most widely understood identifier, else a hash of title and year."""
    for kind in ID_KINDS:
        if kind in ids:
            return f"{kind}:{ids[kind]}"
    digest = hashlib.sha1(f"{fold(title)}|{year or ''}".encode()).hexdigest()[:12]
    return f"title:{digest}"


# ---------------------------------------------------------------- building a record


# long: one keyword per field a source's parser reads (all eight sources call it so)
def make_record(
    source: str,
    *,
    csl_type: str,
    title: str,
    names: list[dict[str, str]],
    issued: list[int] | None,
    ids: dict[str, str | None],
    abstract: str = "",
    container: str | None = None,
    volume: object = None,
    issue: object = None,
    page: object = None,
    publisher: str | None = None,
    issn: str | None = None,
    url: str | None = None,
    language: str | None = None,
    kind: str | None = None,
    open_access: bool = False,
    pdf_url: str | None = None,
    citations: int | None = None,
    keywords: list[str] | None = None,
) -> SearchRecord:
    """One SearchRecord with a schema-valid CSL item built from the parsed fields."""
    clean_ids = normalize_ids(ids)
    title = clean_text(title)
    abstract = clean_text(abstract)
    names = [n for n in names if n]
    year = issued[0] if issued else None
    key = record_key(clean_ids, title, year)
    fields = {
        "abstract": abstract,
        "container-title": clean_text(container),
        "volume": clean_text(volume),
        "issue": clean_text(issue),
        "page": clean_text(page),
        "publisher": clean_text(publisher),
        "ISSN": clean_text(issn),
        "URL": url,
        "language": language,
        "DOI": clean_ids.get("doi"),
        "PMID": clean_ids.get("pmid"),
        "PMCID": clean_ids.get("pmcid"),
        "keyword": ", ".join(keywords) if keywords else None,
        "source": SOURCE_LABELS.get(source, source),
    }
    return SearchRecord(
        key=key,
        csl=csl_item(key, csl_type, title, names, issued, fields, clean_ids.get("arxiv"), kind),
        title=title,
        abstract=abstract,
        year=year,
        authors=[display_name(n) for n in names],
        doi=clean_ids.get("doi"),
        ids=clean_ids,
        sources=[source],
        open_access=open_access,
        pdf_url=pdf_url or None,
        citations=citations,
        kind=kind,
        url=url,
        venue=clean_text(container) or None,
        published=iso_from_parts(issued),
    )


def csl_item(
    key: str,
    csl_type: str,
    title: str,
    names: list[dict[str, str]],
    issued: list[int] | None,
    fields: dict[str, str | None],
    arxiv: str | None,
    kind: str | None,
) -> dict[str, Any]:
    """The CSL-JSON item: the fields that have a value, and an arXiv ID as number and note
    (an arXiv preprint's publisher is arXiv)."""
    csl: dict[str, Any] = {"id": key, "type": csl_type}
    if title:
        csl["title"] = title
    if names:
        csl["author"] = names
    if issued:
        csl["issued"] = {"date-parts": [issued]}
    for name, value in fields.items():
        if value:
            csl[name] = value
    if arxiv:
        csl["number"] = arxiv
        csl["note"] = f"arXiv: {arxiv}"
        if kind == "preprint":
            csl.setdefault("publisher", "arXiv")
    return csl


SOURCE_LABELS = {
    "arxiv": "arXiv",
    "pubmed": "PubMed",
    "semantic_scholar": "Semantic Scholar",
    "openalex": "OpenAlex",
    "crossref": "Crossref",
    "core": "CORE",
    "doaj": "DOAJ",
    "europepmc": "Europe PMC",
}
