"""Experiment (issue 38): can a small local generative model, reading the question and a
candidate sentence together, tell a sentence that answers the question from one only about it?

    python scripts/generative_judge_experiment.py run RECORDS.pkl MODEL.gguf CACHE.pkl \
        [--wording ask|alone] [--top 3] [--limit N]
    python scripts/generative_judge_experiment.py check RECORDS.pkl CACHE.pkl [CACHE.pkl ...] \
        [--seeds 5] [--limit N]

RECORDS.pkl is scripts/contextual_judge_experiment.py's `dump` (per question the scorer's 40
candidate sentences with their feature rows and labels, and the drafted answer's signals).
`run` prompts the model once per question and candidate (the scorer's best `--top`) with a
short yes/no question in the model's chat format and reads, from the logits of the first
token of the reply, log P(yes) - log P(no) (every single-token spelling of the two words
summed); no sampling. Each reply is cached (by wording, question and passage) with the time it
took, saved as it goes, so a stopped run resumes. `check` prints, with every fit made without
the papers it is scored on (scripts/fit_answerable.py's 5 folds by a hash of the paper, mean
over --seeds splits, threshold searched under the 15% false-refusal cap), the held-out AUC of
answerable against unanswerable drafted questions for each judge alone, for the shipped six
answerability signals, and for the shipped signals with each judge; the judges of a cache are
`top1` (the scorer's first candidate's log-odds) and `best` (the highest over the scored
candidates). It also prints the raw AUC, the seconds per prompt and whether the judge reads the
answer at all: the AUC of its log-odds for candidates holding an accepted answer against the
other candidates of answerable questions. Nothing is shipped.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fit_answerable import REFUSAL_SIGNALS, Asked  # noqa: E402
from fit_answerable import check as held_out_check  # noqa: E402

CAP = 0.15  # the false-refusal cap fit_answerable.py searches its threshold under
Record = dict[str, Any]

# Two wordings, fixed before any number was seen on more than a handful of questions.
WORDINGS = {
    "ask": (
        "Question: {question}\nPassage: {passage}\n\n"
        "Does the passage state the answer to the question? Answer yes or no."
    ),
    "alone": (
        'Passage: "{passage}"\n\n'
        'Can the question "{question}" be answered from this passage alone? Answer yes or no.'
    ),
}
YES_WORDS = ("yes", "Yes", "YES")
NO_WORDS = ("no", "No", "NO")
SMOLLM_SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


def user_turn(wording: str, question: str, passage: str) -> str:
    """The user's message: one of WORDINGS filled with the question and the passage."""
    return WORDINGS[wording].format(question=question.strip(), passage=passage.strip())


def chat_prompt(architecture: str, user: str) -> str:
    """`user` as a single user turn followed by the opening of the model's reply, in the chat
    format of the model's family (gemma's turns; ChatML with SmolLM's system line otherwise)."""
    if architecture.startswith("gemma"):
        return f"<start_of_turn>user\n{user}<end_of_turn>\n<start_of_turn>model\n"
    return (
        f"<|im_start|>system\n{SMOLLM_SYSTEM}<|im_end|>\n"
        f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    )


def answer_token_ids(tokenize: Callable[[str], list[int]], words: Iterable[str]) -> tuple[int, ...]:
    """The ids of the words (bare and after a space) that the tokenizer writes as one token."""
    ids: list[int] = []
    for word in words:
        for spelling in (word, " " + word):
            pieces = tokenize(spelling)
            if len(pieces) == 1 and pieces[0] not in ids:
                ids.append(pieces[0])
    return tuple(ids)


def _logsumexp(values: np.ndarray) -> float:
    top = float(values.max())
    return top + math.log(float(np.exp(values - top).sum()))


