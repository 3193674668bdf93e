"""Experiment (issue 38): does the contextual MiniLM model (the `[transformer]` extra) tell a
sentence that *answers* a question from one that is only about it, well enough to refuse
unanswerable questions?

    python scripts/contextual_judge_experiment.py dump LIB QA.yaml RECORDS.pkl
    python scripts/contextual_judge_experiment.py encode RECORDS.pkl ENCODINGS.pkl
    python scripts/contextual_judge_experiment.py check RECORDS.pkl ENCODINGS.pkl [--seeds 5]

`dump` asks every question of QA.yaml within its paper twice: once through the scorer's
candidate sentences (scripts/answer_judge_experiment.py's record: the best TOP sentences, their
feature rows, whether each holds an accepted answer or sits in the gold evidence), once through
`Library.ask` with no refusal by answerability and support uncalibrated (the drafted answer's
signals, as scripts/fit_answerable.py reads them). `encode` runs MiniLM once over every distinct
question and candidate (sentence embedding and contextual token embeddings, one forward pass),
saving as it goes so an interrupted run resumes. `check` prints, with every fit made without the
papers it is scored on (5 folds by a hash of the paper, --seeds splits):

- the held-out AUC of answerable against unanswerable questions (drafted ones, like
  fit_answerable.py) for each judge alone, for the shipped answerability signals, and for the
  shipped signals with each judge and with all of them, plus what the threshold searched under
  the 15% false-refusal cap refuses;
- top-1: the share of answerable, non-yes/no questions whose best candidate holds the answer,
  by each judge alone and by the shipped scorer features with each judge (a conditional logit).

The judges, each the best over the question's candidates: `cos` (the sentence embeddings'
cosine), `cos_top` (the cosine of the candidate the shipped scorer ranks first), `maxsim` (for
each word piece of the question its best cosine with a piece of the sentence, weighted by the
piece's IDF over all candidate sentences) and `head` (a ridge logistic regression over
[q * s, |q - s|, cos] of candidates that hold the answer or sit in the evidence against the rest,
unanswerable questions' candidates all negative; its out-of-fold score). Nothing is shipped.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from citewise.agent.ask.answerable import STATED, answerable_in_use
from citewise.agent.ask.calibration import calibration_in_use
from citewise.agent.ask.scorer import answer_scorer
from citewise.api import Library
from citewise.eval.harness import file_name_map, load_items, text_is_correct

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answer_judge_experiment import question_record  # noqa: E402
from fit_answerable import REFUSAL_SIGNALS, Asked, held_out_probabilities, searched  # noqa: E402
from logistic_fits import listwise, newton  # noqa: E402

FOLDS = 5
CAP = 0.15  # the false-refusal cap fit_answerable.py searches its threshold under
HEAD_CANDIDATES = 10  # the head trains on each question's best few by the shipped scorer
HEAD_L2 = 30.0
Record = dict[str, Any]


def dump(library: Path, qa_path: Path, out: Path) -> None:
    lib = Library(library)
    names = {n: d for d, n in file_name_map([(d.id, d.path) for d in lib.documents()]).items()}
    evidence = {e["id"]: str(e.get("evidence") or "") for e in yaml.safe_load(qa_path.read_text())}
    records = []
    with answerable_in_use(None), calibration_in_use(None):
        for item in load_items(qa_path):
            record = question_record(lib, names, item, evidence.get(item.id, ""))
            docs = [names[d] for d in item.docs if d in names]
            answer = lib.ask(item.question, docs)
            right = not answer.refused and item.answerable
            right = right and text_is_correct(answer.answer, item.accept, item.weak_match)
            record.update(
                signals=dict(answer.signals),
                refused=answer.refused,
                right=right,
                drafted="logit" in answer.signals and STATED in answer.signals,
            )
            records.append(record)
            if len(records) % 25 == 0:
                print(f"{len(records)} asked", file=sys.stderr)
    out.write_bytes(pickle.dumps(records))
    print(f"{len(records)} questions -> {out}", file=sys.stderr)


def encode(records_path: Path, out: Path, batch: int = 32) -> None:
    """MiniLM's sentence embedding and contextual token embeddings (with their word-piece ids)
    of every distinct text, saved every few batches."""
    from citewise.embed.base import SentenceTransformerEmbedder, bundled_minilm_dir

    records = pickle.loads(records_path.read_bytes())
    done: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = (
        pickle.loads(out.read_bytes()) if out.exists() else {}
    )
    texts = list(dict.fromkeys(t for r in records for t in [r["question"], *r["texts"]]))
    todo = [t for t in texts if t not in done]
    print(f"{len(texts)} texts, {len(todo)} to encode", file=sys.stderr)
    model = SentenceTransformerEmbedder(bundled_minilm_dir(), "minilm")._model
    for start in range(0, len(todo), batch):
        chunk = todo[start : start + batch]
        outputs = model.encode(chunk, batch_size=batch, output_value=None)
        for text, o in zip(chunk, outputs, strict=True):
            mask = o["attention_mask"].cpu().numpy().astype(bool)
            sentence = o["sentence_embedding"].cpu().numpy().astype(np.float32)
            tokens = o["token_embeddings"].cpu().numpy()[mask]
            tokens = tokens / np.linalg.norm(tokens, axis=1, keepdims=True)
            ids = o["input_ids"].cpu().numpy()[mask].astype(np.int32)
            done[text] = (sentence / np.linalg.norm(sentence), tokens.astype(np.float16), ids)
        if (start // batch) % 20 == 19 or start + batch >= len(todo):
            out.write_bytes(pickle.dumps(done))
            print(f"{min(start + batch, len(todo))}/{len(todo)}", file=sys.stderr)


def fold_of(paper: str, seed: int) -> int:
    """fit_answerable.py's folds: seed 0 hashes the paper, others the seed and the paper."""
    return zlib.crc32((paper if seed == 0 else f"{seed}:{paper}").encode()) % FOLDS


