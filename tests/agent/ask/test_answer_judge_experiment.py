"""The held-out measurement of scripts/answer_judge_experiment.py: a judge's candidate scores
come from a conditional logit fitted without the scored question's papers, so a feature that
marks the answering sentence ranks it first and noise does not; and a candidate counts as in
the annotators' evidence only when nearly all its words are in one evidence passage."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.conftest import load_script

SCRIPT = Path(__file__).parents[3] / "scripts" / "answer_judge_experiment.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "answer_judge_experiment")


def _records(separates: float, seed: int = 3) -> list[dict[str, Any]]:
    """40 papers, two questions each, ten candidates each, one of which answers; column 0
    of the feature rows is higher on it by `separates` standard deviations, column 1 is noise."""
    rng = np.random.default_rng(seed)
    records = []
    for paper in range(40):
        for _ in range(2):
            labels = np.zeros(10)
            labels[rng.integers(10)] = 1.0
            rows = rng.normal(size=(10, 2))
            rows[:, 0] += separates * labels
            records.append(
                {
                    "paper": f"paper-{paper}.md",
                    "type": "extractive",
                    "answerable": True,
                    "texts": [f"sentence {i}" for i in range(10)],
                    "rows": rows,
                    "labels": labels,
                    "evidence": labels,
                }
            )
    return records


def _top1(script: ModuleType, records: list[dict[str, Any]]) -> float:
    scores = script.held_out_scores(records, ("base",), 1.0, 0)
    return float(
        np.mean([r["labels"][int(np.argmax(s))] for r, s in zip(records, scores, strict=True)])
    )


def test_a_feature_that_marks_the_answer_ranks_it_first_on_papers_held_out() -> None:
    script = _script()
    assert _top1(script, _records(separates=4.0)) > 0.9


def test_noise_ranks_the_answer_first_about_as_often_as_chance() -> None:
    script = _script()
    assert _top1(script, _records(separates=0.0)) < 0.3


def test_a_sentence_counts_as_evidence_only_when_one_passage_holds_its_words() -> None:
    script = _script()
    evidence = (
        "The corpus holds twelve course books from four publishers. ... "
        "Annotators labelled every sentence with its reading level."
    )
    assert script.in_evidence(
        "The corpus holds twelve course books from four publishers.", evidence
    )
    assert not script.in_evidence("Twelve books.", evidence)  # too short to tell
    # its words split over two passages: not one annotated span
    assert not script.in_evidence(
        "Annotators labelled twelve course books from four publishers.", evidence
    )
