"""A caption that names its accuracy in the plural
(agent/comparison/aspect_readers/matrix_metrics.py); captions the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import caption_metrics
from citewise.agent.comparison.extraction import Unit


def read(*texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 3, "5 Results", "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in caption_metrics(units)]


def test_a_caption_names_its_accuracy_in_the_plural() -> None:
    assert read("Table 2: Test accuracies of the kelp taggers under three attacks.") == [
        "accuracies"
    ]


def test_a_sentence_counting_accuracies_is_no_caption() -> None:
    assert read("The accuracies of 100 kelp taggers vary widely.") == []
