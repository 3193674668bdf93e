"""Experiment (issue 38): can a fitted interaction over the shipped static token vectors judge
whether a candidate sentence *answers* a question, not just shares its words?

    python scripts/answer_judge_experiment.py dump LIB QA.yaml CACHE.pkl
    python scripts/answer_judge_experiment.py check CACHE.pkl [--parts base+maxsim --l2 1]
        [--seeds 3] [--train-evidence]

`dump` asks every question of QA.yaml within its paper (like `citewise eval --scope-docs`) and
keeps, per question, the scorer's candidate sentences (agent/ask/rank.py's best TOP), their
feature rows (agent/ask/features.py), whether each holds an accepted answer, and the words of
question and candidates. `check` then measures, with every fit made without the papers it is
scored on (5 folds by a hash of the paper, several seeds):

- top-1: the share of answerable, non-yes/no questions whose best-scored candidate holds the
  answer, for the shipped features refitted per fold, and for them plus each judge;
- AUC of the judge's best score (and margin over the next) for answerable against
  unanswerable questions.

The judges: `maxsim` (for each question word, the best cosine with a word of the sentence,
weighted by the word's in-paper IDF; its mean and the uncovered weight) and `bilinear` (a
conditional logit over the 256 dimensions of q * s and |q - s|, q and s the averaged vectors).
Nothing here is shipped; it prints numbers for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from citewise.agent.ask.features import FEATURES
from citewise.agent.ask.passages import hit_passages, term_weights
from citewise.agent.ask.rank import featured
from citewise.agent.sentences.draft import ranked_candidates, shape_tests
from citewise.api import Library
from citewise.eval.harness import file_name_map, load_items, text_is_correct
from citewise.retrieval.terms import content_terms, stem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from logistic_fits import listwise  # noqa: E402

FOLDS = 5
Record = dict[str, Any]  # one question: its candidates, their rows, labels and vectors
TRAIN_EVIDENCE = 0.0  # 1: a candidate inside the gold evidence counts as a positive in training


def dump(library: Path, qa_path: Path, out: Path) -> None:
    lib = Library(library)
    names = {n: d for d, n in file_name_map([(d.id, d.path) for d in lib.documents()]).items()}
    evidence = {e["id"]: str(e.get("evidence") or "") for e in yaml.safe_load(qa_path.read_text())}
    records = [
        question_record(lib, names, item, evidence.get(item.id, "")) for item in load_items(qa_path)
    ]
    out.write_bytes(pickle.dumps(records))
    print(f"{len(records)} questions -> {out}", file=sys.stderr)


def question_record(lib: Library, names: dict[str, str], item: Any, evidence: str) -> Record:
    """One question asked within its paper: the scorer's candidate sentences, their feature
    rows, whether each holds an accepted answer or sits in the gold evidence, and the words of
    the question (`names`: file name -> document id)."""
    qa = lib.answerer
    docs = tuple(names[d] for d in item.docs if d in names)
    question, _ = qa.analyse(item.question, docs)
    hits = qa.retrieve(question, 8, strict=bool(docs))
    passages, _ = hit_passages(hits, ())
    weight = term_weights(qa.retriever, question, passages)
    document_of = {p.block_id: p.document_id for p in passages}
    ranked = ranked_candidates(question, passages, weight, document_of)
    top, rows = featured(question, ranked, passages, qa.retriever.similarities, shape_tests())
    doc = passages[0].document_id if passages else ""
    words = content_terms(item.question)
    return {
        "id": item.id,
        "paper": "+".join(item.docs),
        "type": item.type,
        "answerable": item.answerable,
        "question": item.question,
        "qwords": words,
        "qweights": [weight(stem(w), doc) for w in words],
        "texts": [c.text for c in top],
        "kinds": [c.kind for c in top],
        "rows": rows,
        "labels": np.asarray(
            [
                bool(item.accept) and text_is_correct(c.text, item.accept, item.weak_match)
                for c in top
            ],
            dtype=np.float64,
        ),  # fmt: skip
        "evidence": np.asarray([in_evidence(c.text, evidence) for c in top], dtype=np.float64),
    }


def in_evidence(text: str, evidence: str) -> bool:
    """Whether the sentence is (nearly all of its words) inside one of the annotators'
    evidence passages: a sentence they marked as answering, whatever its wording."""
    words = set(content_terms(text))
    if len(words) < 4:
        return False
    return any(
        len(words & set(content_terms(piece))) >= 0.8 * len(words)
        for piece in evidence.split(" ... ")
    )


def fold(paper: str, seed: int) -> int:
    return zlib.crc32(f"{seed}:{paper}".encode()) % FOLDS


def judge_inputs(records: list[Record]) -> None:
    """Adds to each record: q, s (averaged vectors) and the maxsim features per candidate."""
    from citewise.embed.static import load_static_embedder

    emb = load_static_embedder()
    cache: dict[str, np.ndarray] = {}

    def vectors(words: list[str]) -> np.ndarray:
        missing = [w for w in dict.fromkeys(words) if w not in cache]
        if missing:
            for w, v in zip(missing, emb.encode(missing), strict=True):
                cache[w] = v
        return np.asarray([cache[w] for w in words]).reshape(len(words), -1)

    for r in records:
        r["q"] = emb.encode([r["question"]])[0]
        r["s"] = emb.encode(r["texts"]) if r["texts"] else np.zeros((0, emb.dimensions))
        qv = vectors(r["qwords"])
        qw = np.asarray(r["qweights"]) if r["qwords"] else np.zeros(0)
        qw = qw / qw.sum() if qw.sum() > 0 else qw
        feats = []
        for text in r["texts"]:
            sw = content_terms(text)
            if not sw or not len(qv):
                feats.append([0.0, 1.0, 0.0])
                continue
            sv = vectors(sw)
            sims = qv @ sv.T  # question word x sentence word
            best = sims.max(axis=1)
            exact = best > 0.999
            # mean best cosine, weight left uncovered (no word above 0.5), weight met by a
            # near (not identical) word: a paraphrase of the asked term
            feats.append(
                [float(qw @ best), float(qw @ (best < 0.5)), float(qw @ ((best >= 0.5) & ~exact))]
            )
        r["maxsim"] = np.asarray(feats).reshape(len(r["texts"]), 3)


def design(r: Record, parts: tuple[str, ...]) -> np.ndarray:
    cols = []
    if "base" in parts:
        cols.append(r["rows"])
    if "maxsim" in parts:
        cols.append(r["maxsim"])
    if "cos" in parts:
        cols.append((r["s"] @ r["q"])[:, None])
    if "bilinear" in parts:
        cols.append(r["s"] * r["q"][None, :])
    if "absdiff" in parts:
        cols.append(np.abs(r["s"] - r["q"][None, :]))
    return np.hstack(cols) if cols else np.zeros((len(r["texts"]), 0))


def held_out_scores(
    records: list[Record], parts: tuple[str, ...], l2: float, seed: int
) -> list[np.ndarray]:
    """Each record's candidate scores from a conditional logit fitted without its fold."""
    x = [design(r, parts) for r in records]
    usable = [
        i for i, r in enumerate(records)
        if r["answerable"] and r["type"] != "yes_no" and len(r["texts"])
    ]  # fmt: skip
    allx = np.vstack([x[i] for i in usable])
    mean, scale = allx.mean(axis=0), allx.std(axis=0)
    scale[scale == 0] = 1.0
    scores = [np.zeros(0) for _ in records]
    folds = [fold(r["paper"], seed) for r in records]
    for f in range(FOLDS):
        train = [i for i in usable if folds[i] != f]
        z = np.vstack([(x[i] - mean) / scale for i in train])
        y = np.concatenate(
            [
                np.maximum(records[i]["labels"], TRAIN_EVIDENCE * records[i]["evidence"])
                for i in train
            ]
        )
        g = np.concatenate([[i] * len(x[i]) for i in train])
        w = listwise(z, y, g, np.ones(len(y)), l2)
        for i in range(len(records)):
            if folds[i] == f:
                scores[i] = ((x[i] - mean) / scale) @ w if len(x[i]) else np.zeros(0)
    return scores


