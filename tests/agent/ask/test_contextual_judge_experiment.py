"""The measurement of scripts/contextual_judge_experiment.py: the interaction head's candidate
scores come from a fit made without the scored question's papers, so a pair that agrees where
answers agree ranks the answering sentence first and noise does not; and the word-piece maxsim
reads how well a sentence's contextual pieces cover the question's rare pieces."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from citewise.agent.ask.features import FEATURES
from tests.conftest import load_script

SCRIPT = Path(__file__).parents[3] / "scripts" / "contextual_judge_experiment.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "contextual_judge_experiment")


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _records(answers_align: bool, seed: int = 5) -> list[dict[str, Any]]:
    """40 papers, two questions each, eight candidates each, one of which answers; when
    `answers_align` the answering sentence's vector agrees with the question's in its first
    four dimensions (the others are noise for every candidate)."""
    rng = np.random.default_rng(seed)
    records = []
    for paper in range(40):
        for _ in range(2):
            labels = np.zeros(8)
            labels[rng.integers(8)] = 1.0
            q = _unit(rng.normal(size=12))
            s = rng.normal(size=(8, 12))
            if answers_align:
                s[labels == 1, :4] = 3.0 * q[:4]
            s = _unit(s)
            records.append(
                {
                    "paper": f"paper-{paper}.md",
                    "answerable": True,
                    "texts": [f"sentence {i}" for i in range(8)],
                    "q": q,
                    "s": s,
                    "cos": s @ q,
                    "logits": np.zeros(8),
                    "labels": labels,
                    "evidence": labels,
                }
            )
    return records


def _head_top1(script: ModuleType, records: list[dict[str, Any]]) -> float:
    scores = script.head_scores(records, 0)
    return float(
        np.mean([r["labels"][int(np.argmax(s))] for r, s in zip(records, scores, strict=True)])
    )


def test_the_head_ranks_first_a_sentence_agreeing_with_its_question_on_papers_held_out() -> None:
    assert _head_top1(_script(), _records(answers_align=True)) > 0.8


def test_a_head_fitted_on_noise_ranks_the_answer_first_about_as_often_as_chance() -> None:
    assert _head_top1(_script(), _records(answers_align=False)) < 0.3


def test_maxsim_is_the_idf_weighted_best_piece_match_of_the_question() -> None:
    script = _script()
    basis = np.eye(6, dtype=np.float32)
    # pieces: [CLS]=101, [SEP]=102; 7 and 8 are the question's content pieces
    enc = {
        "what corpus?": (basis[0], basis[[0, 1, 2, 0]], np.asarray([101, 7, 8, 102])),
        "it states both": (basis[0], basis[[0, 1, 2, 0]], np.asarray([101, 7, 8, 102])),
        "it states one": (basis[0], basis[[0, 1, 3, 0]], np.asarray([101, 7, 9, 102])),
        "it states none": (basis[0], basis[[0, 4, 5, 0]], np.asarray([101, 10, 11, 102])),
        "filler": (basis[0], basis[[0, 5, 0]], np.asarray([101, 12, 102])),
    }
    records = [
        {
            "question": "what corpus?",
            "texts": ["it states both", "it states one", "it states none", "filler"],
            "rows": np.zeros((4, len(FEATURES))),
        }
    ]
    script.judge_inputs(records, enc)
    both, one, none, _ = records[0]["maxsim"]
    assert both == pytest.approx(1.0)
    assert 0.0 < one < 1.0  # one of the two rare pieces found
    assert none == 0.0
