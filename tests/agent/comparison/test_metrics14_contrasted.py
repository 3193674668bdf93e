"""A metric the paper contrasts its own with is set aside
(agent/comparison/aspect_readers/matrix_metrics.py `set_aside`); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import set_aside
from citewise.agent.comparison.extraction import Finding


def kept(quote: str, *values: str) -> list[str]:
    found = [Finding("metrics", v, quote, 3, "b-1", "5 Results", 2.5) for v in values]
    return [f.value for f in set_aside(found)]


def test_the_metric_after_rather_than_is_set_aside() -> None:
    quote = "We select the kelp tagger by its F1 score rather than the accuracy on held-out notes."
    assert kept(quote, "F1", "accuracy") == ["F1"]


def test_every_item_of_a_contrasted_list_is_set_aside() -> None:
    quote = (
        "AUC gives a fuller picture of the reef detector compared to reporting precision, "
        "recall, or F-scores at one threshold."
    )
    assert kept(quote, "AUC", "precision", "recall", "F-scores") == ["AUC"]


def test_a_contrast_of_systems_keeps_the_metric() -> None:
    quote = "Compared to the baseline, accuracy rises by four points on the reef notes."
    assert kept(quote, "accuracy") == ["accuracy"]
    quote = "Instead of the reef lexicon we use a tagger, and report accuracy."
    assert kept(quote, "accuracy") == ["accuracy"]
