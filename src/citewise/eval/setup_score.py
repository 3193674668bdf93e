"""Score an extracted setup against a gold file (tests/agent/gold/*.yaml).

Precision: share of extracted values that match an expected or acceptable gold value of
their aspect (a value under an aspect the gold leaves out is wrong). Recall: share of
expected gold items matched by some extracted value of their aspect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_NON_WORD = re.compile(r"[^0-9a-z%]+")


def _norm(text: str) -> str:
    return _NON_WORD.sub("", text.lower())


def matches(value: str, gold: str) -> bool:
    """Same text up to case and punctuation, or one contains the other."""
    v, g = _norm(value), _norm(gold)
    return bool(v) and bool(g) and (g in v or v in g)


@dataclass
class SetupScore:
    true_positives: int = 0
    extracted: int = 0
    found: int = 0
    expected: int = 0
    wrong: list[tuple[str, str]] = field(default_factory=list)
    missed: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.true_positives / self.extracted if self.extracted else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    def add(self, other: SetupScore) -> SetupScore:
        return SetupScore(
            self.true_positives + other.true_positives,
            self.extracted + other.extracted,
            self.found + other.found,
            self.expected + other.expected,
            self.wrong + other.wrong,
            self.missed + other.missed,
        )


def score_setup(values: dict[str, list[str]], gold: dict[str, dict[str, Any]]) -> SetupScore:
    """`values`: aspect -> extracted values; `gold`: the gold file's `aspects` mapping."""
    score = SetupScore()
    for aspect, extracted in values.items():
        entry = gold.get(aspect) or {}
        expected = [list(map(str, item)) for item in entry.get("expected") or []]
        allowed = [f for item in expected for f in item]
        allowed += [str(a) for a in entry.get("acceptable") or []]
        for value in extracted:
            score.extracted += 1
            if any(matches(value, a) for a in allowed):
                score.true_positives += 1
            else:
                score.wrong.append((aspect, value))
    for aspect, entry in gold.items():
        for item in (entry or {}).get("expected") or []:
            score.expected += 1
            forms = list(map(str, item))
            if any(matches(v, f) for v in values.get(aspect, []) for f in forms):
                score.found += 1
            else:
                score.missed.append((aspect, forms))
    return score
