"""Fit and cross-validate a boosted-tree sentence reader against the linear answer scorer.

    python scripts/fit_sentence_reader.py --scoped LIB QA.yaml [--scoped LIB2 QA2.yaml ...]
        [--cache ROWS.npz] [--label answer|evidence|both] [--listwise]
        [--trees 200] [--depth 3] [--rate 0.03] [--out TREES.json]

Data: every answerable, non-yes/no question with an accepted answer is asked within its paper
(like `citewise eval --scope-docs`); the best `rank.TOP` sentences of the term-coverage
ranking are its candidates, with their rows of `reader_trees.READER_FEATURES`. Labels: the
candidate writes an accepted answer string (`answer`), or it is one of the item's gold
`evidence` sentences (most of its word pairs are in the evidence QASPER gives each question:
the paragraphs its answer was read from), or either (`both`).

Model (scripts/reader_trees.py; numpy only): gradient-boosted regression trees of one depth
(quantile bins, Newton leaves, L2 on the leaves, shrinkage), fitted to the log-loss with each
item's candidates weighing one item, or (--listwise) to the softmax over each item's
candidates; then a one-feature logistic fit so sigmoid(logit) is the probability that one
candidate holds the answer.

Validation: 5 folds by paper (a paper's questions are scored by trees fitted without it):
the share of items whose best-scored candidate writes an accepted answer (top-1) and whose
best three do (top-3), for term coverage, the shipped linear scorer (fitted on all of these
items: in-sample, so optimistic) and the trees. --out writes the trees fitted on every item
(nothing in citewise reads them: docs/benchmarks.md "A boosted-tree sentence reader" says
why). The numbers in docs/benchmarks.md come from:

    python scripts/fit_sentence_reader.py --label answer --listwise \
      --scoped QASPER_LIB ../shared/qa/external/qasper/splits/odd.yaml

Deterministic: folds are a hash of each item's papers; trees are grown greedily.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml
from reader_trees import READER_FEATURES, SentenceReader, extra_features

from citewise.agent.ask.features import FEATURES
from citewise.agent.ask.passages import hit_passages, term_weights
from citewise.agent.ask.rank import featured
from citewise.agent.ask.scorer import shipped_scorer
from citewise.agent.sentences.draft import ranked_candidates, shape_tests
from citewise.api import Library
from citewise.eval.harness import file_name_map, load_items, text_is_correct

FOLDS = 5
# a candidate is an evidence sentence when this share of its word pairs is in the gold evidence
EVIDENCE_SHARE = 0.8
EVIDENCE_MIN_WORDS = 5
_WORD = re.compile(r"[a-z0-9]+")


def fold_of(docs: list[str]) -> int:
    return zlib.crc32("+".join(docs).encode()) % FOLDS


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _pairs(text: str) -> set[tuple[str, str]]:
    words = _words(text)
    return set(zip(words, words[1:], strict=False))


def in_evidence(sentence: str, evidence: set[tuple[str, str]]) -> bool:
    """Most of the sentence's word pairs are in the gold evidence (and it is not a
    fragment): the sentence is one the annotators read the answer from."""
    pairs = _pairs(sentence)
    if len(pairs) < EVIDENCE_MIN_WORDS or not evidence:
        return False
    return len(pairs & evidence) / len(pairs) >= EVIDENCE_SHARE


@dataclass
class Rows:
    x: np.ndarray  # READER_FEATURES per candidate
    answer: np.ndarray  # writes an accepted answer string
    evidence: np.ndarray  # one of the gold evidence sentences
    group: np.ndarray  # item index
    fold: np.ndarray

    def save(self, path: Path) -> None:
        np.savez(path, **self.__dict__)

    @classmethod
    def load(cls, path: Path) -> Rows:
        data = np.load(path)
        return cls(*(data[k] for k in ("x", "answer", "evidence", "group", "fold")))


def collect(pairs: list[tuple[str, str]]) -> Rows:
    """The candidates of every usable item of each (library, QA file)."""
    xs, answer, evidence, group, fold = [], [], [], [], []
    n = 0
    for lib_path, qa_path in pairs:
        lib = Library(Path(lib_path))
        names = {
            name: doc
            for doc, name in file_name_map([(d.id, d.path) for d in lib.documents()]).items()
        }
        raw = {entry["id"]: entry for entry in yaml.safe_load(Path(qa_path).read_text("utf-8"))}
        qa = lib.answerer
        for item in load_items(Path(qa_path)):
            if not item.answerable or item.type == "yes_no" or not item.accept:
                continue
            docs = tuple(names[d] for d in item.docs if d in names)
            question, _ = qa.analyse(item.question, docs)
            hits = qa.retrieve(question, 8, strict=bool(docs))
            passages, _blocks = hit_passages(hits, () if docs else question.scope)
            weight = term_weights(qa.retriever, question, passages)
            document_of = {p.block_id: p.document_id for p in passages}
            ranked = ranked_candidates(question, passages, weight, document_of)
            similarity = qa.retriever.similarities
            top, base = featured(question, ranked, passages, similarity, shape_tests())
            if not top:
                continue
            rows = extra_features(question, top, passages, similarity, base)
            gold = _pairs(str(raw.get(item.id, {}).get("evidence") or ""))
            for c, row in zip(top, rows, strict=True):
                xs.append(row)
                answer.append(text_is_correct(c.text, item.accept, item.weak_match))
                evidence.append(in_evidence(c.text, gold))
                group.append(n)
                fold.append(fold_of(item.docs))
            n += 1
        lib.close()
    return Rows(
        np.asarray(xs, dtype=np.float64),
        np.asarray(answer, dtype=np.float64),
        np.asarray(evidence, dtype=np.float64),
        np.asarray(group),
        np.asarray(fold),
    )


# -- boosted trees (numpy) -----------------------------------------------------------------

BINS = 32
LAMBDA = 1.0
# the least summed hessian weight a leaf takes (in items: each item's candidates sum to one)
MIN_CHILD = 2.0
BIG = 1e30


def cut_points(x: np.ndarray) -> list[np.ndarray]:
    """Per feature, the candidate thresholds: its distinct quantiles."""
    qs = np.linspace(0, 1, BINS + 1)[1:-1]
    return [np.unique(np.quantile(x[:, j], qs)) for j in range(x.shape[1])]


def _best_split(
    x: np.ndarray, g: np.ndarray, h: np.ndarray, cuts: list[np.ndarray]
) -> tuple[float, int, float]:
    """(gain, feature, threshold) of the best split of these rows (gain 0: none)."""
    total_g, total_h = g.sum(), h.sum()
    parent = total_g**2 / (total_h + LAMBDA)
    best = (0.0, 0, BIG)
    for j, points in enumerate(cuts):
        if len(points) == 0:
            continue
        index = np.searchsorted(points, x[:, j], side="left")  # value <= points[k] -> bin k
        gl = np.cumsum(np.bincount(index, g, len(points) + 1))[:-1]
        hl = np.cumsum(np.bincount(index, h, len(points) + 1))[:-1]
        gr, hr = total_g - gl, total_h - hl
        ok = (hl >= MIN_CHILD) & (hr >= MIN_CHILD)
        if not ok.any():
            continue
        gain = np.where(ok, gl**2 / (hl + LAMBDA) + gr**2 / (hr + LAMBDA) - parent, -1.0)
        k = int(np.argmax(gain))
        if gain[k] > best[0]:
            best = (float(gain[k]), j, float(points[k]))
    return best


def grow(
    x: np.ndarray, g: np.ndarray, h: np.ndarray, cuts: list[np.ndarray], depth: int, rate: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One complete tree in heap order: (feature, threshold, leaf values)."""
    inner = 2**depth - 1
    feature = np.zeros(inner, dtype=np.int64)
    threshold = np.full(inner, BIG)
    node = np.zeros(len(x), dtype=np.int64)
    for level in range(depth):
        for k in range(2**level - 1, 2 ** (level + 1) - 1):
            here = node == k
            if here.sum() > 1:
                _, feature[k], threshold[k] = _best_split(x[here], g[here], h[here], cuts)
        right = x[np.arange(len(x)), feature[node]] > threshold[node]
        node = 2 * node + 1 + right
    leaf_index = node - inner
    gs = np.bincount(leaf_index, g, 2**depth)
    hs = np.bincount(leaf_index, h, 2**depth)
    return feature, threshold, -rate * gs / (hs + LAMBDA)


