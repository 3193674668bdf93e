"""The candidates re-ranked by the fitted answer scorer.

The term-coverage ranking (agent/sentences/extractive.py) finds the sentences about the question;
the
scorer (agent/ask/scorer.py) reads their features (agent/ask/features.py) and
orders the best few by the probability that they hold the answer, which becomes each
candidate's score, with its log-odds kept for the support of the drafted answer (a yes/no
question, or one best matched by a table row, keeps the coverage order: see `rescored`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from citewise.agent.ask.features import Shape, Similarity, candidate_features
from citewise.agent.ask.question import Question
from citewise.agent.ask.scorer import AnswerScorer, answer_scorer
from citewise.agent.sentences.extractive import Candidate, Passage
from citewise.agent.yesno.polar import is_polar

# The scorer reads this many of the term-coverage ranking's best; the rest keep their order
# below them.
TOP = 40


def featured(
    question: Question,
    ranked: list[Candidate],
    passages: list[Passage],
    similarity: Similarity,
    shape: Shape,
) -> tuple[list[Candidate], np.ndarray]:
    """The best TOP candidates and their feature rows."""
    top = ranked[:TOP]
    by_id = {p.block_id: p for p in passages}
    return top, candidate_features(question, top, by_id, similarity, shape)


def rescored(
    question: Question,
    ranked: list[Candidate],
    passages: list[Passage],
    similarity: Similarity,
    shape: Shape,
    scorer: AnswerScorer | None = None,
) -> list[Candidate]:
    """The candidates, best first by the scorer's probability (their new score)."""
    if not ranked:
        return ranked
    scorer = scorer or answer_scorer()
    top, rows = featured(question, ranked, passages, similarity, shape)
    logits = scorer.logits(rows)
    probabilities = 1.0 / (1.0 + np.exp(-np.clip(logits, -30, 30)))
    tables = any(c.kind == "table" for c in top[:3])
    if is_polar(question.text) or top[0].kind == "caption" or tables:
        # the scorer learned what states an answer span in prose; a yes/no question is
        # settled by the sentence that writes its claim, a table row (one of the best
        # three) by its header and cells, and a caption best matched says the answer is
        # drawn in its figure (agent/sentences/figures.py), which term coverage finds: keep that
        # order
        return [replace(c, logit=float(z)) for c, z in zip(top, logits, strict=True)] + ranked[TOP:]
    scored = [
        replace(c, score=float(p), logit=float(z), fitted=True)
        for c, p, z in zip(top, probabilities, logits, strict=True)
        if c.kind != "table"  # the scorer ranks prose; rows follow it in coverage order
    ]
    scored.sort(key=lambda c: -c.score)
    floor = min((c.score for c in scored), default=0.0)
    rest = [replace(c, score=floor * 0.5) for c in ranked if c.kind == "table"] + [
        replace(c, score=floor * 0.5) for c in ranked[TOP:] if c.kind != "table"
    ]
    return scored + rest
