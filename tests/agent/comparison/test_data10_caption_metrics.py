"""The metric a table's or figure's caption opens with, and a metric whose change is reported
(agent/comparison/aspect_readers/matrix_metrics.py); sentences and captions the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import caption_metrics, changed_metrics
from citewise.agent.comparison.extraction import Unit


def captions(*texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 3, "5 Results", "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in caption_metrics(units)]


def test_reads_a_capitalised_metric_a_caption_opens_with() -> None:
    assert captions("Table 2: Accuracy on all reversed reef instances.") == ["Accuracy"]
    assert captions("Table 1: Mean Squared Error on the train and test sets.") == [
        "Mean Squared Error"
    ]


def test_reads_the_metric_after_a_few_opening_words() -> None:
    assert captions("Table 1: The average accuracy on the kelp domains") == ["accuracy"]
    assert captions("Figure 4: Zero-shot NER F1 score versus overlap") == ["F1 score"]


def test_an_acronym_is_read_only_in_its_own_capitals() -> None:
    assert captions("Figure 3: Heat map of the attention weights.") == []


def test_a_metric_far_into_the_caption_or_outside_a_caption_is_not_read() -> None:
    assert captions("Table 3: Statistics of the reef corpus used to compute accuracy.") == []
    assert captions("Accuracy on all instances is reported below.") == []


def changed(*texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 3, "5 Results", "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in changed_metrics(units)]


def test_reads_a_metric_whose_rise_or_fall_the_paper_reports() -> None:
    assert changed("On the reef data, precision has been greatly increased from 0.6.") == [
        "precision"
    ]
    assert changed("Pruning gives only a minor drop in BLEU on kelp pairs.") == ["BLEU"]
    assert changed("The accuracy drops as the number of divers grows.") == ["accuracy"]


def test_a_metric_named_without_a_change_is_not_read_here() -> None:
    assert changed("We chose precision because it suits the reef task.") == []
    assert changed("The drop in attendance was noted by the divers.") == []