def boost(
    x: np.ndarray,
    y: np.ndarray,
    group: np.ndarray,
    trees: int,
    depth: int,
    rate: float,
    listwise: bool,
) -> SentenceReader:
    """Trees fitted to the log-loss (pointwise), or to the softmax over each item's
    candidates (listwise: items without a positive are left out)."""
    if listwise:
        keep = np.isin(group, np.unique(group[y == 1]))
        x, y, group = x[keep], y[keep], group[keep]
    _, index = np.unique(group, return_inverse=True)
    n_items = int(index.max()) + 1
    item_weight = 1.0 / np.bincount(index)[index]  # each item's candidates sum to one
    cuts = cut_points(x)
    bias = 0.0 if listwise else float(np.log((y.mean() + 1e-6) / (1 - y.mean() + 1e-6)))
    score = np.full(len(x), bias)
    features, thresholds, leaves = [], [], []
    for _ in range(trees):
        if listwise:
            peak = np.full(n_items, -np.inf)
            np.maximum.at(peak, index, score)
            e = np.exp(score - peak[index])
            p = e / np.bincount(index, e, n_items)[index]
            q = y / np.bincount(index, y, n_items)[index]
            g, h = p - q, np.maximum(p * (1 - p), 1e-6)
            g, h = g, h  # per item: the softmax already sums to one
        else:
            p = 1.0 / (1.0 + np.exp(-score))
            g, h = (p - y) * item_weight, p * (1 - p) * item_weight
        f, t, leaf = grow(x, g, h, cuts, depth, rate)
        features.append(f)
        thresholds.append(t)
        leaves.append(leaf)
        tree = SentenceReader(READER_FEATURES, depth, f[None], t[None], leaf[None], 0.0)
        score += tree.raw(x)
    return SentenceReader(
        READER_FEATURES,
        depth,
        np.asarray(features),
        np.asarray(thresholds),
        np.asarray(leaves),
        bias,
    )


