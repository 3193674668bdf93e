"""A list of metrics after words that qualify them, in a sentence that evaluates
(agent/comparison/aspect_readers/matrix_metrics.py `listed_metrics`); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import listed_metrics
from citewise.agent.comparison.extraction import Unit


def listed(text: str) -> list[str]:
    return [f.value for f in listed_metrics([Unit(text, "b-1", 4, "5 Evaluation", "paragraph", 1)])]


def test_each_item_of_a_qualified_list_is_a_metric() -> None:
    text = (
        "To evaluate the reef captions we rate two metrics for each caption: tidiness, "
        "kelp coverage, and naturalness, each on a scale of 1 to 5."
    )
    assert listed(text) == ["tidiness", "kelp coverage", "naturalness"]


def test_an_item_stops_before_its_citation() -> None:
    text = (
        "We assess the clusters with measures that need no labels BIBREF4: spread ratio "
        "BIBREF5, and kelp density."
    )
    assert listed(text) == ["spread ratio", "kelp density"]


def test_a_list_in_a_sentence_that_evaluates_nothing_is_no_list_of_metrics() -> None:
    text = "We add three distance metrics as features: reef distance, kelp overlap, and length."
    assert listed(text) == []
