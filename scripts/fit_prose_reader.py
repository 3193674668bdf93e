"""Refit the prose reader's logistics (src/citewise/agent/data/prose_reader.json).

    python scripts/fit_prose_reader.py --library LIB [--columns method,main result,limitations]
        [--cued-only] [--fallback] [--enable] [--dry-run] [--show]

LIB holds the hand-labelled papers (benchmarks/matrix_gold.yaml); only papers of the `dev` part
are read, the held-out parts stay unseen. Every prose sentence of a paper is a candidate
(agent/comparison/aspect_readers/prose_reader.py); a candidate is positive when its cell value names
one of
the gold key phrases of the column. Per column, a conditional logit (the softmax of a paper's
candidates' linear scores; `--pointwise`: a class-balanced logistic per sentence), ridge on the
weights. `--cued-only` reranks only the cue readers' sentences; `--fallback` fills only cells
the cue readers leave empty; the reader chooses cells only for columns fitted with `--enable`.
Validated leave-one-paper-out: each paper's cell is chosen by a fit on the other papers, and
the cell's threshold is the cut that maximises right cells minus wrong ones among cuts that
fill no cell where the paper states nothing. Printed per column: the cue readers' cells on
the same papers, and the fitted reader's (right / filled / stated, made up).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from citewise.agent.comparison.aspect_readers.matrix_cells import whole_phrase
from citewise.agent.comparison.aspect_readers.prose_reader import FEATURES, candidates
from citewise.agent.comparison.aspects import find_aspect, load_paper
from citewise.agent.comparison.extraction import merged_value
from citewise.agent.comparison.matrix import cached_gazetteer
from citewise.store.factory import open_store

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from matrix_score import GOLD, names_key  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from logistic_fits import listwise, newton  # noqa: E402

OUT = ROOT / "src/citewise/agent/data/prose_reader.json"
COLUMNS = ("method", "main result", "limitations")
L2 = 1.0


@dataclass
class PaperRows:
    name: str
    keys: list[str] | None
    x: np.ndarray
    y: np.ndarray
    values: list[str]
    cue_right: bool | None  # the cue readers' cell: right, wrong, None = not stated


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 60) -> np.ndarray:
    """Class-balanced logistic regression, ridge on the weights (not the bias), by Newton's
    method; returns [bias, *weights]."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    pos = max(y.sum(), 1.0)
    balance = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * max(len(y) - pos, 1.0)))
    ridge = l2 * np.eye(xb.shape[1])
    ridge[0, 0] = 0.0
    return newton(xb, y, balance, ridge, steps)


def fit_choice(
    groups: list[tuple[np.ndarray, np.ndarray]], l2: float = L2, steps: int = 400
) -> np.ndarray:
    """A conditional logit: per paper, the softmax of its candidates' scores, fitted so the
    candidates naming a gold key take the most of it (papers without one left out); ridge on
    the weights; gradient descent with Adam steps. Returns [0, *weights]: a choice within a
    paper needs no bias."""
    x = np.vstack([x for x, _ in groups])
    y = np.concatenate([y for _, y in groups])
    group = np.concatenate([np.full(len(y), i) for i, (_, y) in enumerate(groups)])
    # a ridge of 2·l2·w over the papers with a key, in listwise's per-row form (l2·w/rows)
    papers = sum(1 for _, y in groups if y.any())
    rows = sum(len(y) for _, y in groups if y.any())
    w = listwise(x, y, group, np.ones(len(y)), 2 * l2 * rows / papers, steps)
    return np.concatenate([[0.0], w])


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return mean, scale


@dataclass(frozen=True)
class Options:
    """How one column is fitted and used (the command line's flags)."""

    l2: float = L2
    pointwise: bool = False  # a logistic per sentence instead of a choice per paper
    cued_only: bool = False  # candidates only among the cue readers' sentences
    fallback: bool = False  # fill only cells the cue readers leave empty
    enabled: bool = False
    show: bool = False