def piece_idf(records: list[Record], enc: dict[str, Any], special: set[int]) -> dict[int, float]:
    """Each word piece's IDF over the distinct candidate sentences."""
    texts = {t for r in records for t in r["texts"]}
    df: dict[int, int] = {}
    for t in texts:
        for i in set(enc[t][2].tolist()) - special:
            df[i] = df.get(i, 0) + 1
    return {i: math.log((len(texts) + 1) / (n + 1)) for i, n in df.items()}


def judge_inputs(records: list[Record], enc: dict[str, Any]) -> None:
    """Adds per record: the scorer's logits, the cosine and maxsim of each candidate."""
    special = {0, 100, 101, 102, 103}  # [PAD] [UNK] [CLS] [SEP] [MASK] of the BERT vocabulary
    idf = piece_idf(records, enc, special)
    scorer = answer_scorer()
    for r in records:
        q, qt, qids = enc[r["question"]]
        keep = np.asarray([i not in special and idf.get(i, 0.0) > 0.5 for i in qids.tolist()])
        weight = np.asarray([idf.get(i, 0.0) for i in qids.tolist()])[keep]
        qt = qt[keep].astype(np.float32)
        r["q"] = q
        r["s"] = np.asarray([enc[t][0] for t in r["texts"]]).reshape(len(r["texts"]), -1)
        r["cos"] = r["s"] @ q if len(r["texts"]) else np.zeros(0)
        maxsim = []
        for t in r["texts"]:
            st = enc[t][1].astype(np.float32)
            best = (qt @ st.T).max(axis=1) if len(qt) else np.zeros(0)
            maxsim.append(float(weight @ best / weight.sum()) if weight.sum() > 0 else 0.0)
        r["maxsim"] = np.asarray(maxsim)
        r["logits"] = scorer.logits(r["rows"]) if len(r["texts"]) else np.zeros(0)


def head_design(r: Record, order: np.ndarray) -> np.ndarray:
    s, q = r["s"][order], r["q"][None, :]
    return np.hstack([s * q, np.abs(s - q), r["cos"][order][:, None], np.ones((len(order), 1))])


def head_scores(records: list[Record], seed: int) -> list[np.ndarray]:
    """Each record's candidates scored by the interaction head fitted without its fold."""
    best = [np.argsort(-r["logits"])[:HEAD_CANDIDATES] for r in records]
    x = [head_design(r, o) for r, o in zip(records, best, strict=True)]
    y = [
        np.maximum(r["labels"][o], r["evidence"][o]) * float(r["answerable"])
        for r, o in zip(records, best, strict=True)
    ]
    folds = [fold_of(r["paper"], seed) for r in records]
    scores = [np.full(len(r["texts"]), -30.0) for r in records]
    for f in range(FOLDS):
        train = [i for i in range(len(records)) if folds[i] != f and len(x[i])]
        xt, yt = np.vstack([x[i] for i in train]), np.concatenate([y[i] for i in train])
        balance = np.where(yt == 1, (1 - yt).sum() / max(1.0, yt.sum()), 1.0)
        penalty = HEAD_L2 * np.eye(xt.shape[1])
        penalty[-1, -1] = 0.0
        w = newton(xt, yt, balance, penalty, 25)
        for i in range(len(records)):
            if folds[i] == f and len(x[i]):
                scores[i][best[i]] = x[i] @ w
    return scores


def auc(score: np.ndarray, label: np.ndarray) -> float:
    pos, neg = score[label == 1], score[label == 0]
    above = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(above / (len(pos) * len(neg)))


def judge_signals(records: list[Record], head: list[np.ndarray]) -> None:
    """The per-question judges (each the best over the candidates) into each record's signals."""
    for r, h in zip(records, head, strict=True):
        n = len(r["texts"])
        top = int(np.argmax(r["logits"])) if n else 0
        r["signals"].update(
            mini_cos=float(r["cos"].max()) if n else 0.0,
            mini_cos_top=float(r["cos"][top]) if n else 0.0,
            mini_maxsim=float(r["maxsim"].max()) if n else 0.0,
            mini_head=float(h.max()) if n else -30.0,
        )


