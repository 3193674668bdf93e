"""The fitted yes/no model: a logistic regression over agent/yesno/features.py's numbers,
its weights shipped as agent/data/yes_no_weights.json (refitted by scripts/fit_yes_no.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from citewise.agent.fitted_data import shipped_json
from citewise.agent.yesno.features import Features
from citewise.errors import CitewiseError

WEIGHTS_FILE = "yes_no_weights.json"


@dataclass(frozen=True)
class YesNoModel:
    weights: tuple[float, ...]
    bias: float
    # the probability of "Yes" from which the lead says "Yes" (fitted: most answers are
    # "Yes", and the cut is chosen right as often on each answer apart)
    threshold: float
    # no lead when the probability is within this of the threshold: nothing settles it
    margin: float

    def probability(self, found: Features) -> float:
        """The probability that the answer is "Yes"."""
        z = self.bias + sum(w * x for w, x in zip(self.weights, found.vector(), strict=True))
        return 1.0 / (1.0 + math.exp(-z))


def _number(data: dict[str, object], key: str, source: str) -> float:
    value = data.get(key)
    if not isinstance(value, int | float):
        raise CitewiseError(
            f"{source}: '{key}' is not a number",
            hint="refit the weights with scripts/fit_yes_no.py",
            code="YES_NO_MODEL_INVALID",
        )
    return float(value)


def parse_model(data: dict[str, object], source: str = WEIGHTS_FILE) -> YesNoModel:
    """The model from its JSON; its feature names must be the ones features.py computes."""
    names = data.get("features")
    weights = data.get("weights")
    if names != list(Features.names()) or not isinstance(weights, list):
        raise CitewiseError(
            f"{source}: features {names} are not {list(Features.names())}",
            hint="refit the weights with scripts/fit_yes_no.py",
            code="YES_NO_MODEL_STALE",
        )
    return YesNoModel(
        tuple(_number({"weight": w}, "weight", source) for w in weights),
        _number(data, "bias", source),
        _number(data, "threshold", source),
        _number(data, "margin", source),
    )


@cache
def model() -> YesNoModel:
    """The shipped model, read once."""
    return parse_model(shipped_json(WEIGHTS_FILE))
