"""Refit whether a paper answers a question, and the drafted answer's support calibration.

    python scripts/fit_answerable.py \
      --refusal QASPER_LIB ../shared/qa/external/qasper/splits/odd.yaml \
      --calibrate TATQA_LIB ../shared/qa/external/tatqa/splits/odd.yaml

Each LIB is a library built by `citewise ingest` of its QA file's corpus; every question is
asked within its `doc` (like `citewise eval --scope-docs`), with no refusal by answerability
and the scorer's support uncalibrated. Two fits, both written as data read with numpy:

1. `agent/data/answerable.json` (agent/ask/answerable.py): a class-balanced logistic
   regression (L2, Newton steps) of "the question is unanswerable" over the drafted
   answer's signals, on the --refusal sets (their answerable and unanswerable questions).
   Its threshold is searched on predictions made with the model fitted without the item's
   fold of papers (5 folds by a hash of the paper): of the thresholds whose refusals, added
   to the pipeline's own, refuse no more than --max-false-refusal of the answerable
   questions, the one that refuses the most unanswerable ones, then keeps the most right
   answers.
2. `agent/data/support_calibration.json` (agent/ask/calibration.py): a logistic regression
   of "the drafted answer is right" over the scorer's support (log-odds) and `paper_blocks`,
   on every answered draft of all sets, then isotonic bins (adjacent bins pooled until
   monotone and at least --min-bin answers each), each a step valued at the one-sided 95%
   Wilson lower bound of its share right.

With --check it writes nothing and prints, for the shipped signals, each --signal NAME added
to them (any signal a draft logs: `closest`, `rarest`, `margin`, ...), all of those together
and each signal alone, the held-out AUC and what the searched threshold refuses, averaged over
--seeds splits of the papers into folds (at a few dozen unanswerable questions one split's
numbers move by a question or two).

Develop on one half of a pool and judge by the other: fit on `splits/odd.yaml` only.
Deterministic: folds are a hash of the paper's name, the fits Newton steps from zeros.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import zlib
from dataclasses import astuple, dataclass
from pathlib import Path

import numpy as np

from citewise.agent.ask.answerable import (
    PAPER_BLOCKS,
    STATED,
    STATED_CITED,
    UNWRITTEN,
    WEIGHTS_FILE,
    AnswerableModel,
    answerable_in_use,
    shipped_model,
)
from citewise.agent.ask.calibration import (
    CALIBRATION_FILE,
    SupportCalibration,
    calibration_in_use,
    shipped_calibration,
    wilson_lower,
)
from citewise.agent.ask.scorer import answer_scorer
from citewise.api import Library
from citewise.eval.harness import file_name_map, load_items, text_is_correct

DATA = Path(__file__).resolve().parents[1] / "src/citewise/agent/data"
# The drafted answer's signals P(unanswerable) reads (agent/ask/refusal.py's answered share,
# how much the retrieved passages are about the question, the first sentence's log-odds,
# and agent/ask/answerable.py's whether the paper states what is asked).
REFUSAL_SIGNALS = ("answered_coverage", "about", "logit", STATED, STATED_CITED, UNWRITTEN)
CALIBRATION_SIGNALS = (PAPER_BLOCKS,)
FOLDS = 5
L2 = 1.0


@dataclass
class Asked:
    signals: dict[str, float]
    scorer_support: float
    refused: bool
    right: bool
    answerable: bool
    paper: str
    refusal_set: bool


def ask_all(sets: list[tuple[Path, Path, bool]]) -> list[Asked]:
    """Every drafted answer of the sets' questions (the pipeline's own refusals kept, none by
    answerability; the scorer's support uncalibrated)."""
    rows: list[Asked] = []
    for library_path, qa, refusal in sets:
        library = Library(library_path)
        names = file_name_map([(d.id, d.path) for d in library.documents()])
        by_name = {n: d for d, n in names.items()}
        with answerable_in_use(None), calibration_in_use(None):
            for item in load_items(qa):
                docs = [by_name[d] for d in item.docs if d in by_name]
                answer = library.ask(item.question, docs)
                if "logit" not in answer.signals or STATED not in answer.signals:
                    continue  # another answer shape, or nothing drafted
                right = not answer.refused and item.answerable
                right = right and text_is_correct(answer.answer, item.accept, item.weak_match)
                paper = item.docs[0] if item.docs else item.id
                scorer = answer_scorer().support(answer.signals)
                rows.append(
                    Asked(
                        answer.signals,
                        scorer,
                        answer.refused,
                        right,
                        item.answerable,
                        paper,
                        refusal,
                    )  # fmt: skip
                )
        library.close()
    return rows


