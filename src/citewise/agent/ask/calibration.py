"""A drafted answer's support as a calibrated probability of being right, per answer family.

The fitted scorer's support (agent/ask/scorer.py) is pooled over short reports and long
papers: a sentence that covers a question well in a one-page report is usually the answer,
in a forty-page paper much less often. This second step reads the scorer's support with the
draft's `paper_blocks` (agent/ask/answerable.py) in a logistic model, then maps it through
isotonic bins, a step each (no interpolation past what a bin saw), whose values are the
*lower* bound (one-sided 95%, Wilson) of the share of the bin's answers that were right,
so that a support of 0.8 is given only where at least that share of the fitted answers
was right with margin. Weights and bins are data
(`agent/data/support_calibration.json`, written by scripts/fit_answerable.py from the odd
halves of the QASPER and TAT-QA pools).
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from citewise.agent.ask.scorer import sigmoid
from citewise.agent.fitted_data import FittedFile, InUse

CALIBRATION_FILE = "support_calibration.json"
CALIBRATION = FittedFile(
    CALIBRATION_FILE,
    "the support calibration is malformed",
    code="BAD_SUPPORT_CALIBRATION",
    hint="refit it: python scripts/fit_answerable.py",
)
# The scorer's support, as log-odds (the first input of the model).
SCORER_SUPPORT = "scorer_support"


@dataclass(frozen=True)
class SupportCalibration:
    """support = bins(sigmoid(weights . (inputs - mean) / scale + bias)); inputs are the
    scorer's support as log-odds, then `signals` of the draft; each bin is (the lowest raw
    value it holds, its value)."""

    signals: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    bins: tuple[tuple[float, float], ...]

    def inputs(self, scorer_support: float, signals: dict[str, float]) -> np.ndarray:
        p = min(max(scorer_support, 1e-3), 1 - 1e-3)
        values = [math.log(p / (1 - p))]
        values += [
            signals.get(n, float(m)) for n, m in zip(self.signals, self.mean[1:], strict=True)
        ]
        return np.asarray(values, dtype=np.float64)

    def raw(self, scorer_support: float, signals: dict[str, float]) -> float:
        z = float(((self.inputs(scorer_support, signals) - self.mean) / self.scale) @ self.weights)
        return sigmoid(z + self.bias)

    def support(self, scorer_support: float, signals: dict[str, float]) -> float:
        """The calibrated support of a draft the scorer gives `scorer_support`."""
        return stepped(self.raw(scorer_support, signals), self.bins)

    def to_dict(self) -> dict[str, object]:
        return {
            "signals": list(self.signals),
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "weights": self.weights.round(6).tolist(),
            "bias": round(self.bias, 6),
            "bins": [[round(low, 6), round(value, 4)] for low, value in self.bins],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> SupportCalibration:
        with CALIBRATION.parsing():
            calibration = cls(
                tuple(str(s) for s in data["signals"]),  # type: ignore[attr-defined]  # a list in the file
                np.asarray(data["mean"], dtype=np.float64),
                np.asarray(data["scale"], dtype=np.float64),
                np.asarray(data["weights"], dtype=np.float64),
                float(data["bias"]),  # type: ignore[arg-type]  # a number in the file
                tuple((float(low), float(v)) for low, v in data["bins"]),  # type: ignore[attr-defined]  # a list in the file
            )
        width = len(calibration.signals) + 1
        if not len(calibration.mean) == len(calibration.scale) == len(calibration.weights) == width:
            raise CALIBRATION.mismatch("the support calibration does not match its signals")
        return calibration


@lru_cache(maxsize=1)
def shipped_calibration() -> SupportCalibration:
    """The shipped calibration (read once)."""
    return SupportCalibration.from_dict(CALIBRATION.read())


_IN_USE = InUse[SupportCalibration | None](shipped_calibration)


def calibration_in_use(
    calibration: SupportCalibration | None,
) -> AbstractContextManager[SupportCalibration | None]:
    """Calibrate by `calibration` inside the block; None: the scorer's support as it is
    (scripts/fit_answerable.py fits the calibration so)."""
    return _IN_USE.holding(calibration)


def calibrated(scorer_support: float, signals: dict[str, float]) -> float:
    """A draft's support: the scorer's, through the calibration in use."""
    calibration = _IN_USE.current()
    if calibration is None:
        return scorer_support
    return calibration.support(scorer_support, signals)


def stepped(raw: float, bins: tuple[tuple[float, float], ...]) -> float:
    """The value of the last bin whose lowest raw value is at most `raw` (the first bin's
    below them all); `raw` itself without bins."""
    if not bins:
        return raw
    value = bins[0][1]
    for low, bin_value in bins:
        if raw < low:
            break
        value = bin_value
    return value


def wilson_lower(right: float, count: float, z: float = 1.645) -> float:
    """The one-sided lower confidence bound of a share `right` of `count` (Wilson)."""
    if count <= 0:
        return 0.0
    p = right / count
    middle = p + z * z / (2 * count)
    spread = z * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count))
    return (middle - spread) / (1 + z * z / count)
