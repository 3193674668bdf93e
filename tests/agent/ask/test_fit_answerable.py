"""The held-out numbers scripts/fit_answerable.py fits and checks P(answerable) by: each
question's probability from a model fitted without its fold of papers, the refusal threshold
searched within a cap on answerable questions refused, and `--check`'s average over several
splits of the papers — on drafts these tests make up."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import numpy as np

from tests.conftest import load_script

SCRIPT = Path(__file__).parents[3] / "scripts" / "fit_answerable.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "fit_answerable")


def _drafts(script: ModuleType, separates: float, seed: int = 7) -> list:
    """60 papers with three answerable questions and one unanswerable each; the signal
    "told" is higher for answerable ones by `separates` standard deviations, "noise" is not;
    the pipeline itself refuses one answerable question in ten."""
    rng = random.Random(seed)
    rows = []
    for paper in range(60):
        for asked in range(4):
            answerable = asked < 3
            told = rng.gauss(separates if answerable else 0.0, 1.0)
            signals = {"told": told, "noise": rng.gauss(0.0, 1.0)}
            refused = answerable and rng.random() < 0.1
            right = answerable and not refused
            paper_name = f"paper-{paper}.md"
            rows.append(script.Asked(signals, 0.5, refused, right, answerable, paper_name, True))
    return rows


def test_a_signal_that_tells_the_questions_apart_orders_them_held_out() -> None:
    script = _script()
    rows = _drafts(script, separates=4.0)
    for seed in (0, 1, 2):
        held = script.held_out_probabilities(rows, ("told",), seed)
        labels = np.asarray([1.0 if r.answerable else 0.0 for r in rows])
        assert script.auc(held, labels) > 0.97
    found = script.searched(rows, script.held_out_probabilities(rows, ("told",)), 0.15)
    assert found.unanswerable_refused > 0.9
    assert found.answerable_refused <= 0.15


def test_noise_orders_nothing_and_the_cap_on_answerable_refusals_holds() -> None:
    script = _script()
    rows = _drafts(script, separates=0.0)
    found = script.check(rows, ("noise",), 0.12, seeds=4)
    assert 0.3 < found.auc < 0.7
    assert found.answerable_refused <= 0.12
    # the pipeline's own refusals stay refused whatever the threshold
    alone = np.mean([r.refused for r in rows if r.answerable])
    assert found.answerable_refused >= alone


def test_other_seeds_split_the_same_papers_otherwise_and_seed_zero_is_the_shipped_split() -> None:
    script = _script()
    rows = _drafts(script, separates=1.0)
    first = script.held_out_probabilities(rows, ("told", "noise"), 0)
    again = script.held_out_probabilities(rows, ("told", "noise"), 0)
    other = script.held_out_probabilities(rows, ("told", "noise"), 1)
    assert np.array_equal(first, again)
    assert not np.allclose(first, other)
    model = script.fit_refusal(rows, 0.15, ("told", "noise"))
    assert model.threshold == script.searched(rows, first, 0.15).threshold
    assert model.signals == ("told", "noise")
