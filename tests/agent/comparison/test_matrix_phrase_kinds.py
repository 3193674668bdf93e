"""The ninth session's second round of free-phrase readings (agent/comparison/aspect_readers/
matrix_phrase_gate.py, matrix_phrase_numbers.py) on sentences the tests write: a unit of time
counts a duration unless it holds data, a selection and a range are no totals, coordinated
counts are one value, a network's few parts are its size, and a name from another work's
sentence fills no cell."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.aspect_readers.phrases.gate import (
    a_duration,
    anothers_work,
    network_part,
    not_a_total,
)
from tests.agent.comparison.test_matrix_phrases import best


@pytest.mark.parametrize(
    "sentence,value",
    [
        ("Fitting the slate tagger takes about 6 hours on one machine.", "6"),
        ("The quarry survey needed over 300 annotation hours in all.", "300"),
        ("Each geologist needed roughly 20 hours of initial training for the task.", "20"),
        ("Tagging stopped after 12 hours after the loss reached a plateau.", "12"),
    ],
)  # fmt: skip
def test_a_count_of_a_unit_of_time_measures_a_duration(sentence: str, value: str) -> None:
    assert a_duration(sentence, value)
    assert not_a_total(sentence, value, True) == "a duration"


@pytest.mark.parametrize(
    "sentence,value",
    [
        ("The outcrop archive holds 45 hours of recorded field talk.", "45"),
        ("We pre-train on all 120 hours of training audio from the quarry.", "120"),
        ("This 70-hour slate corpus is split by site.", "70"),
        ("We keep 40 notes per outcrop.", "40"),  # no unit of time at all
    ],
)  # fmt: skip
def test_a_span_of_time_that_holds_data_is_a_count_of_data(sentence: str, value: str) -> None:
    assert not a_duration(sentence, value)


def test_hours_of_data_fill_the_cell_and_a_training_time_does_not() -> None:
    took = "Fitting the slate tagger takes about 6 hours on one machine."
    data = "The outcrop archive holds 45 hours of recorded field talk."
    assert best("number of hours", took) is None
    assert best("number of hours", took, data) == "45"


def test_a_selection_and_a_range_are_no_totals() -> None:
    assert best("number of outcrops", "We keep the 30 most visited outcrops of the survey.") is None
    assert best("number of outcrops", "Each survey team visits 20–40 outcrops a season.") is None
    # a grouped count is never read from its last group
    assert best("number of notes", "The archive holds $\\sim$8,500 notes in all.") is None


def test_counts_coordinated_before_the_thing_are_one_list() -> None:
    assert best("number of clusters", "We ran the grouping for 20, 40 and 80 clusters.") == (
        "20, 40 and 80"
    )
    # a range, and a first item that is another setting's value, are no list
    assert best("number of notes", "Logs hold between 5 and 60 notes each season.") is None
    assert best("number of heads", "We use a note size 512 and 4 heads in the tagger.") == "4"


def test_two_counts_of_one_thing_joined_by_and_are_read_together() -> None:
    sentence = "Our archive holds 900 notes from Wales and 400 notes from Cornwall."
    assert best("number of notes", sentence) == "900 notes from Wales and 400 notes"
    # a comma or a number between makes the second a part of the first
    parts = "We kept 900 notes, written by 12 geologists and 400 notes by students."
    assert best("number of notes", parts) == "900"


def test_one_or_two_of_a_networks_parts_is_its_size_not_a_pick() -> None:
    assert network_part("hidden layers") and network_part("attention heads")
    assert not network_part("notes")
    assert best("number of layers", "We use a two-layer GRU over the slate notes.") == "two"
    assert best("number of layers", "Our tagger has a single hidden layer of 64 units.") == "single"
    # a pair of other things is still picked
    assert best("number of notes", "We compare two notes by their overlap.") is None


@pytest.mark.parametrize(
    "sentence",
    [
        "BIBREF4 learns a rock classifier from outcrop photographs.",
        "Ashby et al. propose a rock classifier over note features.",
        "SlateCNN: a convolutional rock classifier with note attention (Ashby et al., 2016).",
    ],
)
def test_a_name_in_another_works_sentence_fills_no_cell(sentence: str) -> None:
    assert anothers_work(sentence)
    assert best("rock classifier", sentence) is None


def test_the_papers_own_sentence_is_not_another_works() -> None:
    own = "BIBREF4 and we both train a gradient boosting rock classifier."
    assert not anothers_work(own)
    assert not anothers_work("SlateCNN: our convolutional rock classifier (Ashby et al., 2016).")


def test_names_of_a_class_of_things_fill_no_cell() -> None:
    # a plural after a quantifier, even with a capital word in it
    assert best("rock classifier", "This applies to most CNN rock classifiers as well.") is None
    # "X include ..." opening a sentence defines the kind in general
    typical = "Typical rock classifiers include SlateNet BIBREF1 and QuarryBERT BIBREF2 ."
    assert best("rock classifier", typical) is None
    # a predicate before "for a X" names nothing
    assert best("rock classifier", "A fast tagger is crucial for a rock classifier.") is None
    assert best("rock classifier", "We use SlateNet as the rock classifier.") == "SlateNet"


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("Our slate classifier has a single layer of GRU units.", "single"),
        ("The tagger is a single-layer network over the notes.", "single"),
    ],
)
def test_a_single_layer_is_the_networks_size(sentence: str, expected: str) -> None:
    assert best("number of layers", sentence) == expected
