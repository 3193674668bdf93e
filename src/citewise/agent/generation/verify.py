"""Is a generated sentence supported by the evidence it cites?

Plain code first: every number the sentence states must appear in its cited text, and its
content words must be covered by it (a lead "Yes." / "No." is checked as the lead of the
rest, never alone); embedding similarity adds a check on meaning; an
optional `judge` model has the last word on sentences the code lets through. Sentences of
the cited text addressed to an assistant (agent/ask/injection.py) are no support.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel

from citewise.agent.ask.injection import without_instructions
from citewise.agent.numeric.numbers import spelled, unsupported, values
from citewise.embed.base import Embedder
from citewise.llm.base import ModelError, Params
from citewise.llm.client import ModelClient
from citewise.llm.structured import structured_call
from citewise.retrieval.terms import content_terms, stem

log = logging.getLogger(__name__)

# A sentence needs this much support (0..1) to stand; calibrated on verbatim and
# paraphrased sentences against their source blocks (see tests/agent/generation/test_verify.py).
SUPPORT_THRESHOLD = 0.5
COVERAGE_WEIGHT = 0.6


def numbers(text: str) -> set[float]:
    """The values of the numbers a text states, in digits or as words ("three" = 3)."""
    return values(text)


def unsupported_numbers(sentence: str, cited: str, question: str = "") -> list[str]:
    """Numbers the sentence states that neither its cited text nor the question contains
    (the one rule of agent/numeric/numbers.py: a share may be given as a fraction and back)."""
    return sorted(
        dict.fromkeys(spelled(abs(n.value)) for n in unsupported(sentence, cited, question))
    )


def content_coverage(sentence: str, cited: str, question: str = "") -> float:
    """Share of the sentence's content words found in its cited text (or the question)."""
    words = {stem(t) for t in content_terms(sentence) if not t.replace(".", "").isdigit()}
    if not words:
        return 0.0
    source = {stem(t) for t in content_terms(f"{cited} {question}")}
    return len(words & source) / len(words)


# "Yes." / "No." may open a sentence only as the lead of what it goes on to say.
_LEAD = re.compile(r"^\s*(yes|no)\s*[.,;:!]\s*", re.IGNORECASE)


def lead_word(sentence: str) -> tuple[str, str]:
    """("Yes", the rest) for "Yes. X ..."; ("", the sentence) when it has no lead word."""
    match = _LEAD.match(sentence)
    if not match:
        return "", sentence
    return match.group(1).capitalize(), sentence[match.end() :]


@dataclass
class Verdict:
    supported: bool
    support: float  # 0..1
    reason: str = ""  # why not, in words the model can act on in a repair round


class JudgeVerdict(BaseModel):
    supported: bool
    reason: str


JUDGE_PROMPT = (
    "You check whether a sentence is fully supported by the evidence. Reply with JSON "
    '{"supported": true|false, "reason": "..."}.'
)


class Verifier:
    """Scores sentences against cited evidence; `embedder` and `judge` are optional."""

    def __init__(
        self,
        embedder: Embedder | None = None,
        judge: ModelClient | None = None,
        threshold: float = SUPPORT_THRESHOLD,
    ) -> None:
        self.embedder = embedder
        self.judge = judge
        self.threshold = threshold

    def similarity(self, sentence: str, cited: list[str]) -> float | None:
        if self.embedder is None or not cited:
            return None
        vectors = self.embedder.encode([sentence, *cited])
        return float(np.max(vectors[1:] @ vectors[0]))

    def check(self, sentence: str, cited: list[str], question: str = "") -> Verdict:
        """Verdict for one sentence given the texts it cites (empty: it cites nothing)."""
        if not cited:
            return Verdict(False, 0.0, "it cites no evidence")
        # a sentence addressed to an assistant states nothing: it supports nothing
        cited = [kept for kept, _ in map(without_instructions, cited) if kept.strip()]
        if not cited:
            return Verdict(False, 0.0, "it cites only instructions addressed to a model")
        lead, claim = lead_word(sentence)
        if lead and not content_terms(claim):
            return Verdict(False, 0.0, f'a bare "{lead}": it must lead what the evidence says')
        joined = "\n".join(cited)
        missing = unsupported_numbers(claim, joined, question)
        if missing:
            return Verdict(False, 0.0, f"it states {', '.join(missing)}, not in the cited evidence")
        coverage = content_coverage(claim, joined, question)
        similarity = self.similarity(claim, cited)
        support = (
            coverage
            if similarity is None
            else COVERAGE_WEIGHT * coverage + (1 - COVERAGE_WEIGHT) * max(similarity, 0.0)
        )
        support = round(support, 3)
        if support < self.threshold:
            return Verdict(
                False, support, f"the cited evidence does not say this (support {support:.2f})"
            )
        if self.judge is not None:
            return self._judged(sentence, joined, support)
        return Verdict(True, support)

    def _judged(self, sentence: str, cited: str, support: float) -> Verdict:
        messages = [
            {"role": "system", "content": JUDGE_PROMPT},
            {"role": "user", "content": f"Evidence:\n{cited}\n\nSentence: {sentence}"},
        ]
        assert self.judge is not None
        try:
            result = structured_call(self.judge, messages, JudgeVerdict, Params(max_tokens=96))
        except ModelError as exc:  # an unavailable judge leaves the code's verdict standing
            log.warning("judge unavailable: %s", exc)
            return Verdict(True, support)
        if result.value is None or result.value.supported:
            return Verdict(True, support)
        return Verdict(False, support, f"a judge found it unsupported: {result.value.reason}")
