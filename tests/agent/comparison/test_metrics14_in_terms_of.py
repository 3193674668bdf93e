"""The measures a results sentence names after "in terms of"
(agent/comparison/aspect_readers/matrix_metrics_terms.py); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import listed_metrics
from citewise.agent.comparison.aspect_readers.matrix_metrics_terms import in_terms_of
from citewise.agent.comparison.extraction import Unit


def named(text: str) -> list[str]:
    return [text[s:e] for s, e in in_terms_of(text)]


def test_the_list_after_in_terms_of_names_the_measures() -> None:
    text = (
        "Our tagger improves on the reef baseline in terms of recall, kelp coverage, and run time."
    )
    assert named(text) == ["recall", "kelp coverage", "run time"]
    text = "Raters judged the dive reports better in terms of fluency and coherence on both sites."
    assert named(text) == ["fluency", "coherence"]


def test_a_vague_noun_or_a_judgement_is_no_measure() -> None:
    assert named("The model is evaluated in terms of performance and tagging speed.") == [
        "tagging speed"
    ]
    text = "It is better in terms of fast training speed and good performance on the reef tasks."
    assert named(text) == []
    assert named("In terms of absolute numbers, our tagger achieves comparable results.") == []


def test_a_sentence_that_neither_evaluates_nor_compares_names_none() -> None:
    assert named("The categories are described in terms of depth and salinity.") == []


def test_a_measure_in_terms_of_ranks_below_a_known_metric() -> None:
    units = [
        Unit("We report accuracy on the kelp notes.", "b-0", 3, "5 Results", "paragraph", 0),
        Unit(
            "Our tagger is better in terms of accuracy and tagging speed.",
            "b-1", 3, "5 Results", "paragraph", 1,
        ),
    ]  # fmt: skip
    found = {f.value: f.score for f in listed_metrics(units)}
    assert found["tagging speed"] < 2.5
