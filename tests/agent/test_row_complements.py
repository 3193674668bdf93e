"""A table row the question does not name, however many words they share (agent/numeric/cells.py):
the complement of what is asked ("Not English" for "how many English papers") unless the
question asks what was removed, and a row defined by a bound the question does not state
("< 100 chars of text" for "how many full text papers"). First on a table the test builds,
then through a real library over the shared corpus (skips when ../shared is absent): the
S2ORC paper's Table 2 lists the filters that removed papers.
"""

from __future__ import annotations

import pytest

from citewise.agent.numeric.cells import TableView, match_cell
from citewise.agent.numeric.unnamed_rows import complement_or_bound
from citewise.api import Library
from tests.conftest import corpus_library

FILTERS = TableView(
    "Table 2",
    "Table 2: Post-processing data quality filters for papers",
    ["Filter", "Number of papers"],
    [
        ["No title", "20k"],
        ["No authors", "0.3M"],
        ["< 100 chars of text", "80.0M"],
        ["Not English", "15.2M"],
    ],
)


def test_a_negated_row_answers_only_a_negated_or_removal_question() -> None:
    assert complement_or_bound("Not English", "How many English papers are there?")
    assert not complement_or_bound("Not English", "How many papers are not English?")
    assert not complement_or_bound("Not English", "How many papers did the English filter remove?")
    assert not complement_or_bound("English", "How many English papers are there?")
    # "w/o" is read as the question writes it
    assert not complement_or_bound("w/o rerank", "What F1 does BM25 w/o rerank reach?")


def test_a_bounded_row_answers_only_a_question_stating_its_bound() -> None:
    assert complement_or_bound("< 100 chars of text", "How many full text papers are there?")
    assert not complement_or_bound("< 100 chars of text", "How many had < 100 chars of text?")
    assert not complement_or_bound("Over 50 pages", "How many PDFs were longer than 50 pages?")
    # a number inside a name is no bound
    assert not complement_or_bound("GPT-4", "What accuracy does GPT-4 reach?")


def test_the_complement_row_is_not_matched_for_the_positive_question() -> None:
    asked = match_cell("How many English papers are in the corpus?", FILTERS)
    assert asked is None or asked.row != "Not English"
    removed = match_cell("How many papers did the English-language filter remove?", FILTERS)
    assert removed is not None and removed.value == "15.2M"
    full = match_cell("How many full text papers are in the corpus?", FILTERS)
    assert full is None or full.value != "80.0M"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return Library(corpus_library(tmp_path_factory, "complements"))


@pytest.mark.parametrize(
    ("question", "wrong"),
    [
        ("How many English papers does S2ORC contain?", "15.2M"),
        ("How many full text papers does S2ORC have?", "80.0M"),
    ],
)
def test_s2orc_filter_rows_do_not_answer_what_the_corpus_holds(
    corpus: Library, question: str, wrong: str
) -> None:
    answer = corpus.ask(question, review=False)
    assert wrong not in answer.answer, answer.answer


def test_the_filter_question_still_reads_the_not_english_row(corpus: Library) -> None:
    answer = corpus.ask("How many paper clusters did S2ORC's English-language filter remove?")
    assert not answer.refused and "15.2M" in answer.answer, answer.answer