HAS_CUE = FEATURES.index("has_cue")


def weights_for(
    rows: list[PaperRows], mean: np.ndarray, scale: np.ndarray, opt: Options
) -> np.ndarray:
    if not opt.pointwise:
        return fit_choice([((r.x - mean) / scale, r.y) for r in rows if len(r.y)], opt.l2)
    x = np.vstack([r.x for r in rows])
    y = np.concatenate([r.y for r in rows])
    return fit((x - mean) / scale, y, opt.l2)


def probabilities(rows: list[PaperRows], train: list[PaperRows], opt: Options) -> list[np.ndarray]:
    mean, scale = standardise(np.vstack([r.x for r in train]))
    w = weights_for(train, mean, scale, opt)
    return [
        1 / (1 + np.exp(-np.clip(w[0] + ((r.x - mean) / scale) @ w[1:], -30, 30))) for r in rows
    ]


def choose(rows: list[PaperRows], probs: list[np.ndarray]) -> list[tuple[float, bool]]:
    """Each paper's chosen cell: (its probability, right)."""
    out = []
    for r, p in zip(rows, probs, strict=True):
        if len(p) == 0:
            out.append((0.0, False))
            continue
        best = int(np.argmax(p))
        out.append((float(p[best]), bool(r.y[best]) and r.keys is not None))
    return out


def tally(rows: list[PaperRows], chosen: list[tuple[float, bool]], cut: float) -> dict[str, int]:
    filled = right = made_up = 0
    for r, (p, ok) in zip(rows, chosen, strict=True):
        if p < cut:
            continue
        filled += 1
        right += ok
        made_up += r.keys is None
    return {"right": right, "filled": filled, "stated": sum(r.keys is not None for r in rows),
            "made_up": made_up}  # fmt: skip


def threshold(rows: list[PaperRows], chosen: list[tuple[float, bool]]) -> float:
    """The cut maximising right minus wrong cells among cuts that make up no cell; the lowest
    such cut on ties (a cell more is a cell a reader can check)."""
    cuts = sorted({0.0, *(round(p, 4) for p, _ in chosen)})
    best, best_gain = 1.0, -1e9
    for cut in cuts:
        t = tally(rows, chosen, cut)
        if t["made_up"]:
            continue
        gain = 2 * t["right"] - t["filled"]
        if gain > best_gain:
            best, best_gain = cut, gain
    return best


def rows_for(library: Path, column: str, opt: Options) -> list[PaperRows]:
    gold = yaml.safe_load(GOLD.read_text())
    store = open_store(library, library)
    by_file = {Path(d.path).name: d for d in store.documents()}
    gazetteer = cached_gazetteer(store)
    rows = []
    for entry in gold["papers"]:
        if entry["part"] != "dev":
            continue  # the held-out parts are only ever scored, never fitted on
        paper = load_paper(store, by_file[entry["file"]])
        keys = entry["matrix"].get(column)
        cands = candidates(column, paper.units)
        if opt.cued_only:
            cands = [c for c in cands if c.features[HAS_CUE]]
        values = [whole_phrase(c.finding).value for c in cands]
        y = np.array([float(keys is not None and names_key(v, keys)) for v in values])
        x = np.array([c.features for c in cands]) if cands else np.zeros((0, len(FEATURES)))
        cue = merged_value(find_aspect(column, paper, gazetteer, 4, fitted_reader=False))
        cue_right = None if cue is None else bool(keys) and names_key(whole_phrase(cue).value, keys)
        rows.append(PaperRows(entry["file"], keys, x, y, values, cue_right))
    return rows


