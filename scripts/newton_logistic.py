"""Newton's method for a weighted, ridge-penalised logistic regression: the one solver of the
fitting scripts (fit_answer_scorer.py, fit_yes_no.py, fit_prose_reader.py), numpy only.

Each script builds its own design matrix (where the bias column sits), row weights (class
balance or item weights) and penalty (which columns the ridge spares); this loop is the same
for all of them.
"""

from __future__ import annotations

import numpy as np


def newton(
    design: np.ndarray, y: np.ndarray, weight: np.ndarray, penalty: np.ndarray, steps: int
) -> np.ndarray:
    """The coefficients minimising the weighted log-loss plus w·penalty·w/2, by at most
    `steps` Newton steps (stops once no coefficient moves by 1e-8)."""
    w = np.zeros(design.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ w, -30, 30)))
        gradient = design.T @ (weight * (p - y)) + penalty @ w
        hessian = (design * (weight * p * (1 - p))[:, None]).T @ design + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w
