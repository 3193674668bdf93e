"""Rules found on held-out questions, each on papers the test writes (real PDFs, a real
SQLite library, keyword retrieval):

- a name the question writes in other capitals than the paper's small caps scopes to it
  ("Quarry-LM" for "QUARRY-LM"), but only when no paper is named as written;
- "how thick" is a number question, answered in a length rather than by a count;
- a comma list ("PubMed, EMBASE, and Medline") is one clause, never cut inside.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.ask.question import analyse
from citewise.agent.sentences.spans import clauses
from citewise.api import Library
from tests.agent.ask.test_answers_that_generalize import FILLER, ingested, write_pages


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("heldout-rules")
    quarry = write_pages(
        folder / "quarry.pdf",
        "QUARRY-LM: Language Models for Quarry Logs",
        "Ada Quarry",
        [
            ["QUARRY-LM reads quarry logs with a small language model. We train it with a "
             "learning rate of 3e-4 for ten epochs on the shift reports."],
            [FILLER],
        ],
    )  # fmt: skip
    slabs = write_pages(
        folder / "slabs.pdf",
        "Sorting Marble Slabs by Vein Pattern",
        "Ben Stone",
        [
            ["We sort marble slabs by their vein pattern. The sorter is trained with a "
             "learning rate of 0.01 for forty epochs on slab photographs."],
            ["The marble bed is 40 feet thick at the north face of the quarry. "
             "The quarry has 12 benches cut into the marble bed and 3 saws on each bench."],
        ],
    )  # fmt: skip
    return ingested(folder, [quarry, slabs])


def test_a_name_in_other_capitals_scopes_to_its_paper(papers: Library) -> None:
    answer = papers.ask("What learning rate does Quarry-LM use?")
    quarry = [d.id for d in papers.documents() if d.title.startswith("QUARRY-LM")]
    assert [s["document"] for s in answer.scope] == quarry
    assert not answer.refused and "3e-4" in answer.answer, answer.answer


def test_a_lower_case_word_does_not_scope_to_a_title_in_capitals(papers: Library) -> None:
    # "quarry-lm" is not written as a name: no paper is chosen by it
    answer = papers.ask("which learning rate is used for the quarry-lm style logs?")
    assert all("name" not in s["reason"] for s in answer.scope)


def test_how_thick_is_answered_in_a_length(papers: Library) -> None:
    assert analyse("How thick is the marble bed?").expects_number
    assert analyse("How far is the quarry from the mill?").expects_number
    answer = papers.ask("How thick is the marble bed at the north face?")
    assert not answer.refused, answer.answer
    assert "40 feet" in answer.answer, answer.answer


def test_a_comma_list_is_one_clause() -> None:
    pieces = clauses(
        "All studies of slab saws were identified using PubMed, EMBASE, and Medline, "
        "and were then screened by two reviewers for relevance to slab sorting."
    )
    assert any("using PubMed, EMBASE, and Medline," in p for p in pieces), pieces
    assert len(pieces) == 2


def test_clauses_that_are_not_list_items_are_still_cut() -> None:
    pieces = clauses(
        "We train the sorter on slab photographs for forty epochs, "
        "and the saw planner is tuned on the held-out benches."
    )
    assert len(pieces) == 2, pieces


def test_a_comma_list_stays_whole_in_the_short_span(tmp_path: Path) -> None:
    review = write_pages(
        tmp_path / "review.pdf",
        "Complications of Slab Sorting Machines: a Systematic Review",
        "Eve Gneiss",
        [
            ["Slab sorting machines injure quarry workers more often than hand sorting. "
             "All publications on slab sorting injuries in quarries and workshops were "
             "identified using PubMed, EMBASE, and Medline, and were screened by two "
             "reviewers for relevance to the topic of slab sorting."],
        ],
    )  # fmt: skip
    other = write_pages(tmp_path / "other.pdf", "Saw Blades for Granite", "Finn Basalt", [[FILLER]])
    library = ingested(tmp_path, [review, other])
    answer = library.ask("How were the slab sorting injury publications identified?")
    assert not answer.refused, answer.answer
    assert "PubMed, EMBASE, and Medline" in answer.answer, answer.answer
