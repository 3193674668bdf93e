"""Whether the paper answers what was asked at all, as two signals of the drafted answer.

A paper can be about a question's topic and still not answer it ("how many GPUs did they
use" of a paper that never says): the drafted sentence then covers the question's common
words but nothing states the answer. Two measures of that, read by the calibrated support
(agent/ask/scorer.py) and so by the one refusal threshold (agent/ask/refusal.py):

- `closest`: how close in meaning the retrieved passages' best sentence comes to the
  question (the library's embedding model; not given without one);
- `rarest`: how many of the paper's blocks write the question's rarest term (log1p): a
  term the paper never writes ("GPUs", "Chinese") means what is asked about is not in it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

import numpy as np

from citewise.agent.ask.answerable import answerable_signals
from citewise.agent.ask.question import Question, focus_sentence
from citewise.agent.sentences.extractive import split_sentences
from citewise.retrieval.terms import stem
from citewise.store.rows import StoredBlock

# The signals this module adds to a draft's (their names in `signals`).
CLOSEST = "closest"
RAREST = "rarest"

Similarity = Callable[[str, list[str]], "np.ndarray | None"]
TermCounts = Callable[[list[str], list[str]], dict[str, tuple[int, dict[str, int]]]]


def closest(
    question: Question, blocks: Iterable[StoredBlock], similarity: Similarity
) -> float | None:
    """The best cosine between the question's asking sentence and a prose sentence of the
    blocks: 0 with no sentence, None without an embedding model (not measured, so the
    calibration reads its mean instead)."""
    prose = [b for b in blocks if b.kind not in ("table", "heading")]
    sentences = [s for b in prose for s in split_sentences(b.text, b.kind)]
    if not sentences:
        return 0.0
    sims = similarity(focus_sentence(question.text), sentences)
    return None if sims is None else round(float(np.max(sims)), 4)


def rarest(question: Question, documents: list[str], counts: TermCounts) -> float:
    """log1p of the number of blocks that write the question's rarest content term (each
    term counted in the paper that writes it most); 0 when a term is never written. A term
    the library's vocabulary bridges to another form ("lr" for "learning rate") is left out."""
    terms = [t for t in question.terms if stem(t) not in question.aliases]
    if not terms or not documents:
        return 0.0
    return _rarest(terms, counts(terms, documents))


def _rarest(terms: list[str], counted: dict[str, tuple[int, dict[str, int]]]) -> float:
    found = counted.values()
    fewest = min(max((freqs.get(t, 0) for _, freqs in found), default=0) for t in terms)
    return round(math.log1p(fewest), 4)


def asked_signals(
    question: Question,
    blocks: dict[str, StoredBlock],
    documents: list[str],
    similarity: Similarity,
    counts: TermCounts,
) -> dict[str, float]:
    """The signals above for a draft read from `blocks` of `documents` (`closest` left out
    when the library has no embedding model), and whether the paper states what is asked
    (agent/ask/answerable.py)."""
    counted = counts(list(question.terms), documents) if question.terms and documents else {}
    terms = [t for t in question.terms if stem(t) not in question.aliases]
    signals = {RAREST: _rarest(terms, counted) if terms and counted else 0.0}
    signals.update(answerable_signals(question, blocks.values(), counted))
    best = closest(question, blocks.values(), similarity)
    if best is not None:
        signals[CLOSEST] = best
    return signals
