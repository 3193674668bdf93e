"""`citewise enrich`: records completed from Crossref and OpenAlex, tested by replaying
their recorded real replies (../shared/fixtures/literature) through the real HTTP layer on
a loopback server; without --online nothing is sent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from citewise.api import Library
from citewise.sources.net.http import reset_breakers
from tests.pdfs import write_paper
from tests.sources.loopback import loopback_config
from tests.sources.recorded import LITERATURE, load
from tests.sources.replay import ReplayServer, Reply

pytestmark = pytest.mark.skipif(
    not LITERATURE.is_dir(), reason="recorded replies need the shared fixtures (../shared)"
)

DOI_LOOKUP = "multi/paperqa_doi_lookup_crossref_s2_openalex_unpaywall.vcr.yaml"
TITLE_SEARCH = "multi/paperqa_title_search_copper_oxide_4sources.vcr.yaml"
COPPER = (
    "Effect of native oxide layers on copper thin-film tensile properties: "
    "A reactive molecular dynamics study"
)


def recorded(file: str, url_start: str) -> Reply:
    (exchange,) = [r for r in load(LITERATURE / file) if r.url.startswith(url_start)]
    return Reply(exchange.status, exchange.body, {"content-type": "application/json"})


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        running.add(
            "/crossref/works/10.1023",
            recorded(DOI_LOOKUP, "https://api.crossref.org/works/10.1023%2Fa:1007154515475?"),
        )
        running.add(
            "/openalex/works/doi:10.1023",
            recorded(DOI_LOOKUP, "https://api.openalex.org/works/https://doi.org/10.1023"),
        )
        # every title search gets the recorded copper-oxide search result
        running.add("/crossref/works", recorded(TITLE_SEARCH, "https://api.crossref.org/works?"))
        running.add(
            "/openalex/works", recorded(TITLE_SEARCH, "https://api.openalex.org/works?filter=")
        )
        yield running


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    folder = tmp_path / "papers"
    folder.mkdir()
    write_paper(
        folder / "arginine.pdf",
        title="An Essential Role of Active Site Arginine Residue",
        sections=[("1 Introduction", ["We study iodide binding.", "DOI: 10.1023/A:1007154515475"])],
    )
    write_long_title_paper(folder / "copper.pdf", COPPER)
    write_paper(folder / "granite.pdf")
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.ingest([folder])
        yield lib


def write_long_title_paper(path: Path, title: str) -> Path:
    """A paper whose title runs over two lines (as long titles do)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(72, 60, 523, 120), title, fontsize=16, fontname="hebo")
    page.insert_text((72, 140), "Ada Quarry and Ben Stone", fontsize=11, fontname="helv")
    page.insert_text((72, 180), "1 Introduction", fontsize=12, fontname="hebo")
    body = "Copper films thinner than a micron yield early when their oxide layer cracks. " * 3
    page.insert_textbox(pymupdf.Rect(72, 190, 523, 400), body, fontsize=10, fontname="helv")
    doc.save(path)
    doc.close()
    return path


def by_path(lib: Library, name: str) -> str:
    (doc,) = [d for d in lib.documents() if Path(d.path).name == name]
    return doc.id


def test_without_online_nothing_is_sent_and_the_plan_says_what_is_missing(
    library: Library, server: ReplayServer
) -> None:
    plan = {p.document: p for p in library.enrich([], online=False)}
    assert server.requests == []
    arginine = plan[by_path(library, "arginine.pdf")]
    assert arginine.lookup == "doi 10.1023/A:1007154515475"
    assert {"container-title", "volume", "page"} <= set(arginine.missing)
    assert plan[by_path(library, "copper.pdf")].lookup == f"title '{COPPER}'"
    assert all(p.filled == {} for p in plan.values())


def test_online_fills_only_missing_fields_from_both_sources_and_logs_and_caches(
    library: Library, server: ReplayServer
) -> None:
    config = loopback_config(server)
    arginine, copper = by_path(library, "arginine.pdf"), by_path(library, "copper.pdf")
    title_before = library.document(arginine).title
    results = {r.document: r for r in library.enrich([], online=True, config=config)}

    doc = library.document(arginine)
    assert doc.title == title_before  # what the PDF printed stays
    csl = doc.csl or {}
    assert doc.venue and csl["volume"] and csl["page"]
    assert csl["type"] == "article-journal"
    assert results[arginine].sources == ["crossref", "openalex"]

    # no DOI: found by its exact title, and the DOI comes with it
    found = library.document(copper)
    assert found.doi == "10.1063/1.4938384" and found.venue
    assert found.venue == "Journal of Applied Physics"
    assert ((found.csl or {})["volume"], (found.csl or {})["issue"]) == ("118", "23")

    # a title search that returns another work fills nothing
    granite = results[by_path(library, "granite.pdf")]
    assert granite.filled == {} and granite.problem == "no source holds this work"

    sent = len(server.requests)
    assert sent >= 6  # two sources x three documents
    logged = library.store.db.execute("SELECT count(*) FROM http_requests").fetchone()[0]
    assert logged >= sent
    again = library.enrich([arginine], online=True, config=config)
    assert len(server.requests) == sent  # answered from the library's cache
    assert again[0].filled == {}  # nothing left to fill from these replies