def auc(pos: np.ndarray, neg: np.ndarray) -> float:
    """P(a random positive scores above a random negative), ties half."""
    if not len(pos) or not len(neg):
        return float("nan")
    gt = (pos[:, None] > neg[None, :]).mean()
    eq = (pos[:, None] == neg[None, :]).mean()
    return float(gt + 0.5 * eq)


def report(records: list[Record], parts: tuple[str, ...], l2: float, seeds: int) -> None:
    tops, aucs, margins = [], [], []
    for seed in range(seeds):
        scores = held_out_scores(records, parts, l2, seed)
        hit = [
            r["labels"][int(np.argmax(s))]
            for r, s in zip(records, scores, strict=True)
            if r["answerable"] and r["type"] != "yes_no" and len(s) and r["labels"].sum() >= 0
        ]
        tops.append(np.mean(hit))
        best = np.asarray([s.max() if len(s) else -9 for s in scores])
        second = np.asarray([np.sort(s)[-2] if len(s) > 1 else -9 for s in scores])
        ok = np.asarray([r["answerable"] for r in records])
        aucs.append(auc(best[ok], best[~ok]))
        margins.append(auc((best - second)[ok], (best - second)[~ok]))
    print(
        f"{'+'.join(parts):28s} l2 {l2:<6g} top-1 {np.mean(tops):.3f} (+-{np.std(tops):.3f})  "
        f"AUC best {np.mean(aucs):.3f}  margin {np.mean(margins):.3f}"
    )