def column_fit(rows: list[PaperRows], opt: Options) -> dict[str, object]:
    held = []
    for i in range(len(rows)):
        held += probabilities([rows[i]], rows[:i] + rows[i + 1 :], opt)
    chosen = choose(rows, held)
    if opt.show:
        for r, p, (prob, ok) in zip(rows, held, chosen, strict=True):
            best = int(np.argmax(p)) if len(p) else -1
            shown = r.values[best][:80] if best >= 0 else ""
            print(
                f"  {r.name[:18]:18} {'ok' if ok else '--'} {prob:.3f} cue={r.cue_right} {shown!r}"
            )
    cut = threshold(rows, chosen)
    folds = tally(rows, chosen, cut)
    if opt.fallback:  # the cue readers' cell where they fill one, else the fitted choice
        silent = [i for i, r in enumerate(rows) if r.cue_right is None]
        cut = threshold([rows[i] for i in silent], [chosen[i] for i in silent])
        extra = tally([rows[i] for i in silent], [chosen[i] for i in silent], cut)
        folds = {
            "right": sum(r.cue_right is True for r in rows) + extra["right"],
            "filled": sum(r.cue_right is not None for r in rows) + extra["filled"],
            "stated": sum(r.keys is not None for r in rows),
            "made_up": extra["made_up"],
        }
    cue = {"right": sum(r.cue_right is True for r in rows),
           "filled": sum(r.cue_right is not None for r in rows),
           "made_up": sum(r.cue_right is not None and r.keys is None for r in rows)}  # fmt: skip
    mean, scale = standardise(np.vstack([r.x for r in rows]))
    w = weights_for(rows, mean, scale, opt)
    return {
        "mean": [round(float(v), 5) for v in mean],
        "scale": [round(float(v), 5) for v in scale],
        "weights": [round(float(v), 4) for v in w[1:]],
        "bias": round(float(w[0]), 4),
        "threshold": cut,
        "candidates": "cued" if opt.cued_only else "all",
        "fallback": opt.fallback,
        "enabled": opt.enabled,
        "leave_one_paper_out": folds,
        "cue_readers": cue,
        "papers_with_a_right_candidate": sum(bool(r.y.any()) for r in rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--columns", default=",".join(COLUMNS))
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--dry-run", action="store_true", help="print the folds, write nothing")
    parser.add_argument("--pointwise", action="store_true", help="a logistic per sentence")
    parser.add_argument(
        "--cued-only", action="store_true", help="rerank the cue readers' sentences"
    )
    parser.add_argument(
        "--fallback", action="store_true", help="fill only cells the cue readers leave empty"
    )
    parser.add_argument(
        "--enable", action="store_true", help="let the reader choose cells (default: off)"
    )
    parser.add_argument("--show", action="store_true", help="each dev paper's chosen cell")
    args = parser.parse_args()
    opt = Options(args.l2, args.pointwise, args.cued_only, args.fallback, args.enable, args.show)
    fitted: dict[str, dict[str, object]] = {}
    for column in [c.strip() for c in args.columns.split(",") if c.strip()]:
        rows = rows_for(args.library, column, opt)
        f = fitted[column] = column_fit(rows, opt)
        print(f"{column:12} cue readers {f['cue_readers']}  fitted (leave one paper out) "
              f"{f['leave_one_paper_out']}  threshold {f['threshold']}  papers with a right "
              f"candidate {f['papers_with_a_right_candidate']}/{len(rows)}")  # fmt: skip
        weights = np.array(f["weights"], dtype=float)
        top = np.argsort(-np.abs(weights))[:8]
        print("   ", ", ".join(f"{FEATURES[i]} {weights[i]:+.2f}" for i in top))
    if args.dry_run:
        return
    kept = json.loads(OUT.read_text()) if OUT.exists() else {}
    columns = kept.get("columns", {}) if kept.get("features") == list(FEATURES) else {}
    data = {
        "from": "benchmarks/matrix_gold.yaml, part dev (29 hand-labelled papers); refit by "
        "scripts/fit_prose_reader.py",
        "fitted": datetime.date.today().isoformat(),
        "features": list(FEATURES),
        "columns": {**columns, **fitted},  # columns not refit this run stay as they were
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
