"""Counting questions read from a report's own lists (agent/counting.py), on a PDF the
test writes: a contents page under a "CHAPTERS" heading and a contributors page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from citewise.agent.counting import count_members, count_parts
from citewise.agent.roles import role_holder
from citewise.api import Library

HELV, BOLD = "helv", "hebo"
TITLES = ["Introduction", "Quarry Geology", "Block Sorting", "Field Trials", "Outlook"]


def _page(doc: pymupdf.Document, heading: str, lines: list[str]) -> None:
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), heading, fontsize=16, fontname=BOLD)
    y = 110.0
    for line in lines:
        page.insert_text((72, y), line, fontsize=10, fontname=HELV)
        y += 16


def write_report(path: Path) -> Path:
    doc = pymupdf.open()
    _page(doc, "Granite Blocks: A Field Report", ["A report on sorting granite by sound."])
    contents = [f"{n}. {t}{'.' * 40}{10 * n}" for n, t in enumerate(TITLES, start=1)]
    _page(doc, "CHAPTERS", ["Executive Summary" + "." * 40 + "1", *contents])
    _page(
        doc,
        "Chapter Authors",
        [
            "Ada Quarry, Bergen University",
            "Ben Stone, Oslo Institute of Mining",
            "Cleo Mason, Bergen University",
            "Dan Chisel, Trondheim Stoneworks",
        ],
    )
    _page(doc, "Review Editors", ["Eve Slate, Bergen University"])
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def report(tmp_path: Path) -> Iterator[Library]:
    library = Library(tmp_path / "library", embeddings=False)
    assert library.ingest([write_report(tmp_path / "report.pdf")]).failed == []
    yield library
    library.close()


def test_how_many_chapters_counts_the_numbered_contents_entries(report: Library) -> None:
    answer = report.ask("How many chapters are in this report?")
    assert not answer.refused, answer
    assert answer.answer.startswith(f"{len(TITLES)} chapters")
    assert answer.sentences[0].kind == "count"
    assert {e.page for e in answer.evidence} == {2}


def test_how_many_members_counts_the_lines_of_the_named_list(report: Library) -> None:
    answer = report.ask("How many chapter authors of this report come from Bergen University?")
    assert not answer.refused, answer
    # two chapter authors; the review editor from Bergen is in another list
    assert answer.answer.startswith("2 of those listed under 'Chapter Authors'")
    assert {e.page for e in answer.evidence} == {3}


def test_questions_outside_the_two_kinds_are_not_counted(report: Library) -> None:
    doc = report.documents()[0].id
    blocks = report.store.blocks(doc)
    # a question about what chapters mention is not a question about how many there are
    assert count_parts("How many chapters mention granite in this report?", blocks) is None
    # no list is headed by these people
    assert count_members("How many reviewers come from Bergen University?", blocks) is None
    # a list that never names the organisation has no count to give
    assert count_members("How many chapter authors come from Lund University?", blocks) is None


def write_contributors(path: Path) -> Path:
    doc = pymupdf.open()
    _page(doc, "Granite Blocks: A Field Report", ["A report on sorting granite by sound."])
    _page(doc, "Lead Coordinator", ["Ada Quarry, Bergen University"])
    _page(
        doc,
        "Lead Authors",
        ["Ben Stone, Oslo Institute of Mining", "Cleo Mason, Bergen University"],
    )
    doc.save(path)
    doc.close()
    return path


def test_who_leads_is_the_sole_entry_under_the_heading_naming_the_role(tmp_path: Path) -> None:
    library = Library(tmp_path / "library", embeddings=False)
    try:
        assert library.ingest([write_contributors(tmp_path / "credits.pdf")]).failed == []
        answer = library.ask("Which individual leads this program?")
        assert not answer.refused, answer
        assert answer.answer.startswith("Ada Quarry, Bergen University (Lead Coordinator)")
        assert answer.sentences[0].kind == "role" and answer.evidence[0].page == 2
        blocks = library.store.blocks(library.documents()[0].id)
        # "chair" names no heading; two roles in one question name no single one
        assert role_holder("Who chaired the review?", blocks) is None
        assert role_holder("Who led and chaired the review?", blocks) is None
    finally:
        library.close()
