"""The table support file and the script that fits it (scripts/fit_table_support.py)."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from types import ModuleType

import numpy as np

from citewise.agent.numeric.tables.support import FEATURES, KINDS
from tests.conftest import load_script

SCRIPT = Path(__file__).parents[3] / "scripts" / "fit_table_support.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "fit_table_support")


def test_the_support_file_weighs_exactly_the_features_answers_report() -> None:
    data = json.loads(files("citewise.agent.numeric.tables").joinpath("support.json").read_text())
    assert set(data["weights"]) == {"bias", *FEATURES}
    assert set(data["kind_floors"]) <= set(KINDS)


def test_a_kind_right_everywhere_gets_no_floor() -> None:
    floor = _script().kind_floor(np.array([0.62, 0.9]), np.array([1.0, 1.0]), np.zeros(2))
    assert floor == 0.0


def test_a_floor_sits_halfway_to_the_answer_it_leaves_out() -> None:
    support = np.array([0.3, 0.7, 0.9])
    right = np.array([0.0, 1.0, 1.0])
    picker = np.array([1.0, 0.0, 0.0])  # the sentence picker answers the lowest one right
    assert _script().kind_floor(support, right, picker) == 0.5


def test_a_kind_the_picker_answers_as_well_is_never_given() -> None:
    floor = _script().kind_floor(np.array([0.5, 0.9]), np.array([0.0, 1.0]), np.ones(2))
    assert floor == 1.0
