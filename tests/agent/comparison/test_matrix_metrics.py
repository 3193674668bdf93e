"""Metrics a paper names as such (agent/comparison/aspect_readers/matrix_metrics.py): its own
list after "evaluation metrics:", each metric of it, in sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import (
    listed_metrics,
    metric_long_forms,
)
from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit


def unit(text: str, section: str = "Paper > 5 Experiments > Evaluation", n: int = 1) -> Unit:
    return Unit(text, f"b-{n}", 2, section, "paragraph", n)


def test_a_list_after_several_words_before_metrics_gives_each_metric() -> None:
    said = unit("We report four standard ranking evaluation metrics: MRR, NDCG and accuracy.")
    assert {f.value for f in listed_metrics([said])} >= {"MRR", "NDCG", "accuracy"}


def test_the_evaluation_metrics_list_outranks_a_score_used_to_pick_a_checkpoint() -> None:
    picked = unit("We keep the checkpoint with the best F1 on the dev set.", "Paper > 5 Setup")
    listed = unit("The evaluation metrics are: MRR and recall at one.", n=2)
    found = find_in_unit("metrics", picked) + listed_metrics([picked, listed])
    assert best_distinct(found, 1)[0].value == "MRR"


def test_metrics_named_without_a_list_are_not_listed() -> None:
    assert listed_metrics([unit("Accuracy rose on every split we tried.")]) == []


def test_an_acronym_metric_is_shown_as_the_paper_defines_it() -> None:
    defined = unit("We score ranking with the Mean Harbor Rank (MHR) of each answer.", n=1)
    used = unit("Our model improves MHR by four points.", n=2)
    found = find_in_unit("metrics", used) + [
        Finding("metrics", "MHR", used.text, 2, "b-2", used.section, 3.0)
    ]
    shown = metric_long_forms(found, [defined, used])
    assert "Mean Harbor Rank (MHR)" in [f.value for f in shown]
    assert all(f.score == 3.0 for f in shown if f.value == "Mean Harbor Rank (MHR)")


def test_an_acronym_without_a_long_form_or_with_other_initials_stays() -> None:
    odd = unit("We use the Bilingual Overlap Score (BLEU) here.")
    f = Finding("metrics", "BLEU", odd.text, 2, "b-1", odd.section, 2.0)
    assert metric_long_forms([f], [odd])[0].value == "BLEU"


def test_a_part_of_a_long_form_is_shown_as_the_long_form() -> None:
    said = unit("Word error rate (WER) is our main measure.")
    wer = Finding("metrics", "WER", said.text, 2, "b-1", said.section, 2.0)
    part = Finding("metrics", "error rate", said.text, 2, "b-1", said.section, 2.5)
    shown = [f.value for f in metric_long_forms([part, wer], [said])]
    assert shown == ["Word error rate (WER)", "Word error rate (WER)"]
