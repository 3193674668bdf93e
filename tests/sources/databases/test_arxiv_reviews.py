"""A search for reviews asks arXiv for surveys by title words instead of skipping it
(issue 35): arXiv has no review type, but its surveys name themselves in their titles."""

from __future__ import annotations

from dataclasses import replace

from citewise.sources.config import SourcesConfig
from citewise.sources.databases.arxiv import ArxivSource, translate
from citewise.sources.query import Query


def _arxiv() -> ArxivSource:
    return ArxivSource(SourcesConfig.load(env={}).settings("arxiv"))


def test_a_review_search_asks_arxiv_for_survey_titles() -> None:
    source = _arxiv()
    words = tuple(source.settings.review_title_words)
    assert words  # sources.yaml names them
    reviews = replace(Query.parse("graph neural networks"), types=frozenset({"review"}))
    assert source.skip_reason(reviews) is None
    asked = translate(reviews, 10, words)["search_query"]
    assert (
        asked
        == "all:graph AND all:neural AND all:networks AND (ti:survey OR ti:review OR ti:overview)"
    )


def test_other_searches_are_asked_as_before() -> None:
    source = _arxiv()
    words = tuple(source.settings.review_title_words)
    plain = Query.parse("graph neural networks")
    assert "ti:" not in translate(plain, 10, words)["search_query"]
    # reviews or preprints: every preprint may do, no title words
    either = replace(plain, types=frozenset({"review", "preprint"}))
    assert "ti:" not in translate(either, 10, words)["search_query"]
    books = replace(plain, types=frozenset({"book"}))
    assert source.skip_reason(books) == "arxiv skipped: it holds no book records"
