"""Pure ranking functions: score fusion (convex and reciprocal-rank) and maximal marginal
relevance."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[int]], k: int = 60, weights: Sequence[float] | None = None
) -> dict[int, float]:
    """Fuse ranked lists of IDs: each list adds weight / (k + rank) to its members."""
    fused: dict[int, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if weights else 1.0
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return fused


def convex_fusion(scored: Sequence[dict[int, float]], weights: Sequence[float]) -> dict[int, float]:
    """Fuse scored lists of IDs: each list's scores are min-max normalized to 0..1 and
    weighted; an ID a list missed gets nothing from it.

    Unlike rank fusion, a strong keyword match stays ahead of blocks both retrievers
    rank only moderately (score fusion of normalized scores beats RRF in Bruch et al.,
    "An Analysis of Fusion Functions for Hybrid Retrieval", 2023).
    """
    fused: dict[int, float] = {}
    for scores, weight in zip(scored, weights, strict=True):
        if not scores:
            continue
        low, high = min(scores.values()), max(scores.values())
        for item, score in scores.items():
            # All equal (or just one): each is that list's best.
            share = (score - low) / (high - low) if high > low else 1.0
            fused[item] = fused.get(item, 0.0) + weight * share
    return fused


def mmr(
    candidates: Sequence[int],
    relevance: Sequence[float],
    vectors: np.ndarray | None,
    k: int,
    diversity: float = 0.3,
) -> list[int]:
    """Pick k candidates trading relevance against similarity to those already picked.

    `vectors[i]` is candidate i's normalized vector; without vectors, relevance order is kept.
    Returns positions into `candidates`.
    """
    n = len(candidates)
    if vectors is None or n <= 1:
        return sorted(range(n), key=lambda i: -relevance[i])[:k]
    rel = np.asarray(relevance, dtype=np.float64)
    rel = (rel - rel.min()) / (rel.max() - rel.min() or 1.0)
    similarity = vectors @ vectors.T
    chosen: list[int] = []
    remaining = list(range(n))
    while remaining and len(chosen) < k:
        if chosen:
            redundancy = similarity[np.ix_(remaining, chosen)].max(axis=1)
        else:
            redundancy = np.zeros(len(remaining))
        scores = (1 - diversity) * rel[remaining] - diversity * redundancy
        best = remaining[int(np.argmax(scores))]
        chosen.append(best)
        remaining.remove(best)
    return chosen
