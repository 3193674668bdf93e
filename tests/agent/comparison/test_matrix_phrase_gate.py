"""The ninth session's confidence gates of free-phrase columns (agent/comparison/aspect_readers/
matrix_phrase_gate.py) on sentences the tests write: a reading fills the cell only where its
sentence can be the paper's own statement of its own value or choice."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.aspect_readers.phrases.gate import (
    a_kind_in_general,
    not_a_total,
)
from tests.agent.comparison.test_matrix_phrases import best


@pytest.mark.parametrize(
    "phrase,sentence",
    [
        # an example in mid-sentence illustrates
        ("number of notes", "A log may hold, for example, 12 notes from one outcrop."),
        ("number of notes", "Short logs (e.g. 15 notes) are merged with their neighbours."),
        # a possibility says what can be, not how many there are
        ("number of tokens", "A slate name can span 3 tokens in the field notes."),
        # a pre-trained resource's corpus is not the paper's data
        ("number of tokens", "We use rock vectors pre-trained on 40 million tokens of reports."),
        ("number of notes", "The note encoder, which was trained on 2 million notes, is frozen."),
    ],
)  # fmt: skip
def test_a_count_that_is_no_statement_of_the_papers_total_fills_no_cell(phrase: str,
                                                                       sentence: str
                                                                       ) -> None:  # fmt: skip
    assert best(phrase, sentence) is None


def test_the_papers_own_total_stays_beside_a_gated_count() -> None:
    gated = "A slate name can span 3 tokens in the field notes."
    own = "Our quarry corpus holds 52,000 tokens of field notes."
    assert best("number of tokens", gated, own) == "52,000"
    # the paper's own classifier trained on its data is no pre-trained resource
    trained = "A slate classifier using the note vectors as features, trained on 900 notes."
    assert best("number of notes", trained) == "900"


def test_a_written_count_of_two_is_a_pair_but_a_linked_or_larger_one_is_not() -> None:
    assert not_a_total("We compare two notes.", "two", written_count=True)
    assert not not_a_total("We compare two notes.", "two", written_count=False)
    assert not not_a_total("We keep three notes per outcrop.", "three", written_count=True)
    assert not not_a_total("We keep 2 notes.", "2", written_count=True)


def test_a_plural_kind_of_a_singular_column_is_a_class_of_things() -> None:
    assert a_kind_in_general("supervised rock classifiers", "rock classifier")
    assert a_kind_in_general("structured quarry taxonomies", "quarry taxonomy")
    # a name in it, a singular value or a plural column say which ones
    assert not a_kind_in_general("SlateNet and QuarryBERT rock classifiers", "rock classifier")
    assert not a_kind_in_general("supervised rock classifier", "rock classifier")
    assert not a_kind_in_general("pre-trained rock embeddings", "rock embeddings")


def test_a_plural_kind_gives_way_to_the_papers_own_choice() -> None:
    kinds = "We train supervised rock classifiers on the field notes."
    own = "Our rock classifier is a gradient boosting model over note features."
    assert best("rock classifier", kinds) is None
    assert best("rock classifier", kinds, own) == "a gradient boosting model over note features"
