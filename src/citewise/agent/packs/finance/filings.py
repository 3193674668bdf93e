"""The library's SEC filings: which company filed each and for which fiscal year.

Read from the filing's cover (documents/filing_cover.py) over its stored first pages, once
per document (kept by document id and sha256); the file name ("BOEING_2018_10K.pdf",
agent/packs/finance/statements.py `filing_names`) adds its company and year as extra evidence, and
stands
in alone when the cover gives none. A question names a company by its registered name
without the corporate words ("The Boeing Company" is "Boeing"), or by the leading words of
it ("MGM Resorts" for MGM Resorts International, "Adobe" for Adobe Systems Incorporated)
when the filing itself calls the company by them.
"""

from __future__ import annotations

import re
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from citewise.agent.packs.finance.statements import compact, filing_names, question_years
from citewise.documents.filing_cover import COVER_PAGES, FilingCover, cover_form, read_cover
from citewise.store.filters import BlockFilter
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredDocument

# Words around a company's name that are not part of it ("The Boeing Company", "Nike, Inc.").
CORPORATE = frozenset(
    "the company co corp corporation inc incorporated ltd limited plc group holdings llc lp"
    " nv sa ag se".split()
)
_COVERS: OrderedDict[tuple[str, str], tuple[FilingCover | None, frozenset[str]]] = OrderedDict()
_COVERS_KEPT = 4096


@dataclass(frozen=True)
class Filing:
    document: StoredDocument
    company: str  # the name's key, compacted: "boeing", "lockheedmartin"
    names: frozenset[str]  # every key a question may name it by ("adobesystems", "adobe")
    years: tuple[int, ...]  # fiscal years: the cover's, else the file name's
    cover: FilingCover | None = None


def cover_of(
    store: Store, doc: StoredDocument, first: list[tuple[int, str]] | None = None
) -> tuple[FilingCover | None, frozenset[str]]:
    """The document's cover (None when it is no filing) and the keys a question may name its
    company by (`name_keys`); `first` is its pages 1-2 when already read."""
    key = (doc.id, doc.sha256)
    if key not in _COVERS:
        pages = first if first is not None else _first_pages(store, [doc.id]).get(doc.id, [])
        if cover_form(pages):  # a paper's first pages name no form: read no further
            pages = pages + _page_texts(store, [doc.id], range(3, COVER_PAGES + 1))[doc.id]
        cover = read_cover(pages) if cover_form(pages) else None
        text = "\n".join(t for _, t in pages)
        _COVERS[key] = (cover, name_keys(cover.registrant, text) if cover else frozenset())
        while len(_COVERS) > _COVERS_KEPT:
            _COVERS.popitem(last=False)
    return _COVERS[key]


def _first_pages(store: Store, doc_ids: list[str]) -> dict[str, list[tuple[int, str]]]:
    """Pages 1-2 of each document, read 500 documents to a query (a library's papers are
    looked at once per process: one query per document would cost ~2 ms each)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for start in range(0, len(doc_ids), 500):
        found |= _page_texts(store, doc_ids[start : start + 500], (1, 2))
    return found


def _page_texts(
    store: Store, doc_ids: list[str], pages: Iterable[int]
) -> defaultdict[str, list[tuple[int, str]]]:
    """(page, text) of each document's blocks on `pages`, in reading order."""
    rowids = store.candidates(BlockFilter(documents=tuple(doc_ids), pages=tuple(pages)))
    blocks = store.blocks_by_rowid([int(r) for r in rowids]).values()
    texts: defaultdict[str, list[tuple[int, str]]] = defaultdict(list)
    for b in sorted(blocks, key=lambda b: (b.document_id, b.ordinal)):
        texts[b.document_id].append((b.page, b.text))
    return texts


def name_words(registrant: str) -> list[str]:
    """The words of a registered name without corporate words or a web suffix
    ("AMAZON.COM, INC." -> ["AMAZON"], "The Boeing Company" -> ["Boeing"])."""
    words = [
        re.sub(r"\.(?:com|net|org)$", "", w, flags=re.I) for w in re.split(r"[\s,]+", registrant)
    ]
    return [w for w in words if compact(w) and compact(w) not in CORPORATE]


def name_keys(registrant: str, text: str) -> frozenset[str]:
    """The keys a question may name the company by: its whole name, and each shorter run of
    its leading words that the filing's first pages use alone ("Costco operated ...")."""
    words = name_words(registrant)
    if not words:
        return frozenset()
    keys = {compact(" ".join(words))}
    for n in range(1, len(words)):
        lead, nxt = " ".join(words[:n]), words[n]
        pattern = rf"\b{re.escape(lead)}\b(?!\s+{re.escape(nxt)}\b)(?!,? (?:Inc|Corp))"
        alone = [m for m in re.findall(pattern, text, re.I) if m[0].isupper() or m[0].isdigit()]
        if len(compact(lead)) >= 3 and len(alone) >= 2:
            keys.add(compact(lead))
    return frozenset(keys)


def filing_of(
    store: Store, doc: StoredDocument, first: list[tuple[int, str]] | None = None
) -> Filing | None:
    """The document as a filing, from its cover and file name; None when neither names a
    company and a year (or a cover)."""
    cover, keys = cover_of(store, doc, first)
    file_names, file_years = filing_names(doc)
    names: set[str] = set()
    years: list[int] = []
    if cover:
        names |= keys
        years += [cover.fiscal_year] if cover.fiscal_year else []
    if file_names and file_years:
        names.add(file_names[0])
        years += [int(y) for y in file_years if int(y) not in years]
    if not names or not (years or cover):
        return None
    company = compact(" ".join(name_words(cover.registrant))) if cover else file_names[0]
    return Filing(doc, company or file_names[0], frozenset(names), tuple(years), cover)


def filings_of(store: Store) -> list[Filing]:
    """The library's filings: documents whose cover or file name gives a company."""
    documents = store.documents()
    unread = [d.id for d in documents if (d.id, d.sha256) not in _COVERS]
    first = _first_pages(store, unread) if unread else {}
    filings = (filing_of(store, d, first.get(d.id, [])) for d in documents)
    return [f for f in filings if f is not None]


def named_filings(written: set[str], question: str, filings: list[Filing]) -> list[Filing]:
    """The filings whose company the question names: a written name is one of its keys, or
    one of its keys appears in the question's squeezed words ("Adobe? Operating")."""
    named = [f for f in filings if f.names & written]
    if named:
        return named
    squeezed = compact(question)
    return [f for f in filings if any(_written_in(k, squeezed, question) for k in f.names)]


def _written_in(key: str, squeezed: str, question: str) -> bool:
    return key in squeezed and (
        len(key) >= 4 or re.search(rf"\b{re.escape(key)}\b", question, re.I) is not None
    )


def pick_filing(question: str, written: set[str], filings: list[Filing]) -> Filing | None:
    """The filing of the company the question names, for the fiscal year it asks about
    (the filing of that year, else the first later one, which restates it)."""
    named = named_filings(written, question, filings)
    years = question_years(question)
    if len(named) == 1 or not named or not years:
        return named[0] if len(named) == 1 else None
    latest = max(years)
    later = sorted(
        ((min((y for y in f.years if y >= latest), default=9999), i) for i, f in enumerate(named))
    )
    return named[later[0][1]] if later[0][0] != 9999 else None
