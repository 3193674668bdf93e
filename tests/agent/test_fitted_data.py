"""Shipped fitted data (agent/fitted_data.py): read from the package's data folder, a malformed
file is its own clear error, and a value put in use holds only inside its block."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources

import numpy as np
import pytest

from citewise.agent.ask.answerable import answerable_in_use, answerable_model, shipped_model
from citewise.agent.ask.calibration import SupportCalibration, calibrated, calibration_in_use
from citewise.agent.ask.scorer import answer_scorer, scorer_in_use
from citewise.agent.fitted_data import FittedFile, InUse, shipped_json, shipped_text
from citewise.errors import CitewiseError

ROUND = FittedFile("round.json", "the round's values are malformed", code="BAD_ROUND", hint="refit")


def test_shipped_files_are_read_from_the_package_data_folder() -> None:
    path = resources.files("citewise.agent").joinpath("data", "answer_scorer.json")
    text = path.read_text("utf-8")
    assert shipped_text("answer_scorer.json") == text
    assert shipped_json("answer_scorer.json") == json.loads(text)


def test_a_missing_or_wrong_value_is_the_files_own_error() -> None:
    data: dict[str, object] = {"width": "wide"}
    for broken in (lambda: data["height"], lambda: float(data["width"])):  # type: ignore[arg-type]
        with pytest.raises(CitewiseError) as raised, ROUND.parsing():
            broken()
        assert raised.value.code == "BAD_ROUND" and raised.value.hint == "refit"
        assert raised.value.message.startswith("the round's values are malformed: ")
    error = ROUND.mismatch("the round has more weights than signals")
    assert error.code == "BAD_ROUND" and error.message.endswith("more weights than signals")


def test_an_error_of_another_kind_passes_through_parsing() -> None:
    with pytest.raises(ZeroDivisionError), ROUND.parsing():
        _ = 1 / 0


def test_values_in_use_nest_and_the_outer_one_returns_even_after_an_error() -> None:
    reads: list[str] = []

    def shipped() -> str:
        reads.append("read")
        return "shipped"

    weights = InUse[str](shipped)
    assert weights.current() == "shipped"
    with weights.holding("fold one") as held:
        assert held == "fold one" == weights.current()
        with pytest.raises(RuntimeError), weights.holding("fold two"):
            assert weights.current() == "fold two"
            raise RuntimeError("the fit failed")
        assert weights.current() == "fold one"
    assert weights.current() == "shipped" and len(reads) == 2


def test_the_fitted_models_swap_through_their_own_blocks() -> None:
    surer = replace(answer_scorer(), threshold=0.99)
    with scorer_in_use(surer):
        assert answer_scorer() is surer
    assert answer_scorer() is not surer
    with answerable_in_use(None):
        assert answerable_model() is None
    assert answerable_model() is shipped_model()
    with calibration_in_use(None):
        assert calibrated(0.37, {}) == 0.37  # no calibration: the scorer's support as it is
    indifferent = SupportCalibration((), np.zeros(1), np.ones(1), np.zeros(1), 0.0, ())
    with calibration_in_use(indifferent):
        assert calibrated(0.9, {}) == pytest.approx(0.5)  # zero weights: sigmoid(0)
