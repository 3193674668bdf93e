"""Dedupe and merge: identifiers first (DOI normalization, arXiv versions and DOIs), then fuzzy
title + first author + year ±1; preprint and journal versions linked but kept apart."""

from __future__ import annotations

import pytest

from citewise.sources.config import SOURCE_NAMES, SourcesConfig
from citewise.sources.csl import parse_name
from citewise.sources.databases import crossref, openalex
from citewise.sources.databases import semantic_scholar as s2
from citewise.sources.record import (
    MERGE_ID_KINDS,
    SearchRecord,
    make_record,
    normalize_doi,
    normalize_ids,
)
from citewise.sources.search.dedupe import dedupe, title_similarity
from tests.sources.contract import expects_garbage, parser_for
from tests.sources.recorded import LITERATURE, fixture_files, load

PRIORITY = {n: SourcesConfig.load(env={}).settings(n).priority for n in SOURCE_NAMES}


def rec(
    source: str,
    title: str,
    authors: list[str],
    year: int | None,
    kind: str | None = "article",
    **ids: str,
) -> SearchRecord:
    return make_record(
        source,
        csl_type="article" if kind == "preprint" else "article-journal",
        title=title,
        names=[parse_name(a) for a in authors],
        issued=[year] if year else None,
        ids=dict(ids),
        kind=kind,
    )


def test_doi_normalization() -> None:
    assert normalize_doi("https://doi.org/10.1000/ABC.1") == "10.1000/abc.1"
    assert normalize_doi("doi:10.1000/X") == "10.1000/x"
    assert normalize_doi("http://dx.doi.org/10.1/a") == "10.1/a"
    assert normalize_doi("not a doi") is None
    assert normalize_ids({"doi": "10.48550/arXiv.2101.00001"}) == {"arxiv": "2101.00001"}
    assert normalize_ids({"arxiv": "arXiv:2101.00001v3"}) == {"arxiv": "2101.00001"}
    assert normalize_ids({"pmcid": "https://www.ncbi.nlm.nih.gov/pmc/articles/5815332"}) == {
        "pmcid": "PMC5815332"
    }


def test_records_sharing_a_normalized_doi_merge_with_fields_by_priority() -> None:
    a = rec("doaj", "graph review", ["Chidi Okafor"], 2019, doi="10.1000/BIO.2019.7")
    b = rec(
        "crossref", "Graph Review", ["C. Okafor"], 2019, doi="https://doi.org/10.1000/bio.2019.7"
    )
    b.citations, a.open_access = 12, True
    (merged,) = dedupe([a, b], PRIORITY)
    assert merged.sources == ["crossref", "doaj"]  # crossref has the higher priority
    assert merged.title == "Graph Review" and merged.csl["title"] == "Graph Review"
    assert merged.open_access and merged.citations == 12
    assert merged.key == merged.csl["id"] == "doi:10.1000/bio.2019.7"


def test_arxiv_versions_and_arxiv_dois_tie_records() -> None:
    preprint = rec("arxiv", "Attention Maps", ["Ann Lee"], 2020, "preprint", arxiv="2001.00001v1")
    datacite = rec(
        "openalex", "Attention maps", ["Ann Lee"], 2020, "preprint", doi="10.48550/arxiv.2001.00001"
    )
    (merged,) = dedupe([preprint, datacite], PRIORITY)
    assert merged.ids["arxiv"] == "2001.00001" and merged.key == "arxiv:2001.00001"


def test_any_shared_identifier_merges_transitively() -> None:
    pubmed = rec("pubmed", "T", ["A B"], 2001, pmid="11")
    epmc = rec("europepmc", "T", ["A B"], 2001, pmid="11", pmcid="PMC5")
    other = rec("openalex", "T", ["A B"], 2001, pmcid="pmc5", openalex="W9")
    (merged,) = dedupe([pubmed, epmc, other], PRIORITY)
    assert merged.ids == {"pmid": "11", "pmcid": "PMC5", "openalex": "W9"}


def test_a_preprint_and_its_journal_version_stay_distinct_but_linked() -> None:
    preprint = rec(
        "arxiv",
        "Graph Attention Networks for Molecule Property Prediction",
        ["María Keller"],
        2021,
        "preprint",
        arxiv="2101.00001",
    )
    journal = rec(
        "crossref",
        "Graph attention networks for molecule property prediction",
        ["Keller, María"],
        2022,
        doi="10.1000/jmc.2022.001",
    )
    first, second = dedupe([preprint, journal], PRIORITY)
    assert {first.key, second.key} == {"arxiv:2101.00001", "doi:10.1000/jmc.2022.001"}
    assert first.related == [second.key] and second.related == [first.key]


