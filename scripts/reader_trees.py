"""A sentence reader measured against the linear answer scorer: gradient-boosted trees over
a candidate's features (scripts/fit_sentence_reader.py fits and cross-validates them).

The linear scorer (citewise/agent/ask/scorer.py) weighs each feature the same way for every
question; trees let a feature count differently by the question's kind and by the others.
The rows are agent/ask/features.py's FEATURES followed by EXTRAS (`extra_features`). On QASPER
odd (185 questions) the trees did not beat the linear scorer held out, and with them in use
QASPER even fell (docs/benchmarks.md "A boosted-tree sentence reader"), so nothing here runs
when citewise answers; the trees can be written to a JSON file (`to_dict`, `load_reader`:
numpy only) to try them again on more data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from citewise.agent.ask.features import FEATURES, Similarity
from citewise.agent.ask.question import Question
from citewise.agent.sentences.extractive import Candidate, Passage, split_sentences
from citewise.errors import CitewiseError
from citewise.retrieval.terms import content_terms, stem

KINDS = ("numeric", "definition", "method", "factual")

EXTRAS = (
    "passage_similarity",  # cosine of the question and the sentence's whole passage
    "neighbour_similarity",  # the best cosine of the sentences next to it in its passage
    "similarity_rank",  # 1 / (1 + its place among the candidates by cosine)
    "own_rank",  # 1 / (1 + its place among the candidates by its own words' coverage)
    "numbers",  # how many numbers it writes (at most 5)
    "matched",  # how many of the question's terms it writes
    "question_terms",  # how many terms the question has
    "passage_order",  # 1 / (1 + the place of its passage in retrieval order)
    "last_in_passage",  # the last sentence of its paragraph
    "expects_name",
    "wants_list",
    *(f"kind_{k}" for k in KINDS),
)
READER_FEATURES = (*FEATURES, *EXTRAS)

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _places(values: np.ndarray) -> np.ndarray:
    """1 / (1 + each value's place when sorted from the highest)."""
    order = np.argsort(-values, kind="stable")
    places = np.empty(len(values))
    places[order] = np.arange(len(values))
    return 1.0 / (1.0 + places)


def extra_features(
    question: Question,
    ranked: Sequence[Candidate],
    passages: Sequence[Passage],
    similarity: Similarity,
    base: np.ndarray,
) -> np.ndarray:
    """FEATURES' rows (`base`, one per candidate) with EXTRAS appended."""
    extra = np.zeros((len(ranked), len(EXTRAS)), dtype=np.float32)
    if not ranked:
        return np.hstack([base, extra])
    column = {name: i for i, name in enumerate(EXTRAS)}
    order = {b: n for n, b in enumerate(dict.fromkeys(p.block_id for p in passages))}
    by_id = {p.block_id: p for p in passages}
    used = [by_id[c.block_id] for c in ranked]
    blocks = list(dict.fromkeys(p.block_id for p in used))
    block_sim = similarity(question.text, [by_id[b].text for b in blocks])
    block_sims = dict(
        zip(blocks, block_sim if block_sim is not None else [0.0] * len(blocks), strict=True)
    )
    # each candidate's neighbours in its passage, scored in one call
    sentences = {b: split_sentences(by_id[b].text, by_id[b].kind) for b in blocks}
    flat = [(b, i) for b in blocks for i in range(len(sentences[b]))]
    sims = similarity(question.text, [sentences[b][i] for b, i in flat]) if flat else None
    sentence_sim = {
        (b, i): float(s)
        for (b, i), s in zip(flat, sims if sims is not None else [0.0] * len(flat), strict=True)
    }
    asked = {stem(t) for t in content_terms(question.text)}
    for n, c in enumerate(ranked):
        passage = by_id[c.block_id]
        texts = sentences[c.block_id]
        index = texts.index(c.text) if c.text in texts else -1
        near = [
            sentence_sim.get((c.block_id, i), 0.0) for i in (index - 1, index + 1) if index >= 0
        ]
        words = {stem(t) for t in content_terms(c.text)}
        values = {
            "passage_similarity": float(block_sims[c.block_id]),
            "neighbour_similarity": max(near, default=0.0),
            "numbers": float(min(5, len(_NUMBER.findall(c.text)))),
            "matched": float(len(words & asked)),
            "question_terms": float(len(asked)),
            "passage_order": 1.0 / (1 + order.get(passage.block_id, 0)),
            "last_in_passage": float(index >= 0 and index == len(texts) - 1),
            "expects_name": float(question.expects_name),
            "wants_list": float(question.wants_list),
            f"kind_{question.type}": 1.0,
        }
        for name, value in values.items():
            if name in column:
                extra[n, column[name]] = value
    extra[:, column["similarity_rank"]] = _places(base[:, FEATURES.index("similarity")])
    extra[:, column["own_rank"]] = _places(base[:, FEATURES.index("own")])
    return np.hstack([base, extra])


@dataclass(frozen=True)
class SentenceReader:
    """Boosted regression trees of one depth, stored as flat arrays: for tree t and node k
    (heap order: children of k are 2k+1 and 2k+2), `feature[t, k]` and `threshold[t, k]`
    (go left when the value is at most it); `leaf[t, j]` the log-odds each leaf adds."""

    features: tuple[str, ...]
    depth: int
    feature: np.ndarray  # (trees, 2**depth - 1) int
    threshold: np.ndarray  # (trees, 2**depth - 1)
    leaf: np.ndarray  # (trees, 2**depth)
    bias: float
    # sigmoid(scale * raw + shift): the probability that one candidate holds the answer
    scale: float = 1.0
    shift: float = 0.0

    def raw(self, rows: np.ndarray) -> np.ndarray:
        """The trees' summed log-odds for each row (READER_FEATURES)."""
        rows = np.asarray(rows, dtype=np.float64)
        total = np.full(len(rows), self.bias)
        if rows.size == 0:
            return total
        inner = 2**self.depth - 1
        for t in range(len(self.leaf)):
            node = np.zeros(len(rows), dtype=np.int64)
            for _ in range(self.depth):
                f = self.feature[t, node]
                right = rows[np.arange(len(rows)), f] > self.threshold[t, node]
                node = 2 * node + 1 + right
            total += self.leaf[t, node - inner]
        return total

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """The calibrated log-odds that each candidate holds the answer."""
        return self.scale * self.raw(rows) + self.shift

    def to_dict(self) -> dict[str, object]:
        return {
            "features": list(self.features),
            "depth": self.depth,
            "feature": self.feature.tolist(),
            "threshold": self.threshold.round(6).tolist(),
            "leaf": self.leaf.round(6).tolist(),
            "bias": round(self.bias, 6),
            "scale": round(self.scale, 6),
            "shift": round(self.shift, 6),
        }

    @classmethod
    def from_dict(cls, data: object) -> SentenceReader:
        hint = "refit it: python scripts/fit_sentence_reader.py"
        try:
            assert isinstance(data, dict), "not a JSON object"
            depth = int(data["depth"])
            reader = cls(
                tuple(str(f) for f in data["features"]),
                depth,
                np.asarray(data["feature"], dtype=np.int64).reshape(-1, 2**depth - 1),
                np.asarray(data["threshold"], dtype=np.float64).reshape(-1, 2**depth - 1),
                np.asarray(data["leaf"], dtype=np.float64).reshape(-1, 2**depth),
                float(data["bias"]),
                float(data.get("scale", 1.0)),
                float(data.get("shift", 0.0)),
            )
        except (KeyError, TypeError, ValueError, AssertionError) as exc:
            raise CitewiseError(
                f"the sentence reader's trees are malformed: {exc}",
                code="BAD_READER_WEIGHTS",
                hint=hint,
            ) from exc
        if (
            reader.features != READER_FEATURES
            or not 1 <= depth <= 8
            or len(reader.feature) != len(reader.leaf)
            or len(reader.threshold) != len(reader.leaf)
            or reader.feature.size
            and (reader.feature.min() < 0 or reader.feature.max() >= len(READER_FEATURES))
        ):
            raise CitewiseError(
                "the sentence reader's trees were fitted for other features",
                code="BAD_READER_WEIGHTS",
                hint=hint,
            )
        return reader


def load_reader(text: str) -> SentenceReader:
    """A reader from its JSON text (a clear CitewiseError when it is not one)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CitewiseError(
            f"the sentence reader's file is not JSON: {exc}",
            code="BAD_READER_WEIGHTS",
            hint="refit it: python scripts/fit_sentence_reader.py",
        ) from exc
    return SentenceReader.from_dict(data)
