"""Fit the support function of table answers (src/citewise/agent/numeric/tables/support.json).

Input: `citewise eval ... --json` results of a development half (the table answers carry
their features as `table_*` signals) and the items' file, for the record. Output: the
logistic weights that make support the probability a table answer is right, fitted by
plain gradient descent with numpy (a little L2 so a feature seen constant stays small; a
feature the half never sets gets weight 0, and the script names it).

    python scripts/fit_table_support.py RESULTS.json --without BEFORE.json \
        --note "TAT-QA odd half at <commit>"

RESULTS.json: the TAT-QA odd half (splits/odd.yaml) answered with every table answer
given (a support.json whose `kind_floors` are all 0), so the fit sees each candidate.
BEFORE.json: the same items answered by the same build with no table answer given
(`answer_floor` and every kind floor 1.0): the sentence picker's answers, for the floors
of the kinds that read a figure (where the picker answers them as well, they are not
given). Restore support.json before running the script: it writes the file.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from citewise.agent.numeric.tables.support import FEATURES, KINDS

OUT = (
    Path(__file__).parents[1] / "src" / "citewise" / "agent" / "numeric" / "tables" / "support.json"
)


def rows(results: list[Path]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    x, y, ids = [], [], []
    for path in results:
        for item in json.loads(path.read_text())["items"]:
            signals = item.get("signals") or {}
            if "table_columns" not in signals or item["refused"]:
                continue
            x.append([float(signals.get(f"table_{k}", 0.0)) for k in FEATURES])
            y.append(1.0 if item["correct"] else 0.0)
            ids.append(item["id"])
    return np.array(x), np.array(y), ids


def fit(x: np.ndarray, y: np.ndarray, l2: float = 0.01, steps: int = 20000) -> np.ndarray:
    design = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(design.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-design @ w))
        grad = design.T @ (p - y) / len(y) + l2 * np.r_[0.0, w[1:]]
        w -= 0.5 * grad
    return w


def kind_floor(p: np.ndarray, y: np.ndarray, other: np.ndarray) -> float:
    """The support from which answers of a kind that reads a figure (a cell, the largest
    row) are given: the threshold that gets the most items right on the development half,
    counting below it what the sentence picker answered instead (`other`: 1 where its
    answer was right; the text around a table often states the figure the question
    means), set halfway to the nearest answer it leaves out. 1.0 when the picker does as
    well everywhere."""
    best, floor = float(other.sum()), 1.0
    for t in sorted(set(p.tolist())):
        right = float(y[p >= t].sum() + other[p < t].sum())
        if right > best:
            best, floor = right, t
    if floor < 1.0:
        # halfway to the answer the floor leaves out (0 when it leaves none out): the
        # lowest support seen is no reason to refuse answers a little below it
        below = p[p < floor]
        floor = (float(below.max()) + floor) / 2 if below.size else 0.0
    return round(floor, 4)


def others(paths: list[Path]) -> dict[str, float]:
    """Item -> 1.0 when the sentence picker's answer (a run without the kinds) was right."""
    return {
        item["id"]: float(item["correct"])
        for path in paths
        for item in json.loads(path.read_text())["items"]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, nargs="+")
    parser.add_argument(
        "--without",
        type=Path,
        nargs="+",
        required=True,
        help="results of the same items with no cell or largest-row answers",
    )
    parser.add_argument("--note", required=True, help="what the results are (set, half, commit)")
    args = parser.parse_args()
    x, y, ids = rows(args.results)
    before = others(args.without)
    other = np.array([before.get(i, 0.0) for i in ids])
    w = fit(x, y)
    unseen = [k for i, k in enumerate(FEATURES) if not x[:, i].any()]
    if unseen:
        print(f"never set on these items (weight 0): {', '.join(unseen)}")
    p = 1.0 / (1.0 + np.exp(-np.hstack([np.ones((len(x), 1)), x]) @ w))
    high = p >= 0.8
    print(
        f"{len(y)} table answers, {y.mean():.3f} right; support >= 0.8: {high.sum()} answers,"
        f" {y[high].mean() if high.any() else float('nan'):.3f} right"
    )
    kinds = {k: x[:, FEATURES.index(k)] > 0 for k in KINDS}
    floors = {k: kind_floor(p[m], y[m], other[m]) for k, m in kinds.items()}
    print(f"floors: {floors}")
    data = {
        "provenance": f"fitted by scripts/fit_table_support.py on {args.note}: {len(y)} table"
        f" answers, {int(y.sum())} right",
        "weights": {"bias": round(float(w[0]), 4)}
        | {k: round(float(v), 4) for k, v in zip(FEATURES, w[1:], strict=True)},
        "answer_floor": 0.0,
        "kind_floors": floors,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps(data["weights"]))


if __name__ == "__main__":
    main()
