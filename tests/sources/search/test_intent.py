"""Intent from plain language (no model) and how each source translates it (pure)."""

from __future__ import annotations

from datetime import date

import pytest

from citewise.sources.databases import arxiv, crossref, europepmc, openalex, pubmed
from citewise.sources.databases import semantic_scholar as s2
from citewise.sources.query import QueryError
from citewise.sources.search.intent import describe, parse_intent, summary

TODAY = date(2026, 12, 1)
REQUEST = "deep learning medical image segmentation 2023-2024 review"


def parsed(text: str, **options: object):  # type: ignore[no-untyped-def]
    return parse_intent(text, TODAY, **options).query


def test_the_issue_request_becomes_words_years_and_a_type() -> None:
    intent = parse_intent(REQUEST, TODAY)
    query = intent.query
    assert query.terms == ("deep", "learning", "medical", "image", "segmentation")
    assert (query.year_from, query.year_to) == (2023, 2024)
    assert query.types == {"review"}
    assert any("2023-2024" in note for note in intent.notes)
    assert summary(query) == (
        "deep learning medical image segmentation · years 2023-2024 · type review"
    )
    assert describe(query)["types"] == ["review"]


def test_each_source_translates_the_request_in_its_own_syntax() -> None:
    query = parsed(REQUEST)
    term = pubmed.translate(query, 20)["term"]
    assert term.endswith("segmentation[tiab] AND 2023:2024[dp] AND review[pt]")
    assert "2023-2024" not in term and "review[tiab]" not in term
    assert arxiv.translate(query, 20)["search_query"].endswith(
        "all:segmentation AND submittedDate:[202301010000 TO 202412312359]"
    )
    filters = openalex.translate(query, 20)["filter"]
    assert filters == (
        "from_publication_date:2023-01-01,to_publication_date:2024-12-31,type:review"
    )
    assert (
        'PUB_YEAR:[2023 TO 2024] AND PUB_TYPE:"review"' in europepmc.translate(query, 20)["query"]
    )
    assert crossref.translate(query, 20)["filter"] == (
        "from-pub-date:2023-01-01,until-pub-date:2024-12-31"
    )
    params = s2.translate(query, 20)
    assert (params["year"], params["publicationTypes"]) == ("2023-2024", "Review")
    assert params["query"] == "deep learning medical image segmentation"


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("statins since 2020", (2020, None)),
        ("statins after 2020", (2021, None)),
        ("statins before 2010", (None, 2009)),
        ("statins in the last 5 years", (2022, 2026)),
        ("statins past decade", (2017, 2026)),
        ("statins between 2019 and 2021", (2019, 2021)),
        ("statins 2024–2019", (2019, 2024)),
        ("statins published in 2021", (2021, 2021)),
    ],
)
def test_years_and_ranges_relative_to_today(
    text: str, years: tuple[int | None, int | None]
) -> None:
    query = parsed(text)
    assert query.terms == ("statins",)
    assert (query.year_from, query.year_to) == years


def test_designs_and_languages_reach_the_sources_that_filter_on_them() -> None:
    query = parsed("meta-analysis of exercise and depression RCTs in German")
    assert query.terms == ("exercise", "and", "depression")
    assert query.designs == {"meta-analysis", "rct"}
    assert query.languages == ("de",)
    term = pubmed.translate(query, 5)["term"]
    assert "(meta-analysis[pt] OR randomized controlled trial[pt]) AND german[la]" in term
    epmc = europepmc.translate(query, 5)["query"]
    assert 'PUB_TYPE:"meta-analysis"' in epmc and "LANG:ger" in epmc
    assert "language:de" in openalex.translate(query, 5)["filter"]
    assert s2.translate(query, 5)["publicationTypes"] == "MetaAnalysis,ClinicalTrial"


def test_fields_authors_and_mesh_in_the_text() -> None:
    query = parsed('title:"graph neural networks" author:"Ada Lovelace" mesh:"Neoplasms" preprints')
    assert query.field == "title"
    assert query.phrases == ("graph neural networks",)
    assert query.authors == ("Ada Lovelace",)
    assert query.mesh == ("Neoplasms",)
    assert query.types == {"preprint"}
    term = pubmed.translate(query, 5)["term"]
    assert term.startswith('"graph neural networks"[ti] AND "Neoplasms"[mh] AND "Ada Lovelace"[au]')


def test_topic_words_that_look_like_intent_stay_words() -> None:
    query = parsed("peer review bias")
    assert query.terms == ("peer", "review", "bias")
    assert not query.types
    assert parsed("ISBI challenge 2012 dataset").year_from is None


def test_command_line_options_win_and_add() -> None:
    query = parsed(REQUEST, year_from=2020, mesh=("Diagnostic Imaging",), types=frozenset())
    assert (query.year_from, query.year_to) == (2020, 2024)
    assert query.mesh == ("Diagnostic Imaging",)
    assert query.types == {"review"}
    assert '"Diagnostic Imaging"[mh]' in pubmed.translate(query, 5)["term"]


def test_unknown_language_or_only_intent_words_are_refused() -> None:
    with pytest.raises(QueryError, match="language"):
        parsed("statins", languages=("xx",))
    with pytest.raises(QueryError, match="empty"):
        parsed("reviews since 2020")
