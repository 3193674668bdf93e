"""What the answer scorer knows of a candidate sentence, as one row of numbers.

A candidate (agent/sentences/extractive.py) already carries how much of the question it covers; this
adds what tells an answer from a sentence that only restates the question: how close it is
in meaning (the library's embedding model), whether it has the shape asked for, what it
writes that the question does not (a name, a number, new words), which part of the paper it
sits in, and where in its paragraph. agent/ask/scorer.py turns a row into a probability.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import yaml

from citewise.agent.ask.question import Question
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sentences.extractive import Candidate, Passage, split_sentences
from citewise.agent.sourced_lists import sourced_lists
from citewise.retrieval.terms import content_terms, stem

Similarity = Callable[[str, list[str]], "np.ndarray | None"]


@lru_cache(maxsize=1)
def first_person() -> frozenset[str]:
    """The first-person words (agent/data/answer_features.txt)."""
    lists = sourced_lists(
        shipped_text("answer_features.txt"), "answer_features.txt", ["first_person"]
    )
    return frozenset(lists["first_person"])


# A reference marker: "[12]", "(Smith et al., 2020)", a converted "BIBREF3".
_CITES = re.compile(
    r"\[\d+(?:[,\u2013-]\s*\d+)*\]|\bet al\b|\bBIBREF\d+|\(\w+,? (?:19|20)\d\d\w?\)"
)
_WORDS = re.compile(r"[a-z]+")


def _title_like(text: str) -> bool:
    """A short line without a closing stop: a heading, not a statement."""
    return len(text.split()) <= 8 and not text.rstrip().endswith((".", "!", "?", ":"))


@lru_cache(maxsize=1)
def section_roles() -> dict[str, frozenset[str]]:
    """Role -> heading words (agent/data/section_roles.yaml)."""
    text = shipped_text("section_roles.yaml")
    return {role: frozenset(words) for role, words in yaml.safe_load(text).items()}


ROLES = ("abstract", "introduction", "related", "method", "data", "results", "conclusion",
         "captions")  # fmt: skip

FEATURES = (
    "coverage",  # weighted share of question terms, the sentence's context counted in part
    "own",  # the same, the sentence's own words only
    "attribute",  # share of what is asked about ("mean age") that the sentence names
    "retrieval",  # its passage's retrieval strength (best = 1)
    "is_context",  # a neighbour of a retrieved block, not retrieved itself
    "heuristic",  # the term-coverage score the candidates were first ranked by
    "rank",  # 1 / (1 + its place in that ranking)
    "similarity",  # cosine of the question and the sentence (embedding model)
    "similarity_gap",  # how far below the best candidate's similarity
    "type_fit",  # holds the shape the question needs (a number, a date, a name, ...)
    "new_name",  # writes a name or a number the question does not
    "new_words",  # share of its content words the question does not have
    "echo",  # share of the question's words it repeats in a row of two or more
    "log_words",
    "sentence_index",  # 0 for a paragraph's first sentence, 1 for the next, ...
    "is_table",
    "is_heading",  # a heading or a title-like line (no verb, no closing stop)
    "first_person",  # the authors speak ("we train", "our dataset"): what they did
    "cites",  # cites other work (a reference marker, "et al."): what others did
    *(f"section_{r}" for r in ROLES),
)


@dataclass(frozen=True)
class Shape:
    """Answer-shape tests the features use (they live in agent/sentences/draft.py)."""

    type_fit: Callable[[Question, str], float]
    new_name: Callable[[Question, str], bool]


def section_role(path: str) -> str | None:
    """The role of the innermost heading of a section path that has one."""
    roles = section_roles()
    for part in reversed([p for p in path.split(" > ") if p][1:] or path.split(" > ")):
        words = {w.lower() for w in content_terms(part)}
        for role in ROLES:
            if words & roles.get(role, frozenset()):
                return role
    return None


def _bigrams(words: list[str]) -> set[tuple[str, str]]:
    return set(zip(words, words[1:], strict=False))


def candidate_features(
    question: Question,
    ranked: Sequence[Candidate],
    passages: dict[str, Passage],
    similarity: Similarity,
    shape: Shape,
) -> np.ndarray:
    """One row of FEATURES per candidate (in the order given)."""
    rows = np.zeros((len(ranked), len(FEATURES)), dtype=np.float32)
    if not ranked:
        return rows
    sims = similarity(question.text, [c.text for c in ranked])
    if sims is None:
        sims = np.zeros(len(ranked), dtype=np.float32)
    best_sim = float(np.max(sims))
    asked = {stem(t) for t in content_terms(question.text)}
    asked_pairs = _bigrams([stem(t) for t in content_terms(question.text)])
    sentence_index: dict[tuple[str, str], int] = {}
    column = {name: i for i, name in enumerate(FEATURES)}
    for n, c in enumerate(ranked):
        passage = passages[c.block_id]
        if (c.block_id, c.text) not in sentence_index:
            for i, s in enumerate(split_sentences(passage.text, passage.kind)):
                sentence_index.setdefault((c.block_id, s), i)
        words = [stem(t) for t in content_terms(c.text)]
        own = set(words)
        role = section_role(passage.section_path)
        values = {
            "coverage": c.coverage,
            "own": c.own,
            "attribute": c.attribute,
            "retrieval": passage.retrieval,
            "is_context": float(passage.is_context),
            "heuristic": c.score,
            "rank": 1.0 / (1 + n),
            "similarity": float(sims[n]),
            "similarity_gap": best_sim - float(sims[n]),
            "type_fit": shape.type_fit(question, c.text),
            "new_name": float(shape.new_name(question, c.text)),
            "new_words": len(own - asked) / len(own) if own else 0.0,
            "echo": len(_bigrams(words) & asked_pairs) / max(1, len(asked_pairs)),
            "log_words": math.log1p(len(c.text.split())),
            "sentence_index": min(5, sentence_index.get((c.block_id, c.text), 0)),
            "is_table": float(passage.kind == "table"),
            "is_heading": float(
                passage.kind == "heading" or (passage.kind != "table" and _title_like(c.text))
            ),
            "first_person": float(bool(set(_WORDS.findall(c.text.lower())) & first_person())),
            "cites": float(bool(_CITES.search(c.text))),
        }
        if role is not None:
            values[f"section_{role}"] = 1.0
        for name, value in values.items():
            rows[n, column[name]] = value
    return rows