def yes_log_odds(logits: np.ndarray, yes: Sequence[int], no: Sequence[int]) -> float:
    """log P(yes) - log P(no) of the next token, each side summed over its token ids (the
    softmax's normaliser cancels)."""
    if not yes or not no:
        raise ValueError("both answers need at least one token id")
    row = np.asarray(logits, dtype=np.float64)
    return _logsumexp(row[list(yes)]) - _logsumexp(row[list(no)])


def yes_probability(log_odds: float) -> float:
    """P(yes) among the two answers."""
    return 1.0 / (1.0 + math.exp(-log_odds))


class Judge:
    """A GGUF model read for the first token of its reply (one thread, no sampling)."""

    def __init__(self, path: Path, n_ctx: int = 1024) -> None:
        from llama_cpp import Llama

        self.llama = Llama(
            model_path=str(path),
            n_ctx=n_ctx,
            n_batch=512,
            n_threads=1,
            n_threads_batch=1,  # its default, the machine's CPU count, oversubscribes a shared box
            seed=0,
            verbose=False,
        )
        self.architecture = str(self.llama.metadata.get("general.architecture", ""))
        self.name = path.name

        def tokenize(text: str) -> list[int]:
            return list(self.llama.tokenize(text.encode(), add_bos=False, special=False))

        self.yes = answer_token_ids(tokenize, YES_WORDS)
        self.no = answer_token_ids(tokenize, NO_WORDS)

    def log_odds(self, user: str) -> float:
        prompt = chat_prompt(self.architecture, user)
        tokens = self.llama.tokenize(prompt.encode(), add_bos=True, special=True)
        tokens = tokens[: self.llama.n_ctx() - 1]  # a long passage loses its tail, not the run
        self.llama.reset()
        self.llama.eval(tokens)
        pointer = self.llama._ctx.get_logits_ith(-1)
        logits = np.ctypeslib.as_array(pointer, shape=(self.llama.n_vocab(),))
        return yes_log_odds(logits, self.yes, self.no)


def scorer_order(record: Record) -> np.ndarray:
    """The record's candidates, best first by the shipped scorer."""
    from citewise.agent.ask.scorer import answer_scorer

    if not len(record["texts"]):
        return np.zeros(0, dtype=int)
    return np.argsort(-answer_scorer().logits(record["rows"]), kind="stable")


def run(
    records_path: Path, model: Path, cache_path: Path, wording: str, top: int, limit: int
) -> None:
    records: list[Record] = pickle.loads(records_path.read_bytes())[: limit or None]
    cache: dict[str, Any] = (
        pickle.loads(cache_path.read_bytes())
        if cache_path.exists()
        else {"model": model.name, "wording": wording, "replies": {}}
    )
    if (cache["model"], cache["wording"]) != (model.name, wording):
        raise SystemExit(f"{cache_path} holds {cache['model']} / {cache['wording']}")
    replies: dict[tuple[str, str], tuple[float, float]] = cache["replies"]
    judge = Judge(model)
    print(f"{judge.architecture}: yes ids {judge.yes}, no ids {judge.no}", file=sys.stderr)
    done = 0
    for n, r in enumerate(records, 1):
        for i in scorer_order(r)[:top]:
            key = (r["question"], r["texts"][i])
            if key in replies:
                continue
            started = time.perf_counter()
            value = judge.log_odds(user_turn(wording, *key))
            replies[key] = (value, time.perf_counter() - started)
            done += 1
        if n % 10 == 0 or n == len(records):
            cache_path.write_bytes(pickle.dumps(cache))
            spent = [s for _, s in replies.values()]
            print(
                f"{n}/{len(records)} questions, {done} new prompts, "
                f"{np.mean(spent):.2f} s a prompt",
                file=sys.stderr,
            )


def judge_values(record: Record, order: np.ndarray, replies: dict[Any, Any]) -> list[float]:
    """The cached log-odds of the record's candidates in the scorer's order (those scored)."""
    found = []
    for i in order:
        key = (record["question"], record["texts"][i])
        if key not in replies:
            break
        found.append(float(replies[key][0]))
    return found


