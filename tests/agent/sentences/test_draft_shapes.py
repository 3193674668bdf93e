"""What a drafted answer must show for two question shapes: "the web page of this paper"
wants its link, and a number question puts every sentence that states a number before one
that states none. On a PDF the test writes, asked through the real library."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.agent.ask.question import analyse
from citewise.agent.sentences.draft import _pick
from citewise.agent.sentences.extractive import Candidate
from citewise.api import Library
from tests.agent.ask.test_answers_that_generalize import FILLER, paper_library


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    title = "QUARRYNET: Probe Programs for Quarry Logs"
    pages = [
        ["Available online at http://dx.doi.org/10.1016/j.quarry.2015.07.002 under an "
         "open licence.", FILLER],
        ["We evaluate QUARRYNET on five quarry log collections, as follows.",
         "We use the entire Bergen log set for evaluation, consisting of 204 examples."],
    ]  # fmt: skip
    with paper_library(tmp_path_factory, "quarry.pdf", title, pages) as lib:
        yield lib


def test_the_web_page_of_a_paper_is_answered_with_its_link(paper: Library) -> None:
    answer = paper.ask("What is the web page of this paper?")
    assert not answer.refused and "http://dx.doi.org/10.1016/j.quarry" in answer.answer


def test_a_sentence_stating_the_number_comes_before_one_stating_none(paper: Library) -> None:
    answer = paper.ask("How many examples of the Bergen log set are used for evaluation?")
    assert not answer.refused and "204 examples" in answer.answer
    assert answer.answer.index("204") < answer.answer.find("five") or "five" not in answer.answer


def test_every_sentence_stating_a_number_is_picked_before_one_stating_none() -> None:
    question = analyse("How many examples are used for evaluation?")
    terms = frozenset({"exampl", "evaluation"})
    none = "We evaluate the probe on five quarry log collections."
    caption = "Table 1: The 3 probe programs and the quarry logs they read."
    count = "We use the Bergen set for evaluation, consisting of 204 examples."
    ranked = [
        Candidate("b1", none, 0.9, 0.9, 1.0, terms),
        Candidate("b2", caption, 0.8, 0.8, 0.9, terms),
        Candidate("b3", count, 0.8, 0.8, 0.85, terms),
    ]
    picked = [c.block_id for c in _pick(question, ranked)]
    assert picked == ["b2", "b3", "b1"]
