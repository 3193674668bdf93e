"""Saved searches: each run returns only what is new since the last one."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from citewise.sources.net.http import reset_breakers
from citewise.sources.search.watch import WatchList
from citewise.store.sqlite.library import LibraryStore
from tests.sources.loopback import DATA, loopback_config, serve_fixtures
from tests.sources.replay import ReplayServer, Reply


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        serve_fixtures(running, only=["arxiv", "pubmed"])
        yield running


def test_a_watch_returns_only_new_records_and_narrows_by_date(
    server: ReplayServer, tmp_path: Path
) -> None:
    config = loopback_config(server)
    store = LibraryStore(tmp_path)
    watches = WatchList(store.watches)
    first = watches.run("graph networks", config=config, today=date(2026, 1, 1))
    assert first.previous_run is None
    assert {r.key for r in first.new} == {
        "arxiv:2101.00001",
        "arxiv:2005.00002",
        "doi:10.1000/bio.2019.7",
    }

    second = WatchList(LibraryStore(tmp_path).watches).run(
        "graph  Networks", config=config, today=date(2026, 1, 2)
    )
    assert second.previous_run == "2026-01-01" and second.new == []
    arxiv_query = server.seen("/arxiv")[-1].query
    assert "submittedDate:[202601010000 TO 999912312359]" in arxiv_query["search_query"][0]
    assert arxiv_query["sortBy"] == ["submittedDate"]
    esearch = server.seen("/pubmed/esearch")[-1].query
    assert esearch["datetype"] == ["edat"] and esearch["mindate"] == ["2026/01/01"]

    feed = (DATA / "arxiv.xml").read_text("utf-8").replace("2005.00002", "2601.00042")
    server.add("/arxiv/query", Reply(200, feed.encode(), {"content-type": "application/xml"}))
    third = WatchList(LibraryStore(tmp_path).watches).run(
        "graph networks", config=config, today=date(2026, 1, 3)
    )
    assert [r.key for r in third.new] == ["arxiv:2601.00042"]
    (entry,) = LibraryStore(tmp_path).watches.list_watches()
    assert entry.runs == 3 and entry.last_run == "2026-01-03"
    assert not (tmp_path / "watches.json").exists()  # state lives in the store


def test_a_failed_source_keeps_the_old_date(server: ReplayServer, tmp_path: Path) -> None:
    config = loopback_config(server, max_retries=0)
    watches = WatchList(LibraryStore(tmp_path).watches)
    watches.run("graph", config=config, today=date(2026, 1, 1))
    server.add("/pubmed/esearch.fcgi", Reply(500, b"down"))
    failed = watches.run("graph", config=config, today=date(2026, 1, 5))
    assert failed.result.warnings and failed.previous_run == "2026-01-01"
    (entry,) = LibraryStore(tmp_path).watches.list_watches()
    assert entry.last_run == "2026-01-01"
