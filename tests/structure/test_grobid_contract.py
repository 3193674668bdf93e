"""N18-3011.pdf against GROBID's TEI in ../shared/groundtruth/grobid (issue 3's floors):
numbered headings with the right page, the reference count, and entries' year and title."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache

import pymupdf
import pytest
from rapidfuzz import fuzz

from citewise.documents.model import Document
from citewise.documents.pdf.reader import read_pdf
from citewise.documents.structure import sections
from tests.conftest import SHARED

TEI = SHARED / "groundtruth" / "grobid" / "N18-3011.tei.xml"
PDF = SHARED / "corpus" / "N18-3011.pdf"
NS = {"t": "http://www.tei-c.org/ns/1.0"}

pytestmark = pytest.mark.skipif(
    not (TEI.is_file() and PDF.is_file()), reason="GROBID reference not available"
)


def squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@cache
def doc() -> Document:
    return read_pdf(PDF)


def grobid_headings() -> list[tuple[str, str]]:
    root = ET.parse(TEI).getroot()
    body = root.find(".//t:body", NS)
    assert body is not None
    return [(h.get("n", ""), "".join(h.itertext())) for h in body.iter(f"{{{NS['t']}}}head")]


def grobid_references() -> list[tuple[str, int | None]]:
    root = ET.parse(TEI).getroot()
    bibl = root.find(".//t:listBibl", NS)
    assert bibl is not None
    out = []
    for entry in bibl.iter(f"{{{NS['t']}}}biblStruct"):
        title = entry.find(".//t:analytic/t:title", NS)
        if title is None:
            title = entry.find(".//t:monogr/t:title", NS)
        date = entry.find(".//t:date", NS)
        when = (date.get("when") or "")[:4] if date is not None else ""
        text = "".join(title.itertext()) if title is not None else ""
        out.append((text, int(when) if when.isdigit() else None))
    return out


def heading_pages() -> dict[str, int]:
    """GROBID's TEI has no coordinates: a heading's page is where its line is printed."""
    pages: dict[str, int] = {}
    with pymupdf.open(PDF) as pdf:
        texts = [squash(page.get_text()) for page in pdf]
    for number, title in grobid_headings():
        key = squash(f"{number}{title}")
        pages[number] = next(i for i, t in enumerate(texts, start=1) if key in t)
    return pages


def test_numbered_headings_are_found_on_the_right_page() -> None:
    want = heading_pages()
    assert len(want) == 12
    found = {s.number: (s.title, s.page) for s in sections(doc().blocks) if s.number}
    right = [n for n, page in want.items() if n in found and found[n][1] == page]
    assert len(right) / len(want) >= 0.9, sorted(set(want) - set(right))
    levels = {s.number: s.level for s in sections(doc().blocks) if s.number}
    assert levels["2.1"] == 2 and levels["4"] == 1


def test_reference_count_is_within_ten_percent_of_grobid() -> None:
    ours, theirs = len(doc().references), len(grobid_references())
    assert theirs == 27
    assert abs(ours - theirs) <= 0.1 * theirs


def test_most_entries_have_grobids_year_and_title() -> None:
    refs = doc().references
    good = 0
    for title, year in grobid_references():
        best = max(refs, key=lambda r: fuzz.ratio(squash(r.title or ""), squash(title)))
        good += fuzz.ratio(squash(best.title or ""), squash(title)) >= 90 and best.year == year
    assert good / len(grobid_references()) >= 0.8


def test_in_text_citations_reach_most_entries() -> None:
    cited = {c.reference for c in doc().citations}
    assert len(cited) >= 0.8 * len(doc().references)
