"""Ranking: BM25 over title + abstract, recency, citations; every score explained."""

from __future__ import annotations

import pytest

from citewise.sources.query import Query
from citewise.sources.record import SearchRecord, make_record
from citewise.sources.search.ranking import WEIGHTS, bm25_scores, rank, recency


def rec(
    title: str,
    abstract: str = "",
    year: int | None = 2020,
    citations: int | None = None,
    key: str = "",
) -> SearchRecord:
    record = make_record(
        "crossref",
        csl_type="article-journal",
        title=title,
        names=[],
        issued=[year] if year else None,
        ids={"doi": f"10.1/{key or title}"},
        abstract=abstract,
        citations=citations,
    )
    return record


def test_bm25_prefers_documents_with_rarer_query_terms() -> None:
    docs = [["graph", "neural"], ["graph", "kernel"], ["protein", "folding"]]
    scores = bm25_scores(["neural", "graph"], docs)
    assert scores[0] > scores[1] > scores[2] == 0


def test_recency_halves_every_eight_years() -> None:
    assert recency(2024, 2024) == 1.0
    assert recency(2016, 2024) == pytest.approx(0.5)
    assert recency(None, 2024) == 0.0


def test_scores_are_explained_and_sorted() -> None:
    records = [
        rec("Protein folding", "unrelated", 2024, 0, "a"),
        rec("Graph neural networks", "graph networks everywhere", 2010, 10, "b"),
        rec("Graph neural networks survey", "graph networks", 2023, 1000, "c"),
    ]
    ranked = rank(records, Query.parse("graph neural networks"), this_year=2024)
    assert [r.key for r in ranked] == ["doi:10.1/c", "doi:10.1/b", "doi:10.1/a"]
    for record in ranked:
        assert set(record.explanation) == set(WEIGHTS)
        assert record.score == pytest.approx(sum(record.explanation.values()))
    assert ranked[0].explanation["citations"] == pytest.approx(WEIGHTS["citations"])
    assert ranked[-1].explanation["bm25"] == 0


def test_ties_break_by_key_for_a_stable_order() -> None:
    records = [rec("same", key="z"), rec("same", key="a")]
    assert [r.key for r in rank(records, Query.parse("same"), 2024)] == ["doi:10.1/a", "doi:10.1/z"]
