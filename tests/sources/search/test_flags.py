"""Record completion and retraction flags: recorded replies through the real parsers, the
merged search on loopback, export and research screening."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from citewise.agent.research.model import Plan
from citewise.agent.research.stages.gather import record_paper
from citewise.agent.research.stages.screening import screen_paper
from citewise.sources import search_sources
from citewise.sources.bibliography.export import export
from citewise.sources.databases import arxiv, crossref, europepmc, pubmed
from citewise.sources.net.http import reset_breakers
from citewise.sources.search.flags import apply_notices, complete
from tests.sources.loopback import DATA, JSON, loopback_config
from tests.sources.replay import ReplayServer, Reply


def test_crossref_update_notices_flag_the_retracted_works() -> None:
    records = crossref.parse_works((DATA / "crossref_retraction.json").read_bytes())
    flagged = {r.doi: r.retraction for r in map(complete, apply_notices(records))}
    # updated-by on the work itself, and update-to on a notice naming another work.
    assert flagged["10.1000/cr.1"] == "Crossref retraction (10.1000/cr.notice)"
    assert flagged["10.1000/cr.2"] == "Crossref retraction notice 10.1000/cr.notice"
    assert flagged["10.1000/cr.notice"] is None


def test_pubmed_retracted_publication_and_pmc_links() -> None:
    records = {
        r.ids["pmid"]: complete(r)
        for r in pubmed.parse_efetch((DATA / "pubmed_efetch_paged.xml").read_bytes())
    }
    assert records["31000003"].retraction == "PubMed publication type Retracted Publication"
    assert records["31000003"].csl["note"].startswith("RETRACTED: PubMed")
    assert records["31000001"].retraction is None
    assert records["31000001"].links["pmc"] == "https://pmc.ncbi.nlm.nih.gov/articles/PMC9000001/"


def test_arxiv_records_get_their_datacite_doi() -> None:
    record = complete(arxiv.parse_feed((DATA / "arxiv_page1.xml").read_bytes())[0])
    assert record.csl["DOI"] == "10.48550/arXiv.2301.00001"
    assert record.links["arxiv_doi"] == "https://doi.org/10.48550/arXiv.2301.00001"
    assert record.key == "arxiv:2301.00001"  # the key does not change


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        running.add(
            "/openalex/works", Reply(200, (DATA / "openalex_page2.json").read_bytes(), JSON)
        )
        yield running


def test_openalex_is_retracted_reaches_search_export_and_screening(server: ReplayServer) -> None:
    result = search_sources("image segmentation", ["openalex"], config=loopback_config(server))
    retracted = next(r for r in result.records if r.key == "doi:10.1000/page.3")
    assert retracted.to_dict()["retracted"] is True
    assert all(r.retraction is None for r in result.records if r is not retracted)
    csl = json.loads(export(result.records, "csl-json"))
    notes = {item["id"]: item.get("note") for item in csl}
    assert notes["doi:10.1000/page.3"] == "RETRACTED: OpenAlex is_retracted"
    assert "N1  - RETRACTED: OpenAlex is_retracted" in export(result.records, "ris")

    plan = Plan("image segmentation", [], ["image", "segmentation"], [])
    decisions = {
        r.key: screen_paper(record_paper(r, 1), plan, lambda term: 1.0) for r in result.records
    }
    assert decisions["doi:10.1000/page.3"].eligible is False
    assert decisions["doi:10.1000/page.3"].reason == "excluded: retracted (OpenAlex is_retracted)"
    assert "retracted" not in decisions["doi:10.1000/page.2"].reason


def test_europe_pmc_retracted_publication_type() -> None:
    reply = json.loads((DATA / "europepmc.json").read_text("utf-8"))
    plain = europepmc.parse_search(json.dumps(reply))[0][0]
    assert plain.retraction is None
    reply["resultList"]["result"][0]["pubTypeList"] = {
        "pubType": ["research-article", "Retracted Publication"]
    }
    (record,), _ = europepmc.parse_search(json.dumps(reply))
    assert record.retraction == "Europe PMC publication type Retracted Publication"
