"""Depth: each source's own paging, its reported total, dedupe across pages, the rate limit
between pages. Recorded two-page replies (tests/sources/data/*_page*.xml|json) on loopback,
through the real clients; page sizes shrink to 2 so two pages hold the three records."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator

import pytest

from citewise.sources import search_sources
from citewise.sources.databases import arxiv, openalex, pubmed
from citewise.sources.databases.paging import Page, collect
from citewise.sources.net.http import reset_breakers
from citewise.sources.record import SearchRecord, make_record
from tests.sources.loopback import DATA, JSON, XML, loopback_config
from tests.sources.replay import ReplayServer, Reply, Seen

EFETCH = (DATA / "pubmed_efetch_paged.xml").read_text("utf-8")


def by_page(
    param: str, first: str, second: str, headers: dict[str, str]
) -> Callable[[Seen], Reply]:
    """Page 1 unless the request carries `param` (the source's own paging parameter) past it."""

    def reply(seen: Seen) -> Reply:
        later = seen.query.get(param, ["0"])[0] not in ("0", "1")
        return Reply(200, (DATA / (second if later else first)).read_bytes(), headers)

    return reply


def efetch(seen: Seen) -> Reply:
    """Only the articles whose PMIDs were asked for, as efetch answers."""
    wanted = seen.query["id"][0].split(",")
    articles = re.findall(r"<PubmedArticle>.*?</PubmedArticle>", EFETCH, re.S)
    kept = [a for a in articles if any(f">{pmid}</PMID>" in a for pmid in wanted)]
    return Reply(200, ("<PubmedArticleSet>" + "".join(kept) + "</PubmedArticleSet>").encode(), XML)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ReplayServer]:
    for module in (arxiv, openalex, pubmed):
        monkeypatch.setattr(module, "PAGE_SIZE", 2)
    reset_breakers()
    with ReplayServer() as running:
        running.add(
            "/openalex/works", by_page("page", "openalex_page1.json", "openalex_page2.json", JSON)
        )
        running.add(
            "/pubmed/esearch.fcgi",
            by_page("retstart", "pubmed_esearch_page1.xml", "pubmed_esearch_page2.xml", XML),
        )
        running.add("/pubmed/efetch.fcgi", efetch)
        running.add("/arxiv/query", by_page("start", "arxiv_page1.xml", "arxiv_page2.xml", XML))
        yield running


def sent(server: ReplayServer, prefix: str, name: str) -> list[str | None]:
    return [s.query.get(name, [None])[0] for s in server.seen(prefix)]


def test_openalex_pages_with_page_and_reports_meta_count(server: ReplayServer) -> None:
    config = loopback_config(server)
    result = search_sources("image segmentation", ["openalex"], config=config, limit=10)
    # page.2 came back on both pages: kept once (ranking then orders the merged records).
    assert sorted(r.key for r in result.records) == [
        "doi:10.1000/page.1",
        "doi:10.1000/page.2",
        "doi:10.1000/page.3",
    ]
    assert sent(server, "/openalex", "page") == [None, "2"]
    assert sent(server, "/openalex", "per-page") == ["2", "2"]
    assert result.sources[0].total == 3 and result.sources[0].records == 3


def test_a_small_limit_stays_one_request(server: ReplayServer) -> None:
    result = search_sources("segmentation", ["openalex"], config=loopback_config(server), limit=1)
    assert len(result.records) == 1 and result.sources[0].total == 3
    assert sent(server, "/openalex", "per-page") == ["1"]


def test_pubmed_pages_esearch_with_retstart_and_reports_count(server: ReplayServer) -> None:
    config = loopback_config(server)
    result = search_sources("medical image segmentation", ["pubmed"], config=config, limit=50)
    assert sorted(r.ids["pmid"] for r in result.records) == ["31000001", "31000002", "31000003"]
    assert sent(server, "/pubmed/esearch", "retstart") == [None, "2"]
    assert sent(server, "/pubmed/esearch", "retmax") == ["2", "2"]
    assert [s.query["id"][0] for s in server.seen("/pubmed/efetch")] == [
        "31000001,31000002",
        "31000003",
    ]
    assert result.sources[0].total == 3


def test_arxiv_pages_with_start_and_the_rate_limit_holds_between_pages(
    server: ReplayServer,
) -> None:
    config = loopback_config(server).with_overrides(
        {"arxiv": {"rate_limit": {"requests_per_second": 4, "burst": 1}}}
    )
    result = search_sources("segmentation", ["arxiv"], config=config, limit=3)
    assert sorted(r.ids["arxiv"] for r in result.records) == [
        "2301.00001",
        "2301.00002",
        "2301.00003",
    ]
    seen = server.seen("/arxiv")
    assert [s.query["start"][0] for s in seen] == ["0", "2"]
    assert seen[1].at - seen[0].at >= 0.2  # 4 per second, burst 1
    assert result.sources[0].total == 3


def test_collect_keeps_the_sources_order_and_drops_repeats() -> None:
    def record(n: int) -> SearchRecord:
        return make_record(
            "openalex",
            csl_type="article",
            title=f"t{n}",
            names=[],
            issued=None,
            ids={"doi": f"10.1/{n}"},
        )

    pages = {0: [record(1), record(2)], 2: [record(2), record(3)], 4: []}
    asked: list[int] = []

    async def page(offset: int, size: int, cursor: str | None) -> Page:
        asked.append(offset)
        return Page(pages[offset], total=None)

    collected = asyncio.run(collect(page, 10, 2))
    assert [r.key for r in collected.records] == ["doi:10.1/1", "doi:10.1/2", "doi:10.1/3"]
    assert asked == [0, 2, 4] and collected.pages == 3


def test_progress_reports_each_source_page_by_page(server: ReplayServer) -> None:
    from io import StringIO

    from rich.console import Console

    from citewise.cli.progress import SourceBars
    from citewise.sources.search.progress import SourceProgress

    steps: list[SourceProgress] = []
    config = loopback_config(server)
    result = search_sources(
        "medical image segmentation",
        ["pubmed", "arxiv"],
        config=config,
        limit=50,
        progress=steps.append,
    )
    assert result.warnings == []
    for name in ("pubmed", "arxiv"):
        mine = [(s.state, s.records, s.total) for s in steps if s.source == name]
        assert mine[0] == ("searching", 0, None)
        assert mine[1:] == [("page", 2, 3), ("page", 3, 3), ("done", 3, 3)]
    # The terminal bars draw what the steps say.
    screen = StringIO()
    bars = SourceBars(Console(file=screen, force_terminal=True, width=100))
    with bars:
        for step in steps:
            bars(step)
        bars.progress.refresh()
    drawn = screen.getvalue()
    assert "pubmed" in drawn and "arxiv" in drawn and "3/3" in drawn and "of 3 matches" in drawn
