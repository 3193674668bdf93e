"""Claims across papers grouped by what they say: two papers' sentences that share most of
their content words (stemmed, the topic's own words aside) make one claim, written once and
attributed to both. Pure functions."""

from __future__ import annotations

import re

from citewise.agent.research.model import EvidenceItem
from citewise.retrieval.terms import content_terms, stem

SAME_CLAIM = 0.5  # Jaccard overlap of content stems at which two sentences make one claim
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|without|none)\b|n't\b", re.I)


def compatible(a: str, b: str) -> bool:
    """Whether two sentences can be one claim: the same numbers and both or neither negated
    ("71.2%" and "93.4%", or "reduced" and "did not reduce", are a disagreement, not one
    claim)."""
    same_numbers = set(_NUMBER.findall(a)) == set(_NUMBER.findall(b))
    return same_numbers and bool(_NEGATION.search(a)) == bool(_NEGATION.search(b))


def claim_stems(text: str, topic: set[str]) -> set[str]:
    """The content stems a sentence's claim rests on (the topic's words say nothing here)."""
    return {stem(t) for t in content_terms(text) if not t.isdigit()} - topic


def overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def cluster_claims(
    items: list[EvidenceItem], topic: set[str], threshold: float = SAME_CLAIM
) -> list[list[EvidenceItem]]:
    """Items grouped by claim, in the order of each group's first item: an item joins the
    first group whose first item it overlaps enough, states the same numbers with the same
    polarity, and whose papers do not include its own."""
    groups: list[tuple[set[str], list[EvidenceItem]]] = []
    for item in items:
        stems = claim_stems(item.quote, topic)
        for head, members in groups:
            if item.paper in {m.paper for m in members} or overlap(stems, head) < threshold:
                continue
            if compatible(item.quote, members[0].quote):
                members.append(item)
                break
        else:
            groups.append((stems, [item]))
    return [members for _, members in groups]