JUDGES = ("mini_cos", "mini_cos_top", "mini_maxsim", "mini_head")


def top1(records: list[Record], head: list[np.ndarray], seed: int) -> dict[str, float]:
    """top-1 of each judge alone and of the shipped features with each (held-out listwise)."""
    ok = [r for r in records if r["answerable"] and r["type"] != "yes_no" and len(r["texts"])]
    index = {id(r): i for i, r in enumerate(records)}
    found: dict[str, float] = {
        "oracle": float(np.mean([r["labels"].max() for r in ok])),
        "shipped scorer": float(np.mean([r["labels"][int(np.argmax(r["logits"]))] for r in ok])),
    }
    for name, column in (("cos", "cos"), ("maxsim", "maxsim")):
        found[name] = float(np.mean([r["labels"][int(np.argmax(r[column]))] for r in ok]))
    found["head"] = float(np.mean([r["labels"][int(np.argmax(head[index[id(r)]]))] for r in ok]))
    for extra in ((), ("cos",), ("maxsim",), ("cos", "maxsim")):
        xs = [np.hstack([r["rows"], *(r[c][:, None] for c in extra)]) for r in ok]
        allx = np.vstack(xs)
        mean, scale = allx.mean(axis=0), allx.std(axis=0)
        scale[scale == 0] = 1.0
        folds = [fold_of(r["paper"], seed) for r in ok]
        hits = []
        for f in range(FOLDS):
            train = [i for i in range(len(ok)) if folds[i] != f]
            z = np.vstack([(xs[i] - mean) / scale for i in train])
            y = np.concatenate([ok[i]["labels"] for i in train])
            g = np.concatenate([[i] * len(xs[i]) for i in train])
            w = listwise(z, y, g, np.ones(len(y)), 1.0)
            hits += [
                ok[i]["labels"][int(np.argmax(((xs[i] - mean) / scale) @ w))]
                for i in range(len(ok))
                if folds[i] == f
            ]
        found["base" + "".join(f"+{c}" for c in extra) + " (refit)"] = float(np.mean(hits))
    return found


def check(records_path: Path, encodings: Path, seeds: int) -> None:
    records = pickle.loads(records_path.read_bytes())
    enc = pickle.loads(encodings.read_bytes())
    judge_inputs(records, enc)
    drafted = [r for r in records if r["drafted"]]
    n_un = sum(not r["answerable"] for r in drafted)
    print(f"{len(records)} questions, {len(drafted)} drafted ({n_un} unanswerable)")
    sets = [
        *((j,) for j in JUDGES),
        REFUSAL_SIGNALS,
        *((*REFUSAL_SIGNALS, j) for j in JUDGES),
        (*REFUSAL_SIGNALS, *JUDGES),
    ]
    rows_by_seed = []
    for seed in range(seeds):
        head = head_scores(records, seed)
        judge_signals(records, head)
        rows_by_seed.append(
            [
                Asked(
                    dict(r["signals"]),
                    0.0,
                    r["refused"],
                    r["right"],
                    r["answerable"],
                    r["paper"],
                    True,
                )
                for r in drafted
            ]
        )
        if seed == 0:
            for name, value in top1(records, head, seed).items():
                print(f"top-1 {name:28s} {value:.3f}")
            label = np.asarray([1.0 if r["answerable"] else 0.0 for r in drafted])
            for j in JUDGES:
                raw = np.asarray([r["signals"][j] for r in drafted])
                print(f"raw AUC {j:14s} {auc(raw, label):.3f}")
    for signals in sets:
        # the head's values differ per seed (out-of-fold), so each seed scores its own rows
        found = [
            searched(rows_by_seed[s], held_out_probabilities(rows_by_seed[s], signals, s), CAP)
            for s in range(seeds)
        ]
        mean = np.asarray([[f.auc, f.unanswerable_refused, f.answerable_refused] for f in found])
        a, un, ans = mean.mean(axis=0)
        print(
            f"{'+'.join(signals):80s} AUC {a:.3f}  unanswerable refused {un:.3f}  "
            f"answerable refused {ans:.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("library", type=Path)
    d.add_argument("qa", type=Path)
    d.add_argument("records", type=Path)
    e = sub.add_parser("encode")
    e.add_argument("records", type=Path)
    e.add_argument("encodings", type=Path)
    c = sub.add_parser("check")
    c.add_argument("records", type=Path)
    c.add_argument("encodings", type=Path)
    c.add_argument("--seeds", type=int, default=5)
    c.add_argument("--head-l2", type=float, default=30.0, help="the head's ridge penalty")
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.library, args.qa, args.records)
    elif args.command == "encode":
        encode(args.records, args.encodings)
    else:
        global HEAD_L2
        HEAD_L2 = args.head_l2
        check(args.records, args.encodings, args.seeds)


if __name__ == "__main__":
    main()
