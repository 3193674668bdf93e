"""The fitted answer scorer: candidate features -> probability that the sentence holds the
answer; the drafted answer's probability -> calibrated support and the refusal threshold.

Weights are data (`agent/data/answer_scorer.json`), written by `scripts/fit_answer_scorer.py`
from the development pools and read here with numpy: a conditional logit over
agent/ask/features.py's FEATURES (standardised), then a logistic calibration of the
drafted answer's signals (its log-odds among them, and agent/ask/asked.py's whether
the paper answers what was asked) against whether the answer was right, isotonic bins over
that, and the one support below which an answer would be refused (agent/ask/refusal.py
`decide` with `by_support`; measured, not the default: docs/benchmarks.md).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from citewise.agent.ask.features import FEATURES
from citewise.agent.fitted_data import FittedFile, InUse

WEIGHTS_FILE = "answer_scorer.json"
WEIGHTS = FittedFile(
    WEIGHTS_FILE,
    "the answer scorer's weights are malformed",
    code="BAD_SCORER_WEIGHTS",
    hint="refit them: python scripts/fit_answer_scorer.py",
)


@dataclass(frozen=True)
class AnswerScorer:
    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    # support = sigmoid(calibration_weights . signals[calibration_signals] + calibration_bias)
    calibration_signals: tuple[str, ...]
    calibration_weights: np.ndarray
    calibration_bias: float
    # the fitted refusal threshold on support (agent/ask/refusal.py, `by_support`), and the share of
    # the question the retrieved passages cover below which a refusal's kind is
    # "not in the library" rather than "not answered"
    threshold: float
    about_floor: float
    # isotonic bins over that sigmoid: (middle raw value of the bin, share of its answers
    # that were right), interpolated between; empty: the sigmoid is the support
    bins: tuple[tuple[float, float], ...] = ()
    # each calibration signal's mean over the fitted answers: the value read when a draft
    # lacks it (a comparison's per-paper drafts are not measured by asked.py)
    defaults: tuple[float, ...] = ()

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """The log-odds that each candidate (a row of FEATURES) holds the answer."""
        if rows.size == 0:
            return np.zeros(0, dtype=np.float64)
        z = (rows.astype(np.float64) - self.mean) / self.scale
        return np.asarray(z @ self.weights + self.bias, dtype=np.float64)

    def support(self, signals: dict[str, float]) -> float:
        """The calibrated probability that the drafted answer with these signals is right:
        its first sentence's log-odds, how much of the question it and the retrieved
        passages cover, how far it leads the next passage's best sentence."""
        defaults = self.defaults or (0.0,) * len(self.calibration_signals)
        x = np.asarray(
            [signals.get(n, d) for n, d in zip(self.calibration_signals, defaults, strict=True)]
        )
        raw = sigmoid(float(x @ self.calibration_weights) + self.calibration_bias)
        return binned(raw, self.bins)

    def to_dict(self) -> dict[str, object]:
        return {
            "features": list(self.features),
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "weights": self.weights.round(6).tolist(),
            "bias": round(self.bias, 6),
            "calibration": {
                "signals": list(self.calibration_signals),
                "weights": self.calibration_weights.round(6).tolist(),
                "bias": round(self.calibration_bias, 6),
                "bins": [[round(low, 6), round(value, 4)] for low, value in self.bins],
                "defaults": [round(d, 6) for d in self.defaults],
            },
            "threshold": round(self.threshold, 4),
            "about_floor": round(self.about_floor, 4),
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> AnswerScorer:
        with WEIGHTS.parsing():
            calibration = data["calibration"]
            assert isinstance(calibration, dict)
            scorer = cls(
                tuple(data["features"]),  # type: ignore[arg-type]  # checked just below
                np.asarray(data["mean"], dtype=np.float64),
                np.asarray(data["scale"], dtype=np.float64),
                np.asarray(data["weights"], dtype=np.float64),
                float(data["bias"]),  # type: ignore[arg-type]  # a number in the file
                tuple(calibration["signals"]),
                np.asarray(calibration["weights"], dtype=np.float64),
                float(calibration["bias"]),
                float(data["threshold"]),  # type: ignore[arg-type]  # a number in the file
                float(data["about_floor"]),  # type: ignore[arg-type]  # a number in the file
                tuple((float(low), float(v)) for low, v in calibration.get("bins", [])),
                tuple(float(d) for d in calibration.get("defaults", [])),
            )
        if (
            scorer.features != FEATURES
            or not len(scorer.mean) == len(scorer.scale) == len(scorer.weights) == len(FEATURES)
            or len(scorer.calibration_signals) != len(scorer.calibration_weights)
            or len(scorer.defaults) not in (0, len(scorer.calibration_signals))
        ):
            raise WEIGHTS.mismatch("the answer scorer's weights were fitted for other features")
        return scorer


def binned(raw: float, bins: tuple[tuple[float, float], ...]) -> float:
    """The isotonic calibration of `raw`: linear between the bins' middles (each bin is
    (its middle raw value, share of its answers right)), flat beyond the first and last;
    `raw` itself without bins."""
    if not bins:
        return raw
    if raw <= bins[0][0]:
        return bins[0][1]
    for (low, low_value), (high, high_value) in zip(bins, bins[1:], strict=False):
        if raw <= high:
            share = (raw - low) / (high - low) if high > low else 1.0
            return low_value + share * (high_value - low_value)
    return bins[-1][1]


def sigmoid(x: float) -> float:
    """The logistic function, clipped so a large logit cannot overflow."""
    return float(1.0 / (1.0 + np.exp(-np.clip(x, -30, 30))))


@lru_cache(maxsize=1)
def shipped_scorer() -> AnswerScorer:
    """The shipped scorer (read once)."""
    return AnswerScorer.from_dict(WEIGHTS.read())


_IN_USE = InUse[AnswerScorer](shipped_scorer)


def answer_scorer() -> AnswerScorer:
    """The scorer answers are ranked and supported by: the shipped one, unless a fitting
    script has put another in use (`scorer_in_use`)."""
    return _IN_USE.current()


def scorer_in_use(scorer: AnswerScorer) -> AbstractContextManager[AnswerScorer]:
    """Answer with `scorer` inside the block (scripts/fit_answer_scorer.py scores each
    fold's items with weights fitted without them)."""
    return _IN_USE.holding(scorer)
