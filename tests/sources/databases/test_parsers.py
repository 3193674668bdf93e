"""Parsers on the edge cases the recorded responses hold: odd titles, old arXiv IDs, season
dates, markup in abstracts, consortium authors, null fields, inverted-index abstracts."""

from __future__ import annotations

import pytest

from citewise.sources.base import ParseError
from citewise.sources.databases import arxiv, core, crossref, doaj, europepmc, openalex, pubmed
from citewise.sources.databases import semantic_scholar as s2
from tests.sources.loopback import DATA
from tests.sources.recorded import LITERATURE, load

shared = pytest.mark.skipif(not LITERATURE.is_dir(), reason="shared fixtures absent")


def body(relative: str, index: int = 0) -> bytes:
    return load(LITERATURE / relative)[index].body


@shared
def test_arxiv_title_zero_and_non_ascii_authors() -> None:
    (record,) = arxiv.parse_feed(body("arxiv/idlist_2104.12255v1_title_is_0.json"))
    assert record.title == "0" and record.key == "arxiv:2104.12255"
    (proceedings,) = arxiv.parse_feed(body("arxiv/idlist_1707.08567_34_authors_nonascii.json"))
    assert len(proceedings.authors) == 34
    assert "Dirk Wübben" in proceedings.authors


@shared
def test_arxiv_old_style_ids_lose_their_version() -> None:
    (record,) = arxiv.parse_feed(body("arxiv/idlist_oldstyle_versioned_quant-ph_0201082v1.json"))
    assert record.ids == {"arxiv": "quant-ph/0201082"}
    assert record.kind == "preprint" and record.csl["type"] == "article"
    assert record.csl["note"] == "arXiv: quant-ph/0201082"


@shared
def test_arxiv_entry_with_journal_doi_is_keyed_by_the_doi() -> None:
    records = arxiv.parse_feed(body("arxiv/search_all_testing_start0_max10.json"))
    first = records[0]
    assert first.ids["doi"] == "10.1109/icstw55395.2022.00035"
    assert first.ids["arxiv"] == "2202.12139"
    assert first.pdf_url == "https://arxiv.org/pdf/2202.12139v1"


@shared
def test_arxiv_error_entry_and_empty_feed() -> None:
    with pytest.raises(ParseError, match="incorrect id format"):
        arxiv.parse_feed(body("arxiv/idlist_abc_http400_error_entry.json"))
    assert arxiv.parse_feed(body("arxiv/idlist_0000.0000_empty_totalResults0.json")) == []


@shared
def test_arxiv_oai_records_skip_placeholder_authors() -> None:
    (record,) = arxiv.parse_oai(body("arxiv/oai_GetRecord_arXiv_1603.05976.xml"))
    families = [n.get("family") for n in record.csl["author"]]
    assert ":" not in families and families[0] == "Array"


@shared
def test_pubmed_season_date_and_missing_abstract() -> None:
    first, second = pubmed.parse_efetch(body("pubmed/efetch_pubmed_no_abstract_season_date.xml"))
    assert first.abstract == "" and first.csl["issued"] == {"date-parts": [[1990, 3]]}
    assert first.kind == "review"
    assert second.doi == "10.1016/0005-2795(76)90109-4"


@shared
def test_pubmed_markup_in_abstracts_becomes_text_and_reference_ids_are_ignored() -> None:
    (record,) = pubmed.parse_efetch(body("pubmed/efetch_pubmed_mathml_abstract.xml"))
    assert "<" not in record.abstract and record.abstract
    assert record.ids == {
        "pmid": "29963580",
        "doi": "10.1117/1.jmi.5.2.026002",
        "pmcid": "PMC6022861",
    }
    assert {"literal": "Canadian Respiratory Research Network"} in record.csl["author"]
    (tagged,) = pubmed.parse_efetch(body("pubmed/efetch_pubmed_html_tags_in_abstract.xml"))
    assert tagged.abstract.startswith("OBJECTIVE: ") and "<i>" not in tagged.abstract