def calibrate(reader: SentenceReader, x: np.ndarray, y: np.ndarray) -> SentenceReader:
    """The reader with scale and shift such that sigmoid(logit) is the share of candidates
    at that output that hold the answer (a one-feature logistic fit, Newton steps)."""
    raw = reader.raw(x)
    a, b = 1.0, 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(a * raw + b, -30, 30)))
        grad = np.array([np.sum((p - y) * raw), np.sum(p - y)])
        w = p * (1 - p)
        hess = np.array([[np.sum(w * raw * raw), np.sum(w * raw)], [np.sum(w * raw), np.sum(w)]])
        step = np.linalg.solve(hess + 1e-9 * np.eye(2), grad)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-9:
            break
    return SentenceReader(
        reader.features, reader.depth, reader.feature, reader.threshold, reader.leaf,
        reader.bias, float(a), float(b),
    )  # fmt: skip


def top_k(scores: np.ndarray, hit: np.ndarray, group: np.ndarray, k: int) -> float:
    """Share of items one of whose k best-scored candidates is a hit."""
    found = []
    for g in np.unique(group):
        mine = group == g
        order = np.argsort(-scores[mine], kind="stable")[:k]
        found.append(hit[mine][order].any())
    return float(np.mean(found))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scoped", nargs=2, action="append", default=[], metavar=("LIB", "QA"))
    parser.add_argument("--cache", type=Path, help="read (or write) the candidate rows here")
    parser.add_argument("--trees", type=int, default=200)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--rate", type=float, default=0.03)
    parser.add_argument("--label", choices=["answer", "evidence", "both"], default="answer")
    parser.add_argument("--listwise", action="store_true")
    parser.add_argument("--out", type=Path, help="write the trees fitted on every item here")
    args = parser.parse_args()
    if args.cache and args.cache.exists():
        rows = Rows.load(args.cache)
    elif args.scoped:
        rows = collect(args.scoped)
        if args.cache:
            rows.save(args.cache)
    else:
        parser.error("give at least one --scoped LIB QA pair (or an existing --cache)")
    label = {
        "answer": rows.answer,
        "evidence": rows.evidence,
        "both": np.maximum(rows.answer, rows.evidence),
    }[args.label]
    held = np.zeros(len(rows.x))
    for f in range(FOLDS):
        test = rows.fold == f
        reader = boost(
            rows.x[~test], label[~test], rows.group[~test], args.trees, args.depth, args.rate,
            args.listwise,
        )  # fmt: skip
        held[test] = reader.raw(rows.x[test])
    linear = shipped_scorer().logits(rows.x[:, : len(FEATURES)])
    heuristic = rows.x[:, FEATURES.index("heuristic")]
    n_items = len(np.unique(rows.group))
    print(
        f"{len(rows.x)} candidates of {n_items} items; positives: answer {int(rows.answer.sum())}, "
        f"evidence {int(rows.evidence.sum())}, either {int(label.sum())}",
        file=sys.stderr,
    )
    for name, scores in (("term coverage", heuristic), ("linear", linear), ("trees", held)):
        print(
            f"  {name:14s} top-1 {top_k(scores, rows.answer, rows.group, 1):.3f} "
            f"top-3 {top_k(scores, rows.answer, rows.group, 3):.3f} "
            f"(evidence top-1 {top_k(scores, rows.evidence, rows.group, 1):.3f})",
            file=sys.stderr,
        )
    if args.out is None:
        return
    reader = boost(rows.x, label, rows.group, args.trees, args.depth, args.rate, args.listwise)
    reader = calibrate(reader, rows.x, rows.answer)
    args.out.write_text(json.dumps(reader.to_dict()) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