# What `check` measures without --parts: each judge alone, the shipped features, and the
# shipped features with each judge (l2 is per candidate row: the bilinear judges need thousands
# to be regularised at all)
CONFIGS = [
    ("cos", 1.0),
    ("maxsim", 1.0),
    ("bilinear", 3000.0),
    ("base", 1.0),
    ("base+cos", 1.0),
    ("base+maxsim", 1.0),
    ("base+bilinear", 3000.0),
]


def check(cache: Path, configs: list[tuple[str, float]], seeds: int) -> None:
    records = pickle.loads(cache.read_bytes())
    judge_inputs(records)
    ok = [r for r in records if r["answerable"] and r["type"] != "yes_no" and len(r["texts"])]
    oracle = np.mean([r["labels"].max() for r in ok])
    heur = np.mean([r["labels"][int(np.argmax(r["rows"][:, FEATURES.index("heuristic")]))]
                    for r in ok])  # fmt: skip
    n_un = sum(not r["answerable"] for r in records)
    print(f"{len(ok)} answerable prose questions, {n_un} unanswerable; oracle {oracle:.3f}, "
          f"term coverage top-1 {heur:.3f}")  # fmt: skip
    for parts, l2 in configs:
        report(records, tuple(parts.split("+")), l2, seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("library", type=Path)
    d.add_argument("qa", type=Path)
    d.add_argument("cache", type=Path)
    c = sub.add_parser("check")
    c.add_argument("cache", type=Path)
    c.add_argument("--parts", action="append", help="e.g. base+maxsim (repeatable)")
    c.add_argument("--l2", type=float, default=1.0)
    c.add_argument("--seeds", type=int, default=1)
    c.add_argument(
        "--train-evidence",
        action="store_true",
        help="count candidates inside the gold evidence as positives in training",
    )
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.library, args.qa, args.cache)
        return
    global TRAIN_EVIDENCE
    TRAIN_EVIDENCE = 1.0 if args.train_evidence else 0.0
    configs = [(p, args.l2) for p in args.parts] if args.parts else CONFIGS
    check(args.cache, configs, args.seeds)


if __name__ == "__main__":
    main()
