"""The solvers of the fitting scripts (fit_answer_scorer.py, fit_yes_no.py,
fit_prose_reader.py), numpy only: Newton's method for a weighted, ridge-penalised logistic
regression, and Adam steps for a conditional logit (a softmax over each group's candidates).

Each script builds its own design matrix (where the bias column sits), row weights (class
balance or item weights) and penalty (which columns the ridge spares); the loops are the same
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


def listwise(
    x: np.ndarray,
    y: np.ndarray,
    groups: np.ndarray,
    weight: np.ndarray,
    l2: float,
    steps: int = 1500,
) -> np.ndarray:
    """Weights of a conditional logit over each item's candidates: the softmax of x @ w
    within an item should put its mass on the sentences that hold the answer (items with
    none teach nothing about ranking and are left out). Adam steps on the L2-penalised loss."""
    keep = np.isin(groups, np.unique(groups[y == 1]))
    x, y, groups, weight = x[keep], y[keep], groups[keep], weight[keep]
    _, index = np.unique(groups, return_inverse=True)
    n_groups = int(index.max()) + 1 if len(index) else 0
    item_weight = np.zeros(n_groups)
    np.maximum.at(item_weight, index, weight)
    w = np.zeros(x.shape[1])
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        s = x @ w
        peak = np.full(n_groups, -np.inf)
        np.maximum.at(peak, index, s)
        e = np.exp(s - peak[index])
        total = np.bincount(index, e, n_groups)
        good = np.bincount(index, e * y, n_groups)
        p = e / total[index]  # the softmax within the item
        q = e * y / good[index]  # the same over the item's right sentences only
        gradient = x.T @ ((p - q) * item_weight[index]) / item_weight.sum() + l2 * w / len(x)
        m = 0.9 * m + 0.1 * gradient
        v = 0.999 * v + 0.001 * gradient**2
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w
