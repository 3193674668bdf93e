"""A caption's list of metrics and its key of abbreviations
(agent/comparison/aspect_readers/matrix_metrics.py); captions the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import (
    CAPTION_SCORE,
    KEY_SCORE,
    caption_metrics,
)
from citewise.agent.comparison.extraction import Unit


def read(*texts: str, section: str = "5 Results") -> list[tuple[str, float]]:
    units = [Unit(t, f"b-{i}", 3, section, "paragraph", i) for i, t in enumerate(texts)]
    return [(f.value, f.score) for f in caption_metrics(units)]


def test_the_list_a_caption_opens_is_read_whole() -> None:
    assert read("Table 5: Precision, recall and F1 of the tagger on the kelp notes.") == [
        ("Precision, recall and F1", CAPTION_SCORE)
    ]
    assert read("Table 2: Accuracy and macro-F1 (%) on three reef sets.") == [
        ("Accuracy and macro-F1", CAPTION_SCORE)
    ]


def test_a_list_ends_at_its_last_metric() -> None:
    assert read("Table 1: Accuracy and training time of four taggers.") == [
        ("Accuracy", CAPTION_SCORE)
    ]


def test_a_key_of_abbreviations_spells_out_the_metrics() -> None:
    found = read("Table 4: Scores of the reef classifiers. Acc: Accuracy; Spe: Specificity.")
    assert ("Accuracy", KEY_SCORE) in found and ("Specificity", KEY_SCORE) in found
    assert read("Table 6: Tagging results (F1m = F1 macro)") == [("F1 macro", KEY_SCORE)]


def test_a_key_sentence_of_its_own_is_read_in_the_captions_section() -> None:
    section = "Figure and table captions"
    assert read("Sen: Sensitivity.", section=section) == [("Sensitivity", KEY_SCORE)]
    assert read("Sen: Sensitivity.") == []  # a body sentence is no caption


def test_a_key_of_something_else_or_a_metric_in_running_words_is_not_read() -> None:
    assert read("Table 3: Corpus counts. Tok: tokens; Sent: sentences.") == []
    assert read("Table 3: Counts of the reef corpus. Note: accuracy of the parser is lower.") == []