def test_an_identifier_ties_the_preprint_to_its_journal_version() -> None:
    preprint = rec(
        "arxiv",
        "Message Passing Revisited",
        ["Justin Gilbert"],
        2020,
        "preprint",
        arxiv="2005.00002",
    )
    journal = rec(
        "crossref",
        "Message passing revisited",
        ["Justin Gilbert"],
        2020,
        doi="10.1000/icml.2020.55",
    )
    bridge = rec(
        "semantic_scholar",
        "Message Passing Revisited",
        ["Justin Gilbert"],
        2020,
        doi="10.1000/icml.2020.55",
        arxiv="2005.00002",
    )
    (merged,) = dedupe([preprint, journal, bridge], PRIORITY)
    assert merged.key == "doi:10.1000/icml.2020.55"
    assert merged.sources == ["crossref", "semantic_scholar", "arxiv"]
    assert merged.kind == "article" and merged.csl["type"] == "article-journal"


def test_fuzzy_merge_needs_title_first_author_and_year() -> None:
    crossref_rec = rec(
        "crossref",
        "Spectral graph convolutions: a tutorial",
        ["Ana Ortiz"],
        2018,
        doi="10.1000/x.2018.3",
    )
    core_rec = rec(
        "core", "Spectral Graph Convolutions - A Tutorial", ["Ortiz, Ana"], 2019, core="555"
    )
    (merged,) = dedupe([crossref_rec, core_rec], PRIORITY)
    assert merged.ids == {"doi": "10.1000/x.2018.3", "core": "555"}
    other_author = rec("core", "Spectral Graph Convolutions - A Tutorial", ["Bo Chen"], 2018)
    too_late = rec("core", "Spectral Graph Convolutions - A Tutorial", ["Ana Ortiz"], 2021)
    assert len(dedupe([crossref_rec, other_author, too_late], PRIORITY)) == 3


def test_conflicting_identifiers_block_a_fuzzy_merge() -> None:
    a = rec("crossref", "Deep Learning for Chest X-Rays", ["Wei Zhang"], 2020, doi="10.1/a")
    b = rec("pubmed", "Deep learning for chest X-rays", ["Wei Zhang"], 2020, doi="10.1/b")
    assert len(dedupe([a, b], PRIORITY)) == 2


def test_a_short_title_does_not_swallow_longer_ones() -> None:
    assert title_similarity("Deep learning", "Deep learning for medical image segmentation") < 92
    assert (
        title_similarity(
            "SPECTER: Document-level Representation Learning using Citation-informed Transformers",
            "Document-level Representation Learning using Citation-informed Transformers",
        )
        >= 92
    )
    short = rec("crossref", "Deep learning", ["Yann LeCun"], 2015, doi="10.1038/nature14539")
    longer = rec("core", "Deep learning for medical image segmentation", ["Yann LeCun"], 2015)
    assert len(dedupe([short, longer], PRIORITY)) == 2


def test_crossref_relations_link_versions() -> None:
    item = {
        "DOI": "10.1101/2020.01.01.000001",
        "type": "posted-content",
        "subtype": "preprint",
        "title": ["A preprint"],
        "relation": {"is-preprint-of": [{"id-type": "doi", "id": "10.1000/J.1"}]},
    }
    record = crossref.item_record(item)
    assert record.kind == "preprint" and record.related == ["doi:10.1000/j.1"]


# ---------------------------------------------------------------- the recorded fixtures

shared = pytest.mark.skipif(not LITERATURE.is_dir(), reason="shared fixtures absent")


def all_fixture_records() -> list[SearchRecord]:
    records = []
    for path in fixture_files():
        for exchange in load(path):
            parser = parser_for(path, exchange)
            if parser is not None and not expects_garbage(path, exchange):
                records += parser(exchange.body)
    return records


@shared
def test_the_same_doi_from_four_sources_becomes_one_record() -> None:
    path = LITERATURE / "multi" / "paperqa_doi_lookup_crossref_s2_openalex_unpaywall.vcr.yaml"
    exchanges = load(path)
    records = (
        s2.parse_papers(exchanges[0].body)
        + openalex.parse_works(exchanges[2].body)
        + crossref.parse_works(exchanges[3].body)
    )
    (merged,) = dedupe(records, PRIORITY)
    assert merged.sources == ["crossref", "openalex", "semantic_scholar"]
    assert merged.ids["doi"] == "10.1023/a:1007154515475" and merged.ids["pmid"] == "11330823"


@shared
def test_no_false_and_no_missed_identifier_merges_over_all_fixtures() -> None:
    records = all_fixture_records()
    merged = dedupe(records, PRIORITY)
    # Missed identifier merges: no identifier appears on two output records.
    owners: dict[tuple[str, str], str] = {}
    for record in merged:
        for kind in MERGE_ID_KINDS:
            if kind in record.ids:
                assert (kind, record.ids[kind]) not in owners, record.key
                owners[(kind, record.ids[kind])] = record.key
    # False merges: every input record agrees in title with the record it went into.
    by_key = {}
    for record in merged:
        for kind, value in record.ids.items():
            by_key[(kind, value)] = record
    for record in records:
        target = next(by_key[(k, v)] for k, v in record.ids.items() if (k, v) in by_key)
        if record.title and target.title:
            assert title_similarity(record.title, target.title) >= 85, (record.key, target.key)
    # The same works recur across files; the two multi-source cassettes merge across sources.
    assert len(merged) < len(records)
    assert sum(1 for r in merged if len(r.sources) > 1) >= 2
