"""Where the answer sentence sits, and how much of it a k-sentence answer can hold.

    python scripts/reader_composition.py LIB QA.yaml [--rows EVAL.json]

For every answerable, non-yes/no question of QA.yaml (asked within its `doc`, like
`citewise eval --scope-docs`), the best `rank.TOP` candidate sentences of the term-coverage
ranking are labelled by whether they hold an accepted answer string (as
scripts/fit_answer_scorer.py labels them). Prints:

1. coverage@k, k = 1..6: the share of questions whose first k sentences hold an answer, for
   the term-coverage order, the shipped scorer's order, and a listwise scorer refitted with
   each paper's questions held out (5 folds by paper). A drafted answer holds about four
   sentences (80 words), so coverage@4 is the ceiling of the answer's accuracy given its
   ranking; the oracle is coverage@TOP.
2. with --rows (an `eval --json` of the same QA file): the rank of the first answer-holding
   sentence in the shipped scorer's order against whether the drafted answer was right,
   and whether that sentence shares a passage with the scorer's best.

Measures only; writes nothing. Numbers from it are in docs/benchmarks.md ("Fifth session:
QASPER reader").
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_answer_scorer import FOLDS, L2, fold_of, listwise, open_set  # noqa: E402

from citewise.agent.ask.passages import hit_passages, term_weights  # noqa: E402
from citewise.agent.ask.rank import TOP, featured  # noqa: E402
from citewise.agent.ask.scorer import shipped_scorer  # noqa: E402
from citewise.agent.sentences.draft import ranked_candidates, shape_tests  # noqa: E402
from citewise.eval.harness import text_is_correct  # noqa: E402

KS = (1, 2, 3, 4, 6)


def coverage_at(scores: np.ndarray, labels: np.ndarray, groups: np.ndarray, k: int) -> float:
    """Share of questions whose k best-scored candidates include one holding the answer."""
    held = []
    for g in np.unique(groups):
        mine = groups == g
        order = np.argsort(-scores[mine], kind="stable")[:k]
        held.append(bool(labels[mine][order].any()))
    return float(np.mean(held)) if held else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("qa", type=Path)
    parser.add_argument("--rows", type=Path, help="an `eval --json` of the same QA file")
    args = parser.parse_args()
    qa_set = open_set(args.library, args.qa, True)
    drafted = {}
    if args.rows:
        items = json.loads(args.rows.read_text("utf-8"))["items"]
        drafted = {r["id"]: bool(r["draft_correct"]) for r in items}
    rows, labels, groups, folds, coverage = [], [], [], [], []
    first: Counter[tuple[str, str, bool]] = Counter()
    scorer = shipped_scorer()
    qa = qa_set.library.answerer
    for n, item in enumerate(qa_set.items):
        if not item.answerable or item.type == "yes_no" or not item.accept:
            continue
        question, _ = qa.analyse(item.question, qa_set.docs(item))
        hits = qa.retrieve(question, 8, strict=True)
        passages, _blocks = hit_passages(hits, ())
        weight = term_weights(qa.retriever, question, passages)
        document_of = {p.block_id: p.document_id for p in passages}
        ranked = ranked_candidates(question, passages, weight, document_of)
        top, feats = featured(question, ranked, passages, qa.retriever.similarities, shape_tests())
        held = [text_is_correct(c.text, item.accept, item.weak_match) for c in top]
        rows += list(feats)
        labels += held
        groups += [n] * len(top)
        folds += [fold_of(item)] * len(top)
        coverage += [c.score for c in top]
        if item.id in drafted and len(top):
            order = np.argsort(-scorer.logits(feats), kind="stable")
            at = next((r for r, i in enumerate(order) if held[i]), None)
            bucket = "none" if at is None else str(at) if at < 4 else "4-7" if at < 8 else "8+"
            same = at is not None and top[order[at]].block_id == top[order[0]].block_id
            first[(bucket, "same passage" if same else "", drafted[item.id])] += 1
    x, y = np.asarray(rows, dtype=np.float64), np.asarray(labels, dtype=np.float64)
    g, f = np.asarray(groups), np.asarray(folds)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    refit = np.zeros(len(x))
    for fold in range(FOLDS):
        test = f == fold
        refit[test] = z[test] @ listwise(
            z[~test], y[~test], g[~test], np.ones(int((~test).sum())), L2
        )
    oracle = coverage_at(np.zeros(len(y)), y, g, TOP)
    print(f"{len(np.unique(g))} questions, oracle (coverage@{TOP}) {oracle:.3f}")
    print("order | " + " | ".join(f"@{k}" for k in KS))
    for name, scores in (
        ("term coverage", np.asarray(coverage)),
        ("shipped scorer", scorer.logits(x)),
        ("listwise, papers held out", refit),
    ):
        print(f"{name} | " + " | ".join(f"{coverage_at(scores, y, g, k):.3f}" for k in KS))
    if first:
        print("first answer sentence's rank (shipped scorer) | passage | draft right | questions")
        for (bucket, same, right), count in sorted(first.items()):
            print(f"{bucket} | {same} | {right} | {count}")


if __name__ == "__main__":
    main()