def logistic(
    x: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """(weights, bias, mean, scale) of an L2 logistic regression on standardised `x`."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mean) / scale
    n, d = z.shape
    w, b = np.zeros(d), 0.0
    weight = np.ones(n) if weight is None else weight
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        s = p * (1 - p) * weight
        grad = np.concatenate([z.T @ ((p - y) * weight) + L2 * w, [((p - y) * weight).sum()]])
        hess = np.zeros((d + 1, d + 1))
        hess[:d, :d] = z.T @ (z * s[:, None]) + L2 * np.eye(d)
        hess[:d, d] = hess[d, :d] = z.T @ s
        hess[d, d] = s.sum() + 1e-9
        step = np.linalg.solve(hess, grad)
        w, b = w - step[:d], b - step[d]
    return w, float(b), mean, scale


@dataclass(frozen=True)
class HeldOut:
    """Held-out numbers of P(answerable) over some signals: AUC (unanswerable against
    answerable), the threshold searched on them, and the shares refused with it."""

    auc: float
    threshold: float
    unanswerable_refused: float
    answerable_refused: float


def held_out_probabilities(
    rows: list[Asked], signals: tuple[str, ...], seed: int = 0
) -> np.ndarray:
    """Each row's P(answerable) from the model fitted without its fold of papers (FOLDS
    folds by a hash of the paper; seed 0 is the split the shipped threshold is searched on,
    other seeds split the same papers otherwise)."""
    x = np.asarray([[r.signals.get(n, 0.0) for n in signals] for r in rows])
    y = np.asarray([1.0 if r.answerable else 0.0 for r in rows])
    balance = np.where(y == 0, y.sum() / max(1.0, (1 - y).sum()), 1.0)
    key = [r.paper if seed == 0 else f"{seed}:{r.paper}" for r in rows]
    folds = np.asarray([zlib.crc32(k.encode()) % FOLDS for k in key])
    held = np.zeros(len(rows))
    for fold in range(FOLDS):
        train = folds != fold
        w, b, mean, scale = logistic(x[train], y[train], balance[train])
        held[~train] = 1.0 / (1.0 + np.exp(-(((x[~train] - mean) / scale) @ w + b)))
    return held


def searched(rows: list[Asked], held: np.ndarray, cap: float) -> HeldOut:
    """The threshold on held-out P(answerable) whose refusals, added to the pipeline's own,
    refuse no more than `cap` of the answerable questions and the most unanswerable ones
    (then keep the most right answers), with what it refuses."""
    y = np.asarray([1.0 if r.answerable else 0.0 for r in rows])
    base = np.asarray([r.refused for r in rows])
    right = np.asarray([r.right for r in rows])
    answerable = y == 1
    best = (-1, -1, 0.0)
    for threshold in [0.0, *np.unique(np.round(held, 4))]:
        refused = base | (held < threshold)
        if refused[answerable].mean() > cap:
            break  # refusals only grow with the threshold
        score = (int(refused[~answerable].sum()), int((right & ~refused).sum()), float(threshold))
        if score[:2] > best[:2]:
            best = score
    refused = base | (held < best[2])
    return HeldOut(
        auc(held, y),
        best[2],
        float(refused[~answerable].mean()),
        float(refused[answerable].mean()),
    )


def check(rows: list[Asked], signals: tuple[str, ...], cap: float, seeds: int) -> HeldOut:
    """`searched`'s numbers averaged over `seeds` splits of the papers into folds: with a few
    dozen unanswerable questions one split's numbers move by a question or two."""
    found = [searched(rows, held_out_probabilities(rows, signals, s), cap) for s in range(seeds)]
    columns = np.asarray([astuple(f) for f in found], dtype=np.float64).mean(axis=0)
    return HeldOut(*(float(v) for v in columns))


def fit_refusal(
    rows: list[Asked], cap: float, signals: tuple[str, ...] = REFUSAL_SIGNALS
) -> AnswerableModel:
    """P(answerable) over `signals`, and its threshold (module docstring, step 1)."""
    rows = [r for r in rows if r.refusal_set]
    found = searched(rows, held_out_probabilities(rows, signals), cap)
    base = np.asarray([r.refused for r in rows])
    answerable = np.asarray([r.answerable for r in rows])
    print(
        f"refusal: {len(rows)} drafts; held-out threshold {found.threshold:.4f}: unanswerable "
        f"refused {found.unanswerable_refused:.3f} (pipeline alone "
        f"{base[~answerable].mean():.3f}), answerable refused {found.answerable_refused:.3f} "
        f"(alone {base[answerable].mean():.3f}), AUC {found.auc:.3f}",
        file=sys.stderr,
    )
    x = np.asarray([[r.signals.get(n, 0.0) for n in signals] for r in rows])
    y = answerable.astype(np.float64)
    w, b, mean, scale = logistic(x, y, np.where(y == 0, y.sum() / max(1.0, (1 - y).sum()), 1.0))
    return AnswerableModel(signals, mean, scale, w, b, found.threshold)