@shared
def test_pubmed_esearch_ids_and_no_results() -> None:
    assert len(pubmed.parse_esearch(body("pubmed/esearch_pubmed_biopython.xml"))) == 20
    assert pubmed.parse_esearch(body("pubmed/esearch_no_results_phrase_not_found.xml")) == []


@shared
def test_semantic_scholar_nulls_and_missing_data_key() -> None:
    assert s2.parse_papers(body("semanticscholar/search_empty_total0.vcr.yaml")) == []
    (record,) = s2.parse_papers(body("semanticscholar/paper_with_null_values.json"))
    assert record.authors == [] and record.key.startswith("s2:")
    batch = s2.parse_papers(body("semanticscholar/batch_all_fields_with_null_entry.vcr.yaml"))
    assert batch[0].doi == "10.2139/ssrn.288970" and batch[0].citations


@shared
def test_openalex_work_rebuilds_abstract_and_normalizes_ids() -> None:
    (record,) = openalex.parse_works(body("openalex/work_W2741809807_single_full.json"))
    assert record.ids == {
        "openalex": "W2741809807",
        "doi": "10.7717/peerj.4375",
        "pmid": "29456894",
        "pmcid": "PMC5815332",
    }
    assert record.abstract.startswith("Despite growing interest in Open Access")
    assert record.open_access and record.pdf_url == "https://peerj.com/articles/4375.pdf"
    assert record.csl["page"] == "e4375"


@shared
def test_crossref_jats_abstract_and_gzip_bodies() -> None:
    records = crossref.parse_works(
        body("crossref/works_query_ecology_query.author_boettiger.vcr.yaml")
    )
    assert len(records) == 20
    assert all("<jats" not in r.abstract for r in records)


@shared
def test_europepmc_json_and_xml_agree() -> None:
    from_json, cursor = europepmc.parse_search(body("europepmc/search_cancer_lite.json"))
    from_xml, xml_cursor = europepmc.parse_search(body("europepmc/search_cancer_lite.xml"))
    assert cursor == xml_cursor == "AoIIP4ZawSg1MzEyODI1MA=="
    assert [r.key for r in from_json] == [r.key for r in from_xml]
    assert europepmc.parse_search(body("europepmc/search_no_results_hitCount0.json")) == ([], None)


def test_europepmc_reply_with_only_a_version_is_garbage() -> None:
    with pytest.raises(ParseError, match="europepmc"):
        europepmc.parse_search(b'{"version": "6.9"}')


@shared
def test_doaj_and_legacy_core_replies() -> None:
    records = doaj.parse_articles(body("doaj/v2_search_articles_license_CC-BY.rvcr.yml"))
    assert len(records) == 10 and all(r.open_access for r in records)
    assert core.parse_works(body("core/legacy_v2/v2_advanced_search_no_results.rvcr.yml")) == []


def test_core_v3_work_from_the_projects_own_fixture() -> None:
    (record,) = core.parse_works((DATA / "core.json").read_bytes())
    assert record.key == "core:555"
    assert record.csl["author"] == [{"family": "Ortiz", "given": "Ana"}]
    assert record.pdf_url == "https://core.ac.uk/download/555.pdf"


@pytest.mark.parametrize(
    "parser",
    [
        arxiv.parse_feed,
        pubmed.parse_efetch,
        s2.parse_papers,
        openalex.parse_works,
        crossref.parse_works,
        core.parse_works,
        doaj.parse_articles,
        europepmc.parse_search,
    ],
)
def test_an_html_error_page_is_garbage_naming_the_source(parser: object) -> None:
    page = b"<!doctype html><html><head><title>502 Bad Gateway</title></head><body></body></html>"
    with pytest.raises(ParseError, match="HTML|expected|not JSON"):
        parser(page)  # type: ignore[operator]
