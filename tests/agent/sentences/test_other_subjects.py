"""A number said of another named subject does not answer a question about the one it names
(agent/sentences/subjects.py): "PubMed, which contains 30M papers" answers "How many papers does
PubMed contain?", not "... does MAG contain?" nor "... does S2ORC contain?"; nor does a
multiplier ("three times more papers") answer "how many papers". First on
sentences, then through a real library over the shared corpus (skips when ../shared is
absent): the S2ORC paper's Table 1 caption says how many papers four other corpora hold.
"""

from __future__ import annotations

import pytest

from citewise.agent.sentences.extractive import quantities
from citewise.agent.sentences.subjects import (
    asked_names,
    other_subject_rows,
    without_other_subjects,
)
from citewise.api import Library
from tests.conftest import corpus_library

PUBMED = "PubMed Central (OA) links to PubMed, which contains 30M papers at the time of writing."
MAG = "It links to MAG (which contained 213M papers at the time of dataset construction)."


def test_a_relative_clause_states_its_number_of_the_name_it_follows() -> None:
    assert quantities(PUBMED, "How many papers does PubMed contain?") == {"30M"}
    assert quantities(PUBMED, "How many papers does S2ORC contain?") == set()
    assert quantities(MAG, "How many papers does MAG contain?") == {"213M"}
    assert quantities(MAG, "How many papers does CiteSeerX contain?") == set()


def test_a_clause_that_names_the_asked_subject_keeps_its_number() -> None:
    said = "We compare to ProgramFC, which reaches 75.6 F1 on HOVER."
    assert quantities(said, "What F1 is reached on HOVER?") == {"75.6"}
    # a clause after names joined by "and" is said of each of them
    both = "We use two datasets, HOVER and FEVEROUS, which hold 18K and 7K claims."
    assert {"18K", "7K"} <= quantities(both, "How many claims does HOVER hold?")
    assert quantities(both, "How many claims does SciFact hold?") == {"two"}


def test_without_a_name_in_the_question_nothing_is_set_aside() -> None:
    # "Table" and a plain capitalised word name no subject; a title or a place is no holder
    assert asked_names("In Table 3, how many papers are there?") == frozenset()
    assert quantities(PUBMED, "How many papers are there?") == {"30M"}
    officer = "It reports to the Chief Executive Officer, who leads 7 executives."
    assert without_other_subjects(officer, "How many executives does PepsiCo have?") == officer


def test_a_multiplier_is_no_count() -> None:
    more = "S2ORC contains three times more full text papers than PubMed Central (OA)."
    assert quantities(more, "How many papers does S2ORC contain?") == set()
    assert quantities(more, "How many times more papers does S2ORC contain?") == {"three"}
    assert quantities("We ran each seed three times.", "How many runs were made?") == {"three"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return Library(corpus_library(tmp_path_factory, "subjects"))


@pytest.mark.parametrize(
    ("question", "number"),
    [
        ("How many papers does MAG contain?", "213M"),
        ("How many papers does CiteSeerX contain at the time of writing?", "6M"),
        # the reverse: the subject the clause is said of still gets its number
        ("How many papers did PubMed contain at the time of writing?", "30M"),
    ],
)
def test_the_number_quoted_is_the_one_said_of_the_asked_corpus(
    corpus: Library, question: str, number: str
) -> None:
    answer = corpus.ask(question, review=False)
    assert not answer.refused and number in answer.answer, answer.answer


def test_another_corpus_number_is_not_given_for_s2orc_with_full_support(
    corpus: Library,
) -> None:
    answer = corpus.ask("How many papers does S2ORC contain?", review=False)
    said_of_others = ("30M", "25k", "213M", "1M papers")
    assert not any(n in answer.answer for n in said_of_others), answer.answer
    assert answer.refused or answer.support_score < 1.0, answer.support_score


TABLE_1 = """Corpus Papers w/ body text Linked to graph
S2ORC (PDF-parse) 8.1M full text yes S2ORC (full)
S2ORC (LATEX-parse) 1.5M full text yes S2ORC (full)
PubMed Central (OA) 2.6M full text yes PubMed
AAN (Radev et al., 2009) 25k full text no ACL Anthology
Saier and Färber (2019) 1.0M snippets no MAG"""


def test_table_rows_named_after_another_subject_are_set_aside() -> None:
    aside = other_subject_rows(TABLE_1, "How many papers does S2ORC contain?")
    assert {r.split(" ")[0] for r in aside} == {"PubMed", "AAN", "Saier"}
    # the reverse question keeps its own row and sets S2ORC's aside
    pubmed = other_subject_rows(TABLE_1, "How many papers does PubMed Central hold?")
    assert not any(r.startswith("PubMed") for r in pubmed)
    assert any(r.startswith("S2ORC") for r in pubmed)


def test_a_table_with_no_row_named_after_the_question_sets_none_aside() -> None:
    # models as rows, a dataset asked: the rows are not other subjects
    results = "Model SciFact FEVER\nBM25 0.66 0.75\nSPECTER 0.61 0.70"
    assert other_subject_rows(results, "What score is reached on SciFact?") == set()
    # naming one of the models, the other model's row is another subject's
    bm25 = other_subject_rows(results, "What nDCG@10 does BM25 reach on SciFact?")
    assert bm25 == {"SPECTER 0.61 0.70"}
    assert other_subject_rows(TABLE_1, "How many papers are in the corpora?") == set()


def test_the_s2orc_question_is_not_answered_with_another_corpus_row(corpus: Library) -> None:
    answer = corpus.ask("How many papers does S2ORC contain?", review=False)
    assert "2.6M" not in answer.answer and "25k" not in answer.answer, answer.answer
