"""A model-written Chinese answer over English papers, every sentence still verified against
the English evidence it cites (issue 19, the `write` role).

The flow is the generated path's (agent/generation/generate.py): the extractive answerer retrieves
and
decides refusal on the question's English bridge; the model sees the English passages as
[E1..En] and is asked to answer in Chinese. Each Chinese sentence then passes a cross-
lingual check against its cited English quotes: every number it states and every name or
acronym it writes in Latin letters must be in them, and its Chinese content words must be
covered by them through one of their dictionary senses (or be the question's own words),
at least one of them from the evidence. What fails is repaired once or dropped; the quotes
shown as evidence stay the papers' own English words, never a translation.
"""

from __future__ import annotations

import re

from citewise.agent.generation.verify import Verdict, Verifier, unsupported_numbers
from citewise.lang.zh import HAN_CHAR, is_chinese, segment, word_senses
from citewise.lang.zh_words import QUESTION_WORDS, STOPWORDS
from citewise.retrieval.terms import content_terms, stem

# Said to the model after the Chinese question (and removed again before verification).
INSTRUCTION = (
    "(Answer in Simplified Chinese. Write names, acronyms, numbers and units exactly as the "
    "evidence writes them.)"
)
_QUESTION_WORDS = dict(QUESTION_WORDS)
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9\-]*[A-Za-z0-9]|[A-Za-z]")


def chinese_words(text: str) -> list[str]:
    """The content words of a Chinese text (no particles, measure or question words)."""
    return [
        w
        for w in segment(text)
        if HAN_CHAR.search(w) and w not in STOPWORDS and w not in _QUESTION_WORDS and len(w) > 1
    ]


class CrossLingualVerifier(Verifier):
    """A Chinese sentence checked against English quotes; any other sentence is checked by
    the wrapped verifier as before."""

    def __init__(self, inner: Verifier) -> None:
        super().__init__(inner.embedder, inner.judge, inner.threshold)
        self.inner = inner

    def check(self, sentence: str, cited: list[str], question: str = "") -> Verdict:
        question = question.replace(INSTRUCTION, "").strip()
        if not is_chinese(sentence):
            return self.inner.check(sentence, cited, question)
        if not cited:
            return Verdict(False, 0.0, "it cites no evidence")
        joined = "\n".join(cited)
        missing = unsupported_numbers(sentence, joined, question)
        if missing:
            return Verdict(False, 0.0, f"it states {', '.join(missing)}, not in the cited evidence")
        quoted = {stem(t) for t in content_terms(joined)}
        names = [n for n in _LATIN.findall(sentence) if content_terms(n)]
        absent = [n for n in names if not {stem(t) for t in content_terms(n)} <= quoted]
        if absent:
            return Verdict(False, 0.0, f"it names {', '.join(absent)}, not in the cited evidence")
        asked = set(chinese_words(question))
        words = chinese_words(sentence)
        found = [w for w in words if _covered(w, quoted)]
        from_evidence = len(found) + len(names)
        covered = len(found) + sum(1 for w in words if w not in found and w in asked)
        support = round(covered / len(words), 3) if words else (1.0 if names else 0.0)
        if from_evidence == 0 or support < self.threshold:
            return Verdict(
                False, support, f"the cited evidence does not say this (support {support:.2f})"
            )
        return Verdict(True, support)


def _covered(word: str, quoted: set[str]) -> bool:
    """Whether one of the word's English senses is written (all its words) in the quotes."""
    for sense in word_senses(word):
        terms = {stem(t) for t in content_terms(sense)}
        if terms and terms <= quoted:
            return True
    return False
