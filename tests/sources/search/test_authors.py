"""Author-first search: the seed search's most-cited authors, then their papers on the topic
from the other sources (recorded fixtures on loopback, real clients)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.sources import Query
from citewise.sources.net.http import reset_breakers
from citewise.sources.record import SearchRecord, make_record
from citewise.sources.search.authors import search_by_author, top_authors
from tests.sources.loopback import loopback_config, serve_fixtures
from tests.sources.replay import ReplayServer


def test_top_authors_sum_citations_and_break_ties_by_papers() -> None:
    def paper(title: str, names: list[str], cites: int) -> SearchRecord:
        people = [{"family": n.split()[-1], "given": n.split()[0]} for n in names]
        return make_record(
            "openalex",
            csl_type="article",
            title=title,
            names=people,
            issued=None,
            ids={},
            citations=cites,
        )

    records = [
        paper("a", ["Ada Lovelace", "Alan Turing"], 10),
        paper("b", ["Alan Turing"], 5),
        paper("c", ["Grace Hopper"], 15),
        paper("d", ["Emmy Noether"], 0),
    ]
    assert top_authors(records, 3) == [
        ("Alan Turing", 15),
        ("Grace Hopper", 15),
        ("Ada Lovelace", 10),
    ]


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        serve_fixtures(running)
        yield running


def test_by_author_seeds_authors_then_searches_their_papers(server: ReplayServer) -> None:
    result = search_by_author(
        Query.parse("graph networks"), ["arxiv", "pubmed"], config=loopback_config(server)
    )
    assert "authors: Justin Gilbert (321 citations), Chidi Okafor (88 citations)" in result.notices
    sent = [s.query["search_query"][0] for s in server.seen("/arxiv")]
    assert sent == [
        'all:graph AND all:networks AND au:"Justin Gilbert"',
        'all:graph AND all:networks AND au:"Chidi Okafor"',
    ]
    terms = [s.query["term"][0] for s in server.seen("/pubmed/esearch")]
    assert terms[1] == 'graph[tiab] AND networks[tiab] AND "Chidi Okafor"[au]'
    assert result.records
    for record in result.records:
        assert {"Justin Gilbert", "Chidi Okafor"} & set(record.authors), record.authors
    keys = [r.key for r in result.records]
    assert len(keys) == len(set(keys))
