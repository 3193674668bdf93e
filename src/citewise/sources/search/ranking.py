"""An explainable score for search results: BM25 of the query over title + abstract,
recency and citations, each weighted and reported in `SearchRecord.explanation`."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date

from citewise.sources.query import Query
from citewise.sources.record import SearchRecord

WEIGHTS = {"bm25": 0.6, "recency": 0.2, "citations": 0.2}
K1 = 1.2
B = 0.75
HALF_LIFE_YEARS = 8.0
STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it of on or that the their this to with".split()
)
_WORD = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def bm25_scores(query_terms: list[str], documents: list[list[str]]) -> list[float]:
    """Okapi BM25 of each tokenized document, with IDF taken from these documents."""
    n = len(documents)
    if n == 0 or not query_terms:
        return [0.0] * n
    average = sum(len(d) for d in documents) / n or 1.0
    frequency = Counter(t for d in documents for t in set(d))
    scores = []
    for doc in documents:
        counts = Counter(doc)
        score = 0.0
        for term in query_terms:
            tf = counts.get(term, 0)
            if not tf:
                continue
            idf = math.log(1 + (n - frequency[term] + 0.5) / (frequency[term] + 0.5))
            score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len(doc) / average))
        scores.append(score)
    return scores


def recency(year: int | None, this_year: int) -> float:
    """1 for this year's work, halving every HALF_LIFE_YEARS; 0 when the year is unknown."""
    if not year:
        return 0.0
    return float(0.5 ** (max(0, this_year - year) / HALF_LIFE_YEARS))


def rank(
    records: list[SearchRecord], query: Query, this_year: int | None = None
) -> list[SearchRecord]:
    """The records scored and sorted best first (ties by key, so the order is stable)."""
    if not records:
        return []
    this_year = this_year or date.today().year
    terms = list(dict.fromkeys(t for t in tokens(query.text)))
    # The title counts twice: a word in the title says more than one in the abstract.
    documents = [tokens(f"{r.title} {r.title} {r.abstract}") for r in records]
    relevance = bm25_scores(terms, documents)
    best = max(relevance) or 1.0
    most_cited = max((r.citations or 0 for r in records), default=0)
    for record, raw in zip(records, relevance, strict=True):
        cited = math.log1p(record.citations or 0) / math.log1p(most_cited) if most_cited else 0.0
        parts = {
            "bm25": WEIGHTS["bm25"] * raw / best,
            "recency": WEIGHTS["recency"] * recency(record.year, this_year),
            "citations": WEIGHTS["citations"] * cited,
        }
        record.explanation = parts
        record.score = sum(parts.values())
    return sorted(records, key=lambda r: (-r.score, r.key))
