"""Metrics a paper names as such (agent/comparison/aspect_readers/matrix_metrics.py): its own
list after "evaluation metrics:", each metric of it, in sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import listed_metrics
from citewise.agent.comparison.extraction import Unit, best_distinct, find_in_unit


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
