"""Scoping, vocabulary bridging, comparative questions and figure refusals, on PDFs the
tests write (issue 11)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pymupdf
import pytest

from citewise.agent.ask.refusal import NOT_ANSWERED, NOT_IN_LIBRARY
from citewise.api import Library

HELV, BOLD = "helv", "hebo"


def write_pages(
    path: Path, title: str, authors: str, pages: list[list[str]], figure: str | None = None
) -> Path:
    """A multi-page PDF: the title on page 1, then each page's paragraphs; `figure` draws a
    box with that caption under it on the last page."""
    doc = pymupdf.open()
    for n, paragraphs in enumerate(pages):
        page = doc.new_page(width=595, height=842)
        y = 72.0
        if n == 0:
            page.insert_text((72, y), title, fontsize=18, fontname=BOLD)
            page.insert_text((72, y + 20), authors, fontsize=11, fontname=HELV)
            y += 50
        for text in paragraphs:
            rect = pymupdf.Rect(72, y, 523, y + 160)
            spare = page.insert_textbox(rect, text, fontsize=10, fontname=HELV)
            y += 160 - spare + 12
        if figure and n == len(pages) - 1:
            page.draw_rect(pymupdf.Rect(120, y + 10, 470, y + 200), color=(0, 0, 1), width=2)
            page.insert_textbox(
                pymupdf.Rect(72, y + 210, 523, y + 260), figure, fontsize=9, fontname=HELV
            )
    doc.save(path)
    doc.close()
    return path


def ingested(folder: Path, files: list[Path]) -> Library:
    """A fresh keyword-only library in `folder` (its `library` folder) holding `files`,
    every one ingested without failure."""
    lib = Library(folder / "library", embeddings=False)
    assert lib.ingest(files).failed == []
    return lib


@contextmanager
def paper_library(
    factory: pytest.TempPathFactory, name: str, title: str, pages: list[list[str]]
) -> Iterator[Library]:
    """The paper `write_pages` writes (by Ada Quarry and Ben Stone) as `name` in a new
    temporary folder, ingested into a fresh keyword-only library beside it; closed on exit."""
    folder = factory.mktemp(Path(name).stem)
    lib = ingested(folder, [write_pages(folder / name, title, "Ada Quarry and Ben Stone", pages)])
    try:
        yield lib
    finally:
        lib.close()


FILLER = (
    "The authors thank the quarry staff for their help with the field campaign and the "
    "reviewers for their careful reading of an earlier draft of this manuscript."
)


@pytest.fixture
def two_papers(tmp_path: Path) -> Library:
    write_pages(
        tmp_path / "granite.pdf",
        "GRANOLA: Acoustic Sorting of Granite Blocks",
        "Ada Quarry and Ben Stone",
        [
            ["GRANOLA classifies granite blocks from the echo of forty probe taps. "
             "GRANOLA runs on a single field laptop."],
            [FILLER],
            ["We tune the learning rate (LR) of the gradient boosted classifier on a "
             "validation split of the Bergen blocks."],
            [FILLER],
            [FILLER],
            [FILLER],
            ["For all final runs of GRANOLA the LR was set to 0.003 with 400 boosting rounds."],
        ],
    )  # fmt: skip
    write_pages(
        tmp_path / "marble.pdf",
        "MARBLET: Laser Grading of Marble Slabs",
        "Cleo Mason and Dan Chisel",
        [
            ["MARBLET grades marble slabs with a laser line scanner. MARBLET runs on a "
             "workshop computer next to the saw."],
            ["The MARBLET grader was trained on 2,150 slabs from the Carrara workshop over "
             "two winters. Training took nine hours on one graphics card."],
        ],
        figure="Figure 2: Grading error of the three scanner heads over the slab thickness.",
    )  # fmt: skip
    library = ingested(tmp_path, [tmp_path / "granite.pdf", tmp_path / "marble.pdf"])
    yield library
    library.close()


def _doc(library: Library, file_name: str) -> str:
    return next(d.id for d in library.documents() if Path(d.path).name == file_name)


def test_a_system_named_in_the_question_scopes_the_answer_to_its_paper(
    two_papers: Library,
) -> None:
    marble = _doc(two_papers, "marble.pdf")
    answer = two_papers.ask("What computer does MARBLET run on?")
    assert [s["document"] for s in answer.scope] == [marble]
    assert "MARBLET" in answer.scope[0]["reason"]
    assert not answer.refused and "workshop computer" in answer.answer
    assert all(e.document == marble for e in answer.evidence)
    granite = _doc(two_papers, "granite.pdf")
    granola = two_papers.ask("What does GRANOLA run on?")
    assert [s["document"] for s in granola.scope] == [granite]
    assert not granola.refused and "field laptop" in granola.answer
    assert all(e.document == granite for e in granola.evidence)


def test_an_abbreviation_defined_on_page_3_bridges_a_question_about_page_7(
    two_papers: Library,
) -> None:
    answer = two_papers.ask("What learning rate was set for the final runs?")
    assert not answer.refused, answer
    assert "0.003" in answer.answer
    cited = {e.id: e.page for e in answer.evidence}
    assert [cited[c] for s in answer.sentences for c in s.citations][0] == 7


def test_answers_are_short_spans_with_the_passage_kept_as_evidence(two_papers: Library) -> None:
    answer = two_papers.ask("How many slabs was the MARBLET grader trained on?")
    assert not answer.refused and "2,150 slabs" in answer.answer
    assert len(answer.answer.split()) <= 40
    assert "Training took nine hours" in answer.evidence[0].quote


def test_a_comparative_question_is_answered_per_paper_with_not_stated(
    two_papers: Library,
) -> None:
    granite, marble = _doc(two_papers, "granite.pdf"), _doc(two_papers, "marble.pdf")
    answer = two_papers.ask("Compare the number of boosting rounds across all papers.")
    assert not answer.refused
    lines = dict(line.split(": ", 1) for line in answer.answer.splitlines())
    assert set(lines) == {granite, marble}
    assert "400 boosting rounds" in lines[granite]
    assert lines[marble] == "not stated"
    cited_docs = {e.document for e in answer.evidence}
    assert cited_docs == {granite}


def test_refusals_say_which_kind(two_papers: Library) -> None:
    off_topic = two_papers.ask("Which telescope observed the supernova in 1987?")
    assert off_topic.refused and off_topic.refusal_kind == NOT_IN_LIBRARY
    related = two_papers.ask("What was the price of each GRANOLA field laptop in euros?")
    assert related.refused and related.refusal_kind in (NOT_ANSWERED, NOT_IN_LIBRARY)
    assert related.withheld or related.evidence


def test_a_refusal_shows_each_closest_passage_once(tmp_path: Path) -> None:
    # the shipped example papers: a one-page paper whose sentences all sit in few blocks
    examples = Path(__file__).resolve().parents[3] / "examples" / "papers"
    with Library(tmp_path / "library") as library:
        assert not library.ingest(sorted(examples.glob("*.pdf"))).failed
        for question in (
            "Which telescope observed the supernova?",
            "What was the price of each field recorder in euros?",
        ):
            refused = library.ask(question)
            ids = [e.id for e in refused.evidence]
            assert refused.refused and ids and len(ids) == len(set(ids)), ids
