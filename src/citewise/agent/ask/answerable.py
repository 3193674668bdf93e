"""Whether the paper states what is asked: signals of the question's focus and its filler, and
the fitted probability that the question is answerable from the paper.

Being about a question's topic is not answering it: a paper on grading fruit that never says
how many apples were graded writes "apples" and "graded" in many sentences, but no sentence
puts a number next to "apples". The signals read the retrieved passages:

- `stated`: the best in-paper weighted coverage of the question's terms by one sentence that
  names the question's focus (what is asked about, else its rarest terms) and holds a filler
  of the asked type within a few words of it: a number for a quantity question, a name the
  question does not write (a capitalised word or acronym) for "which/what X", anything else
  for other questions. Sentences that cite other work or sit in a related-work section count
  only in `stated_cited`, not here: they state others' findings.
- `unwritten`: the in-paper weighted share of the question's terms the paper never writes.
- `paper_blocks`: log1p of the number of blocks of the largest paper searched: the more
  places an answer could hide, the less a well-covering sentence is a sure answer (a
  one-page report against a forty-page paper).

P(answerable) (`AnswerableModel.probability`) combines them with the draft's own signals
(agent/ask/refusal.py's answered coverage, how much the retrieved passages are about the
question) in a logistic model whose weights are data (`agent/data/answerable.json`, written
by scripts/fit_answerable.py from a pool's answerable and unanswerable questions); below its
fitted threshold the refusal decision refuses as not answered. The threshold is searched
held out, on top of the pipeline's own refusals, within a false-refusal cap; refit on the
merged code it is 0.21, which refuses nothing the answered-share rule does not already refuse
on either QASPER half (docs/benchmarks.md: the signals order questions at AUC 0.70-0.74, too
weak to refuse more without refusing answerable ones; `scripts/fit_answerable.py --check`
measures a candidate signal held out).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from citewise.agent.ask.features import section_role
from citewise.agent.ask.question import Question, focus_sentence
from citewise.agent.ask.scorer import sigmoid
from citewise.agent.fitted_data import FittedFile, InUse
from citewise.agent.sentences.extractive import split_sentences
from citewise.retrieval.terms import stem, tokens
from citewise.store.rows import StoredBlock

STATED = "stated"
STATED_CITED = "stated_cited"
UNWRITTEN = "unwritten"
PAPER_BLOCKS = "paper_blocks"
WEIGHTS_FILE = "answerable.json"
WEIGHTS = FittedFile(
    WEIGHTS_FILE,
    "the answerability weights are malformed",
    code="BAD_ANSWERABLE_WEIGHTS",
    hint="refit them: python scripts/fit_answerable.py",
)

# How many words either side of a focus term a filler may stand.
NEAR = 8
# A citation mark in rendered text ("[12]", "BIBREF3", "(Smith et al., 2019)"): cites others.
_CITATION = re.compile(r"\[\d+(?:[,\u2013-]\s*\d+)*\]|\bBIBREF\d+|\bet al\.", re.IGNORECASE)
# Placeholders some renderings leave for references, formulas and cross-references: not fillers.
_PLACEHOLDER = re.compile(r"\b[A-Z]{3,}REF\d+\b|\b(?:INLINE|DISPLAY)FORM\d+\b|\bUID\d+\b")
_WORD = re.compile(r"[A-Za-z][\w\-]*|\d[\d,.]*%?")
_HOW = re.compile(r"\bhow\s+(\w+)", re.IGNORECASE)

Counts = dict[str, tuple[int, dict[str, int]]]


def focus_terms(question: Question, weight: dict[str, float]) -> list[str]:
    """Stems of what the question asks about: its attribute ("which *languages*"), else its
    two rarest terms in the paper. The word after "how" ("how *long*") says the type of
    answer, not what about, so it is left out."""
    shape = {stem(m.group(1).lower()) for m in _HOW.finditer(focus_sentence(question.text))}
    focus = [s for s in dict.fromkeys(stem(t) for t in question.attribute) if s not in shape]
    if not focus:
        ranked = sorted((s for s in weight if s not in shape), key=lambda s: -weight[s])
        focus = ranked[:2]
    return focus


def _filler(question: Question, words: list[str], stems: list[str], near: set[int]) -> bool:
    """Whether a word of the asked type stands at one of the `near` positions."""
    if question.expects_number:
        return any(words[i][0].isdigit() for i in near)
    if question.attribute:  # "which/what X": a name the question does not write
        asked = {stem(t) for t in tokens(question.text)}
        return any(
            i > 0
            and (words[i][0].isupper() or (words[i].isupper() and len(words[i]) > 1))
            and stems[i] not in asked
            for i in near
        )
    return True


def in_paper_weights(question: Question, counts: Counts) -> tuple[dict[str, float], float]:
    """(per question term stem its inverse frequency among the blocks of the paper that writes
    it most, the share of that weight on terms no paper writes). `counts` are the papers'
    block counts of `question.terms` (the retriever's `document_term_counts`)."""
    found = list(counts.values()) or [(0, {})]
    weight: dict[str, float] = {}
    never = 0.0
    for term in dict.fromkeys(question.terms):
        most = max(freqs.get(term, 0) for _, freqs in found)
        total = max(t for t, _ in found)
        value = math.log((total + 1) / (most + 1))
        key = stem(term)
        if key not in weight:
            weight[key] = value
            never += value if most == 0 else 0.0
    whole = sum(weight.values())
    return weight, (never / whole if whole > 0 else 0.0)


@lru_cache(maxsize=4096)
def _reviews_others(section_path: str) -> bool:
    """Whether the section is related work (agent/data/section_roles.yaml)."""
    return section_role(section_path) == "related"


def stated(
    question: Question, blocks: Iterable[StoredBlock], weight: dict[str, float]
) -> tuple[float, float]:
    """(`stated`, `stated_cited`): the best weighted coverage of the question's terms by a
    sentence naming its focus with a filler of the asked type near it, among the paper's own
    statements and among sentences that cite or review others' work."""
    total = sum(weight.values())
    if total <= 0:
        return 0.0, 0.0
    focus = set(focus_terms(question, weight))
    own = cited = 0.0
    for block in blocks:
        if block.kind == "heading":
            continue
        reviewed = _reviews_others(block.section_path or "")
        for sentence in split_sentences(block.text, block.kind):
            words = _WORD.findall(_PLACEHOLDER.sub(" ", sentence))
            stems = [stem(w.lower()) for w in words]
            at = [i for i, s in enumerate(stems) if s in focus]
            if not at:
                continue
            near = {j for i in at for j in range(max(0, i - NEAR), min(len(words), i + NEAR + 1))}
            if not _filler(question, words, stems, near):
                continue
            present = set(stems)
            coverage = sum(w for t, w in weight.items() if t in present) / total
            if reviewed or _CITATION.search(sentence):
                cited = max(cited, coverage)
            else:
                own = max(own, coverage)
    return round(own, 4), round(cited, 4)


def answerable_signals(
    question: Question, blocks: Iterable[StoredBlock], counts: Counts
) -> dict[str, float]:
    """`stated`, `stated_cited`, `unwritten` and `paper_blocks` of a draft read from
    `blocks` of the papers whose term counts are `counts`."""
    weight, unwritten = in_paper_weights(question, counts)
    own, cited = stated(question, blocks, weight)
    size = max((total for total, _ in counts.values()), default=0)
    return {
        STATED: own,
        STATED_CITED: cited,
        UNWRITTEN: round(unwritten, 4),
        PAPER_BLOCKS: round(math.log1p(size), 4),
    }


@dataclass(frozen=True)
class AnswerableModel:
    """P(answerable) = sigmoid(weights . (signals - mean) / scale + bias); below
    `threshold` the question is refused as not answered."""

    signals: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float

    def probability(self, signals: dict[str, float]) -> float:
        """The probability that the paper answers the question, from a draft's signals (a
        missing one reads as its mean over the fitted drafts)."""
        x = np.asarray(
            [signals.get(n, float(m)) for n, m in zip(self.signals, self.mean, strict=True)]
        )
        return sigmoid(float(((x - self.mean) / self.scale) @ self.weights) + self.bias)

    def to_dict(self) -> dict[str, object]:
        return {
            "signals": list(self.signals),
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "weights": self.weights.round(6).tolist(),
            "bias": round(self.bias, 6),
            "threshold": round(self.threshold, 4),
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> AnswerableModel:
        with WEIGHTS.parsing():
            model = cls(
                tuple(str(s) for s in data["signals"]),  # type: ignore[attr-defined]  # a list in the file
                np.asarray(data["mean"], dtype=np.float64),
                np.asarray(data["scale"], dtype=np.float64),
                np.asarray(data["weights"], dtype=np.float64),
                float(data["bias"]),  # type: ignore[arg-type]  # a number in the file
                float(data["threshold"]),  # type: ignore[arg-type]  # a number in the file
            )
        if not len(model.signals) == len(model.mean) == len(model.scale) == len(model.weights):
            raise WEIGHTS.mismatch("the answerability weights do not match their signals")
        return model


@lru_cache(maxsize=1)
def shipped_model() -> AnswerableModel:
    """The shipped model (read once)."""
    return AnswerableModel.from_dict(WEIGHTS.read())


_IN_USE = InUse[AnswerableModel | None](shipped_model)


def answerable_model() -> AnswerableModel | None:
    """The model refusals read: the shipped one, unless a fitting script has put another (or
    none) in use (`answerable_in_use`)."""
    return _IN_USE.current()


def answerable_in_use(
    model: AnswerableModel | None,
) -> AbstractContextManager[AnswerableModel | None]:
    """Refuse by `model` inside the block; None: no refusal by answerability
    (scripts/fit_answerable.py asks its questions so, to fit the model)."""
    return _IN_USE.holding(model)


def unanswerable(signals: dict[str, float]) -> bool:
    """Whether the fitted probability that the paper answers the question falls below the
    fitted threshold (False for a draft not measured by this module)."""
    model = answerable_model()
    if model is None or STATED not in signals:
        return False
    return model.probability(signals) < model.threshold