def auc(score: np.ndarray, label: np.ndarray) -> float:
    """The share of (positive, negative) pairs the score orders right (ties count half)."""
    pos, neg = score[label == 1], score[label == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    above = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(above / (len(pos) * len(neg)))


def lower_bound_bins(
    raw: np.ndarray, right: np.ndarray, min_bin: int
) -> tuple[tuple[float, float], ...]:
    """Isotonic bins of `right` over `raw`: adjacent bins pooled while the share right does
    not rise or a bin holds fewer than `min_bin` answers; each (its lowest raw value, the
    Wilson lower bound of its share right), kept monotone."""
    order = np.argsort(raw, kind="stable")
    stack: list[list[float]] = []  # [lowest raw, right, count]
    for i in order:
        stack.append([float(raw[i]), float(right[i]), 1.0])
        while len(stack) > 1 and (
            stack[-2][1] / stack[-2][2] >= stack[-1][1] / stack[-1][2] or stack[-2][2] < min_bin
        ):
            top = stack.pop()
            stack[-1] = [stack[-1][0], stack[-1][1] + top[1], stack[-1][2] + top[2]]
    bins: list[tuple[float, float]] = []
    for low, hits, count in stack:
        value = wilson_lower(hits, count)
        bins.append((low, max(value, bins[-1][1]) if bins else value))
    return tuple(bins)


def fit_calibration(rows: list[Asked], min_bin: int) -> SupportCalibration:
    """The support calibration over the answered drafts (module docstring, step 2)."""
    rows = [r for r in rows if not r.refused]
    x = np.asarray(
        [
            [
                math.log(
                    min(max(r.scorer_support, 1e-3), 1 - 1e-3)
                    / (1 - min(max(r.scorer_support, 1e-3), 1 - 1e-3))
                )
            ]
            + [r.signals.get(n, 0.0) for n in CALIBRATION_SIGNALS]
            for r in rows
        ]
    )
    y = np.asarray([1.0 if r.right else 0.0 for r in rows])
    w, b, mean, scale = logistic(x, y)
    raw = 1.0 / (1.0 + np.exp(-(((x - mean) / scale) @ w + b)))
    bins = lower_bound_bins(raw, y, min_bin)
    print(
        f"calibration: {len(rows)} answered drafts, {y.mean():.3f} right; weights "
        + ", ".join(
            f"{n} {v:+.3f}" for n, v in zip(("scorer", *CALIBRATION_SIGNALS), w, strict=True)
        )
        + "; bins "
        + ", ".join(f"{low:.3f}:{value:.3f}" for low, value in bins),
        file=sys.stderr,
    )
    return SupportCalibration(CALIBRATION_SIGNALS, mean, scale, w, b, bins)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refusal", nargs=2, action="append", default=[], metavar=("LIB", "QA"))
    parser.add_argument("--calibrate", nargs=2, action="append", default=[], metavar=("LIB", "QA"))
    parser.add_argument("--max-false-refusal", type=float, default=0.15)
    parser.add_argument("--min-bin", type=int, default=15)
    parser.add_argument(
        "--signal",
        action="append",
        default=[],
        help="a draft signal to weigh beside the shipped ones (repeatable; with --check)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="print held-out numbers of the shipped signals, each --signal added to them and "
        "all together, and of each signal alone; write nothing",
    )
    parser.add_argument("--seeds", type=int, default=5, help="fold splits --check averages")
    args = parser.parse_args()
    if not args.refusal:
        parser.error("give at least one --refusal LIB QA pair (with unanswerable questions)")
    sets = [(Path(lib), Path(qa), True) for lib, qa in args.refusal]
    sets += [(Path(lib), Path(qa), False) for lib, qa in args.calibrate]
    rows = ask_all(sets)
    if args.check:
        refusal = [r for r in rows if r.refusal_set]
        sets_of = [REFUSAL_SIGNALS, *((*REFUSAL_SIGNALS, n) for n in args.signal)]
        if len(args.signal) > 1:
            sets_of.append((*REFUSAL_SIGNALS, *args.signal))
        sets_of += [(n,) for n in (*REFUSAL_SIGNALS, *args.signal)]
        for signals in sets_of:
            found = check(refusal, signals, args.max_false_refusal, args.seeds)
            print(
                f"{'+'.join(signals):90s} AUC {found.auc:.3f}  unanswerable refused "
                f"{found.unanswerable_refused:.3f}  answerable refused "
                f"{found.answerable_refused:.3f}"
            )
        return
    model = fit_refusal(rows, args.max_false_refusal)
    calibration = fit_calibration(rows, args.min_bin)
    (DATA / WEIGHTS_FILE).write_text(json.dumps(model.to_dict(), indent=1) + "\n", "utf-8")
    (DATA / CALIBRATION_FILE).write_text(
        json.dumps(calibration.to_dict(), indent=1) + "\n", "utf-8"
    )
    shipped_model.cache_clear()
    shipped_calibration.cache_clear()
    print(f"wrote {DATA / WEIGHTS_FILE} and {DATA / CALIBRATION_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
