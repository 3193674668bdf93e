"""Refit the yes/no lead's logistic regression (src/citewise/agent/data/yes_no_weights.json).

    python scripts/fit_yes_no.py --library LIB --items ../shared/qa/external/qasper/splits/odd.yaml

LIB is a library holding the items' papers (the pools tool's QASPER library will do). Only
`type: yes_no` items are read, and only from the half the project develops on (odd): the
other half stays unseen, to judge the model. Prints leave-one-paper-out accuracy on the
items (each paper's items scored by a fit on the other papers), and the same with each
feature left out: a feature stays only while leaving it out costs accuracy or ranking (AUC).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

import numpy as np
import yaml

from citewise.agent.yesno.features import Features
from citewise.agent.yesno.judge import read
from citewise.agent.yesno.paper import PaperSentences
from citewise.api import Library

sys.path.insert(0, str(Path(__file__).resolve().parent))
from logistic_fits import newton  # noqa: E402

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "src/citewise/agent/data/yes_no_weights.json"
L2 = 1.0  # ridge penalty on the weights (not the bias): few items, few features
MARGIN = 0.0
# the floor on each answer ("yes", "no") is 0.5; a cut is chosen 0.1 above it
EACH_FLOOR = 0.6


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50) -> np.ndarray:
    """Class-balanced logistic regression with a ridge penalty on the weights (not the bias),
    by Newton's method; returns [bias, *weights]."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    balance = np.where(y == 1, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
    ridge = l2 * np.eye(xb.shape[1])
    ridge[0, 0] = 0.0
    return newton(xb, y, balance, ridge, steps)


def chosen_threshold(p: np.ndarray, y: np.ndarray) -> float:
    """The probability of "Yes" from which the lead says "Yes": the cut right most often
    among those right at least EACH_FLOOR of the time on each answer apart (most answers
    are "Yes", and a lead that always says so answers nothing); a tie goes to the cut
    nearest 1/2. Without such a cut, the one best on the two answers' mean accuracy."""
    cuts = sorted({0.5, *(round(float(v), 4) for v in p)})

    def scores(cut: float) -> tuple[float, float, float]:
        said = p >= cut
        return (
            float((said == (y == 1)).mean()),
            float(said[y == 1].mean()),
            float((~said)[y == 0].mean()),
        )

    fair = [c for c in cuts if min(scores(c)[1:]) >= EACH_FLOOR]
    if fair:
        return max(fair, key=lambda c: (round(scores(c)[0], 6), -abs(c - 0.5)))
    return max(cuts, key=lambda c: (round(sum(scores(c)[1:]), 6), -abs(c - 0.5)))


def held_out_probabilities(x: np.ndarray, y: np.ndarray, papers: np.ndarray) -> np.ndarray:
    """Each item's probability of "Yes" from a fit on the other papers' items (a paper's
    questions share its sentences, so they are held out together)."""
    held_out = np.zeros(len(y))
    for paper in sorted(set(papers)):
        out = papers == paper
        w = fit(x[~out], y[~out])
        held_out[out] = 1 / (1 + np.exp(-(w[0] + x[out] @ w[1:])))
    return held_out


def scores(p: np.ndarray, y: np.ndarray, threshold: float) -> dict[str, float]:
    """Accuracy at the threshold, on all items and on each answer apart, and the ranking's
    AUC (the chance a "Yes" item scores above a "No" one; ties count half)."""
    hits = (p >= threshold) == (y == 1)
    above = (p[y == 1][:, None] > p[y == 0][None, :]).mean()
    ties = (p[y == 1][:, None] == p[y == 0][None, :]).mean()
    return {
        "all": round(float(hits.mean()), 3),
        "yes": round(float(hits[y == 1].mean()), 3),
        "no": round(float(hits[y == 0].mean()), 3),
        "auc": round(float(above + ties / 2), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", required=True)
    parser.add_argument("--items", required=True)
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    if "even" in Path(args.items).name:
        raise SystemExit("fit on the half the project develops on (odd); even stays unseen")
    items = [i for i in yaml.safe_load(Path(args.items).read_text()) if i["type"] == "yes_no"]
    library = Library(args.library)
    library.prepare()
    by_file = {Path(d.path).name: d.id for d in library.store.documents()}
    sentences = PaperSentences(library.store)
    rows, labels = [], []
    for item in items:
        retriever = library.answerer.retriever
        _, found = read(item["question"], by_file[item["doc"]], sentences, retriever)
        rows.append(found.features.vector())
        labels.append(1.0 if item["accept"][0].strip().lower() == "yes" else 0.0)
    x, y = np.array(rows), np.array(labels)
    papers = np.array([item["doc"] for item in items])
    held_out = held_out_probabilities(x, y, papers)
    threshold = chosen_threshold(held_out, y)
    loo = scores(held_out, y, threshold)
    names = Features.names()
    for n, name in enumerate(names):  # each feature left out
        rest = [m for m in range(len(names)) if m != n]
        without = held_out_probabilities(x[:, rest], y, papers)
        print(f"without {name}:", scores(without, y, chosen_threshold(without, y)))
    w = fit(x, y)
    out = {
        "fitted_on": f"{Path(args.items).name}: {len(y)} yes/no items ({int(y.sum())} yes)",
        "fitted": datetime.date.today().isoformat(),
        "leave_one_paper_out": loo,
        "features": list(Features.names()),
        "weights": [round(float(v), 4) for v in w[1:]],
        "bias": round(float(w[0]), 4),
        "threshold": threshold,
        "margin": MARGIN,
    }
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
