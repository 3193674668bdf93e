"""The query model and its translation into each source's own syntax (pure functions)."""

from __future__ import annotations

import pytest

from citewise.sources.databases import arxiv, core, crossref, doaj, europepmc, openalex, pubmed
from citewise.sources.databases import semantic_scholar as s2
from citewise.sources.query import Query, QueryError


def make(text: str = '"deep learning" segmentation', **options: object) -> Query:
    return Query.parse(text, **options)


def test_quoted_phrases_and_words_are_split() -> None:
    query = Query.parse('"deep  learning" medical "image segmentation" 3D')
    assert query.phrases == ("deep learning", "image segmentation")
    assert query.terms == ("medical", "3D")
    assert query.words == ["deep", "learning", "image", "segmentation", "medical", "3d"]


@pytest.mark.parametrize("text", ["", "   ", '""'])
def test_an_empty_query_is_a_usage_error(text: str) -> None:
    with pytest.raises(QueryError) as caught:
        Query.parse(text)
    assert caught.value.exit_code == 2


def test_bad_options_are_refused() -> None:
    with pytest.raises(QueryError, match="after"):
        make(year_from=2024, year_to=2020)
    with pytest.raises(QueryError, match="type"):
        make(types=frozenset({"poster"}))
    with pytest.raises(QueryError, match="field"):
        make(field="body")


def test_a_review_counts_as_an_article_but_not_the_reverse() -> None:
    assert make(types=frozenset({"article"})).wants("review")
    assert not make(types=frozenset({"review"})).wants("article")
    assert make(types=frozenset({"review"})).wants(None)


def test_arxiv_prefixes_authors_and_submitted_date() -> None:
    query = make(field="title", authors=("Ada Lovelace",), year_from=2023, year_to=2024)
    params = arxiv.translate(query, 50)
    assert params["search_query"] == (
        'ti:"deep learning" AND ti:segmentation AND au:"Ada Lovelace" '
        "AND submittedDate:[202301010000 TO 202412312359]"
    )
    assert params["max_results"] == "50"
    assert arxiv.translate(make(field="abstract"), 5)["search_query"].startswith('abs:"deep')


def test_pubmed_tags_dates_types_and_free_full_text() -> None:
    query = make(
        mesh=("Diagnostic Imaging",),
        year_from=2023,
        year_to=2024,
        types=frozenset({"review"}),
        open_access=True,
    )
    term = pubmed.translate(query, 20)["term"]
    assert term == (
        '"deep learning"[tiab] AND segmentation[tiab] AND "Diagnostic Imaging"[mh] '
        'AND 2023:2024[dp] AND review[pt] AND "free full text"[sb]'
    )
    assert pubmed.translate(make(field="title", year_from=2020), 5)["term"].endswith(
        "AND 2020:3000[dp]"
    )


def test_semantic_scholar_plain_text_and_filters() -> None:
    params = s2.translate(
        make(year_from=2023, min_citations=5, open_access=True, types=frozenset({"review"})), 500
    )
    assert params["query"] == "deep learning segmentation"
    assert params["year"] == "2023-"
    assert params["minCitationCount"] == "5" and "openAccessPdf" in params
    assert params["publicationTypes"] == "Review" and params["limit"] == "100"


def test_openalex_search_and_filters() -> None:
    params = openalex.translate(
        make(
            year_from=2023,
            year_to=2024,
            open_access=True,
            min_citations=10,
            types=frozenset({"review"}),
        ),
        20,
    )
    assert params["search"] == '"deep learning" AND segmentation'
    assert params["filter"] == (
        "from_publication_date:2023-01-01,to_publication_date:2024-12-31,type:review,"
        "is_oa:true,cited_by_count:>9"
    )
    title = openalex.translate(make("a, b", field="title"), 20)
    assert "search" not in title and title["filter"] == "title.search:a AND b"


def test_crossref_field_queries_and_filters() -> None:
    params = crossref.translate(
        make(authors=("Carl Boettiger",), year_from=2020, types=frozenset({"article", "preprint"})),
        20,
    )
    assert params["query.bibliographic"] == "deep learning segmentation"
    assert params["query.author"] == "Carl Boettiger"
    assert params["filter"] == "from-pub-date:2020-01-01,type:journal-article,type:posted-content"
    assert "query.title" in crossref.translate(make(field="title"), 20)


def test_core_quotes_field_values_and_ranges_years() -> None:
    params = core.translate(make(field="title", year_from=2023, year_to=2024), 20)
    assert params["q"] == (
        'title:"deep learning" AND title:"segmentation" AND yearPublished>=2023 '
        "AND yearPublished<=2024"
    )


def test_doaj_query_goes_into_the_url_path() -> None:
    query_string, params = doaj.translate(make(authors=("Ian Dickie",), year_to=2020), 30)
    assert query_string == (
        '"deep learning" AND segmentation AND bibjson.author.name:"Ian Dickie" '
        "AND bibjson.year:[* TO 2020]"
    )
    assert doaj.search_path(query_string).startswith("/search/articles/%22deep%20learning%22")
    assert params == {"pageSize": "30", "page": "1"}


def test_europepmc_fields_cursor_and_types() -> None:
    params = europepmc.translate(
        make(
            field="abstract",
            year_from=2023,
            open_access=True,
            types=frozenset({"preprint", "review"}),
        ),
        2000,
    )
    assert params["query"] == (
        'ABSTRACT:"deep learning" AND ABSTRACT:segmentation AND PUB_YEAR:[2023 TO 3000] '
        'AND (SRC:PPR OR PUB_TYPE:"review") AND OPEN_ACCESS:y'
    )
    assert params["cursorMark"] == "*" and params["pageSize"] == "1000"
