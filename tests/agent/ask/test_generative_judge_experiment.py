"""The measurement of scripts/generative_judge_experiment.py: the prompt puts the question and
the passage in one user turn of the model's chat format; the judge reads log P(yes) - log P(no)
of the reply's first token, every spelling of each word summed; a real llama.cpp run on the
bundled SmolLM2 is deterministic; and `check` scores a cached judge held out by paper, so a
judge that tells answerable questions apart gets a high AUC and one that does not gets ~0.5."""

from __future__ import annotations

import math
import pickle
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from citewise.agent.ask.features import FEATURES
from tests.conftest import load_script
from tests.llm.smollm2 import SMOLLM2, needs_smollm2

SCRIPT = Path(__file__).parents[3] / "scripts" / "generative_judge_experiment.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "generative_judge_experiment")


def test_the_prompt_holds_question_and_passage_in_one_turn_then_opens_the_reply() -> None:
    script = _script()
    question = "Which corpus were the taggers trained on?"
    passage = "Both taggers were trained on the Penn Treebank."
    for wording in script.WORDINGS:
        user = script.user_turn(wording, f"  {question}\n", passage)
        assert question in user and passage in user and "yes or no" in user
    user = script.user_turn("ask", question, passage)
    gemma = script.chat_prompt("gemma3", user)
    assert gemma.startswith("<start_of_turn>user\n" + user)
    assert gemma.endswith("<end_of_turn>\n<start_of_turn>model\n")
    chatml = script.chat_prompt("llama", user)
    assert f"<|im_start|>user\n{user}<|im_end|>" in chatml
    assert chatml.endswith("<|im_start|>assistant\n")


def test_yes_log_odds_sums_each_answers_spellings_and_ignores_the_normaliser() -> None:
    script = _script()
    logits = np.full(10, -5.0)
    logits[[1, 2]] = 2.0  # two spellings of "yes"
    logits[3] = 2.0  # one of "no"
    odds = script.yes_log_odds(logits, (1, 2), (3, 4))
    assert odds == pytest.approx(math.log(2.0), abs=0.01)
    assert script.yes_log_odds(logits + 40.0, (1, 2), (3, 4)) == pytest.approx(odds)
    assert script.yes_log_odds(logits, (3,), (1,)) == pytest.approx(0.0)
    assert script.yes_probability(odds) == pytest.approx(2 / 3, abs=0.01)
    with pytest.raises(ValueError):
        script.yes_log_odds(logits, (), (3,))


def test_answer_tokens_are_the_single_token_spellings_of_the_word() -> None:
    script = _script()
    words = {"yes": [7], " yes": [8], "Yes": [9, 10], " Yes": [8]}

    def tokenize(text: str) -> list[int]:
        return words.get(text, [99, 98])

    assert script.answer_token_ids(tokenize, ["yes", "Yes"]) == (7, 8)


@needs_smollm2
def test_a_real_small_model_reads_the_same_log_odds_twice() -> None:
    script = _script()
    assert SMOLLM2 is not None
    judge = script.Judge(SMOLLM2, n_ctx=256)
    for ids, words in ((judge.yes, script.YES_WORDS), (judge.no, script.NO_WORDS)):
        spelled = {judge.llama.detokenize([i]).decode().strip() for i in ids}
        assert spelled and spelled <= set(words)
    user = script.user_turn("ask", "What was the batch size?", "We train with a batch size of 32.")
    first, second = judge.log_odds(user), judge.log_odds(user)
    assert math.isfinite(first) and first == second


def _records(seed: int = 3) -> list[dict[str, Any]]:
    """60 papers with two questions each, one in six unanswerable; every record carries the
    six shipped answerability signals as noise, four candidates (one holding the answer when
    the question has one) and the drafted answer."""
    rng = np.random.default_rng(seed)
    records = []
    for paper in range(60):
        for k in range(2):
            answerable = bool(rng.random() > 1 / 6)
            signals = {n: float(rng.normal()) for n in _script().REFUSAL_SIGNALS}
            labels = np.zeros(4)
            labels[rng.integers(4)] = float(answerable)
            records.append(
                {
                    "paper": f"paper-{paper}.md",
                    "question": f"question {k} about paper {paper}?",
                    "texts": [f"sentence {i} of paper {paper}" for i in range(4)],
                    "rows": rng.normal(size=(4, len(FEATURES))),
                    "labels": labels,
                    "answerable": answerable,
                    "drafted": True,
                    "refused": False,
                    "right": answerable and bool(rng.random() > 0.5),
                    "signals": signals,
                }
            )
    return records


def test_check_scores_a_judge_held_out_by_paper(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script()
    records = _records()
    rng = np.random.default_rng(4)
    sharp: dict[tuple[str, str], tuple[float, float]] = {}
    noise: dict[tuple[str, str], tuple[float, float]] = {}
    for r in records:
        for text, holds in zip(r["texts"], r["labels"], strict=True):
            lead = 2.0 if holds else (0.0 if r["answerable"] else -2.0)
            sharp[(r["question"], text)] = (lead + rng.normal(), 0.1)
            noise[(r["question"], text)] = (float(rng.normal()), 0.1)
    (tmp_path / "records.pkl").write_bytes(pickle.dumps(records))
    for name, replies in (("sharp", sharp), ("noise", noise)):
        cache = {"model": f"{name}.gguf", "wording": "ask", "replies": replies}
        (tmp_path / f"{name}.pkl").write_bytes(pickle.dumps(cache))
    script.check(tmp_path / "records.pkl", [tmp_path / "sharp.pkl", tmp_path / "noise.pkl"], 2)
    lines = capsys.readouterr().out.splitlines()

    def held_out_auc(signals: str) -> float:
        line = next(x for x in lines if x.split()[0] == signals)
        return float(line.split("AUC")[1].split()[0])

    candidate = {x.split()[2]: float(x.split()[3]) for x in lines if x.startswith("candidate AUC")}
    assert candidate["sharp_ask"] > 0.85 and abs(candidate["noise_ask"] - 0.5) < 0.15
    assert held_out_auc("sharp_ask_best") > 0.9
    assert held_out_auc("sharp_ask_top1") > 0.8
    assert abs(held_out_auc("noise_ask_best") - 0.5) < 0.2
    assert held_out_auc("+".join(script.REFUSAL_SIGNALS) + "+sharp_ask_top1") > 0.8
