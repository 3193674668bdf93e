"""search_sources: the entry point the CLI and the research pipeline call."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citewise.sources import (
    Query,
    QueryError,
    SearchRecord,
    SearchResult,
    SourcesConfig,
    UnknownSourceError,
    search_sources,
)
from citewise.sources.config import SourcesConfigError
from citewise.sources.net.http import reset_breakers
from citewise.store.sqlite.audit import SqliteAuditLog
from citewise.store.sqlite.db import connect
from tests.sources.loopback import DATA, loopback_config, serve_fixtures
from tests.sources.replay import ReplayServer


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        serve_fixtures(running)
        yield running


def test_returns_search_records_with_valid_shape(server: ReplayServer) -> None:
    result = search_sources(
        "graph networks", ["crossref", "pubmed"], config=loopback_config(server)
    )
    assert isinstance(result, SearchResult) and result.warnings == []
    assert all(isinstance(r, SearchRecord) for r in result.records)
    review = next(r for r in result.records if r.kind == "review")
    assert review.key == "doi:10.1000/bio.2019.7" and review.ids["pmid"] == "30000001"
    assert review.authors == ["Chidi Okafor", "Drug Graph Consortium"]
    assert review.csl["id"] == review.key and review.year == 2019


def test_limit_and_filters_apply_to_what_comes_back(server: ReplayServer) -> None:
    config = loopback_config(server)
    assert len(search_sources("graph", [], config=config, limit=2).records) == 2
    recent = search_sources(Query.parse("graph", year_from=2021), [], config=config)
    assert {r.year for r in recent.records} <= {2021, 2022}
    cited = search_sources(
        Query.parse("graph", min_citations=50), ["crossref", "openalex"], config=config
    )
    assert all((r.citations or 0) >= 50 for r in cited.records)
    authored = search_sources(Query.parse("graph", authors=("Ortiz",)), ["crossref"], config=config)
    assert [r.key for r in authored.records] == ["doi:10.1000/x.2018.3"]


def test_unknown_sources_and_empty_queries_are_errors() -> None:
    with pytest.raises(UnknownSourceError) as caught:
        search_sources("x", ["arxiv", "scopus"])
    assert "arxiv, pubmed, semantic_scholar" in caught.value.hint
    with pytest.raises(QueryError):
        search_sources("", ["arxiv"])


def test_callable_from_inside_a_running_event_loop(server: ReplayServer) -> None:
    config = loopback_config(server)

    async def pipeline_step() -> SearchResult:
        return search_sources("graph", ["arxiv"], config=config)

    result = asyncio.run(pipeline_step())
    assert {r.key for r in result.records} == {"arxiv:2101.00001", "arxiv:2005.00002"}


def test_an_injected_transport_needs_no_server(tmp_path: Path) -> None:
    body = (DATA / "crossref.json").read_bytes()
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    db: sqlite3.Connection = connect(tmp_path / "library.db")
    config = SourcesConfig.load(env={"CITEWISE_MAILTO": "me@example.org"})
    result = search_sources(
        "graph",
        ["crossref"],
        audit=SqliteAuditLog(db),
        config=config,
        transport=httpx.MockTransport(handler),
    )
    assert len(result.records) == 2
    assert (
        seen[0].startswith("https://api.crossref.org/works?")
        and "mailto=me%40example.org" in seen[0]
    )
    assert db.execute("SELECT count(*) FROM http_requests").fetchone()[0] == 1
    db.close()


def test_a_partial_sources_file_overrides_field_by_field(tmp_path: Path) -> None:
    path = tmp_path / "sources.yaml"
    path.write_text(
        "crossref:\n  base_url: http://127.0.0.1:9/x\narxiv:\n  rate_limit: {burst: 2}\n"
    )
    config = SourcesConfig.load(path, env={})
    crossref = config.settings("crossref")
    assert crossref.base_url == "http://127.0.0.1:9/x"
    assert crossref.rate_limit.requests_per_second == 1 and crossref.priority == 1
    arxiv = config.settings("arxiv")
    assert arxiv.rate_limit.burst == 2 and arxiv.rate_limit.requests_per_second == 0.333
    path.write_text("scopus:\n  base_url: http://x\n")
    with pytest.raises(SourcesConfigError, match="unknown source 'scopus'"):
        SourcesConfig.load(path, env={})
    path.write_text("arxiv:\n  rate_limit: {requests_per_second: -1}\n")
    with pytest.raises(SourcesConfigError, match="arxiv.rate_limit.requests_per_second"):
        SourcesConfig.load(path, env={})


def test_shipped_defaults_follow_the_published_limits() -> None:
    config = SourcesConfig.load(env={"CITEWISE_CORE_API_KEY": "k"})
    rate = {n: s.rate_limit.requests_per_second for n, s in config.sources.items()}
    assert rate["arxiv"] <= 1 / 3 + 1e-3 and config.settings("arxiv").max_concurrency == 1
    assert rate["pubmed"] == 3 and rate["crossref"] == 1 and rate["doaj"] == 2
    assert rate["semantic_scholar"] == 1
    assert config.settings("core").api_key == "k"
    assert all(s.base_url.startswith("https://") for s in config.sources.values())