def auc(score: np.ndarray, label: np.ndarray) -> float:
    pos, neg = score[label == 1], score[label == 0]
    above = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(above / (len(pos) * len(neg)))


def check(records_path: Path, caches: list[Path], seeds: int, limit: int = 0) -> None:
    records: list[Record] = pickle.loads(records_path.read_bytes())[: limit or None]
    judges: list[str] = []
    for path in caches:
        cache = pickle.loads(path.read_bytes())
        tag = f"{Path(cache['model']).stem.split('-')[0].split('.')[0].lower()}_{cache['wording']}"
        spent = [s for _, s in cache["replies"].values()]
        print(
            f"{tag}: {len(spent)} prompts, {np.mean(spent):.3f} s a prompt (median "
            f"{np.median(spent):.3f})"
        )
        for r in records:
            values = judge_values(r, scorer_order(r), cache["replies"])
            r.setdefault("judged", {})[tag] = values
        judges.append(tag)
    # only questions every cache scored (a --limit run scores a prefix)
    scored = [r for r in records if r["drafted"] and all(r["judged"][j] for j in judges)]
    n_un = sum(not r["answerable"] for r in scored)
    print(f"{len(records)} questions, {len(scored)} drafted and judged ({n_un} unanswerable)")
    signals: list[str] = []
    for j in judges:
        for r in scored:
            values = r["judged"][j]
            r["signals"][f"{j}_top1"] = values[0]
            r["signals"][f"{j}_best"] = max(values)
        signals += [f"{j}_top1", f"{j}_best"]
    for j in judges:
        # does the judge read the answer at all? its candidates holding an accepted answer
        # against the others, over answerable questions
        pairs = [
            (v, float(r["labels"][i]))
            for r in scored
            if r["answerable"]
            for v, i in zip(r["judged"][j], scorer_order(r), strict=False)
        ]
        value, holds = np.asarray(pairs).T
        print(
            f"candidate AUC {j:22s} {auc(value, holds):.3f} ({int(holds.sum())} of "
            f"{len(holds)} hold an answer; log-odds mean {value.mean():.2f} sd {value.std():.2f})"
        )
    label = np.asarray([1.0 if r["answerable"] else 0.0 for r in scored])
    for s in signals:
        raw = np.asarray([r["signals"][s] for r in scored])
        print(f"raw AUC {s:28s} {auc(raw, label):.3f}")
    rows = [
        Asked(dict(r["signals"]), 0.0, r["refused"], r["right"], r["answerable"], r["paper"], True)
        for r in scored
    ]
    sets = [
        *((s,) for s in signals),
        REFUSAL_SIGNALS,
        *((*REFUSAL_SIGNALS, s) for s in signals),
    ]
    for chosen in sets:
        found = held_out_check(rows, chosen, CAP, seeds)
        print(
            f"{'+'.join(chosen):100s} AUC {found.auc:.3f}  unanswerable refused "
            f"{found.unanswerable_refused:.3f}  answerable refused {found.answerable_refused:.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("records", type=Path)
    r.add_argument("model", type=Path)
    r.add_argument("cache", type=Path)
    r.add_argument("--wording", choices=sorted(WORDINGS), default="ask")
    r.add_argument("--top", type=int, default=3)
    r.add_argument("--limit", type=int, default=0)
    c = sub.add_parser("check")
    c.add_argument("records", type=Path)
    c.add_argument("caches", type=Path, nargs="+")
    c.add_argument("--seeds", type=int, default=5)
    c.add_argument("--limit", type=int, default=0, help="the first N questions (a run's prefix)")
    args = parser.parse_args()
    if args.command == "run":
        run(args.records, args.model, args.cache, args.wording, args.top, args.limit)
    else:
        check(args.records, args.caches, args.seeds, args.limit)


if __name__ == "__main__":
    main()
