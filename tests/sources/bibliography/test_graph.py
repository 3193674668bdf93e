"""Citation graphs: online from OpenAlex on a loopback server, offline from the library's
parsed references; GEXF and GraphML that networkx reads back."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.sources.bibliography.graph import (
    GraphError,
    library_graph,
    openalex_graph,
    write_graph,
)
from citewise.sources.net.http import reset_breakers
from citewise.store.sqlite.db import connect
from citewise.store.sqlite.library import LibraryStore
from tests.sources.loopback import loopback_config
from tests.sources.replay import ReplayServer, Reply, Seen

W = "https://openalex.org/"
WORKS = {
    "W1": {
        "display_name": "Seed",
        "publication_year": 2020,
        "doi": "https://doi.org/10.1000/SEED",
        "referenced_works": [W + "W2", W + "W3"],
    },
    "W2": {"display_name": "Ref two", "publication_year": 2015, "referenced_works": [W + "W3"]},
    "W3": {"display_name": "Ref three", "publication_year": 2010, "referenced_works": [W + "W4"]},
    "W4": {"display_name": "Ref four", "publication_year": 2001, "referenced_works": []},
    "W9": {"display_name": "Citing", "publication_year": 2023, "referenced_works": [W + "W1"]},
}


def work(key: str) -> dict[str, object]:
    return {"id": W + key, **WORKS[key]}


def list_page(seen: Seen) -> Reply:
    (expression,) = seen.query["filter"]
    if expression.startswith("cites:"):
        keys = [k for k, w in WORKS.items() if W + expression[6:] in w["referenced_works"]]
    else:
        keys = [k for k in expression.removeprefix("openalex:").split("|") if k in WORKS]
    body = json.dumps({"meta": {"count": len(keys)}, "results": [work(k) for k in keys]})
    return Reply(200, body.encode(), {"content-type": "application/json"})


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        running.add(
            "/openalex/works/doi:10.1000/seed",
            Reply(200, json.dumps(work("W1")).encode(), {"content-type": "application/json"}),
        )
        running.add("/openalex/works/doi:10.1000/missing", Reply(404, b"<html>Not Found</html>"))
        running.add("/openalex/works", list_page)
        yield running


def test_openalex_graph_depth_one_and_two(server: ReplayServer) -> None:
    config = loopback_config(server)
    one = asyncio.run(openalex_graph("https://doi.org/10.1000/seed", 1, config=config))
    assert set(one.nodes) == {"W1", "W2", "W3", "W9"}
    assert one.edges == {("W9", "W1"), ("W1", "W2"), ("W1", "W3"), ("W2", "W3")}
    assert one.nodes["W1"].role == "seed" and one.nodes["W9"].role == "citing"
    assert one.nodes["W1"].doi == "10.1000/seed"
    two = asyncio.run(openalex_graph("10.1000/seed", 2, config=config))
    assert set(two.nodes) == {"W1", "W2", "W3", "W4", "W9"} and ("W3", "W4") in two.edges
    with pytest.raises(GraphError, match="no work"):
        asyncio.run(openalex_graph("10.1000/missing", 1, config=config))


def test_library_graph_from_parsed_references(tmp_path: Path) -> None:
    db: sqlite3.Connection = connect(tmp_path / "library.db")
    for doc, title in (("smith2020", "Smith paper"), ("lee2018", "Lee paper")):
        db.execute(
            "INSERT INTO documents (id, sha256, path, kind, title, year, pages) "
            "VALUES (?, ?, ?, 'pdf', ?, 2020, 1)",
            (doc, doc, f"/{doc}.pdf", title),
        )
    rows = [
        ("r1", "smith2020", 1, "Lee 2018", "Lee paper", None, "lee2018"),
        ("r2", "smith2020", 2, "Doe 2001", "Doe work", "10.1/DOE", None),
        ("r3", "lee2018", 1, "Old 1990", "Old work", None, None),
    ]
    db.executemany(
        'INSERT INTO "references" (id, document_id, ordinal, raw, title, doi, resolved_document)'
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    store = LibraryStore(tmp_path)
    one = library_graph(store, "smith2020", 1)
    assert one.edges == {("smith2020", "lee2018"), ("smith2020", "doi:10.1/doe")}
    two = library_graph(store, "smith2020", 2)
    assert ("lee2018", "r3") in two.edges and two.nodes["r3"].label == "Old work"
    with pytest.raises(GraphError):
        library_graph(store, "nobody", 1)

    networkx = pytest.importorskip("networkx")
    write_graph(two, tmp_path / "g.gexf")
    write_graph(two, tmp_path / "g.graphml")
    for read in (networkx.read_gexf, networkx.read_graphml):
        loaded = read(tmp_path / ("g.gexf" if read is networkx.read_gexf else "g.graphml"))
        assert loaded.number_of_nodes() == 4 and loaded.number_of_edges() == 3
    with pytest.raises(GraphError, match="format"):
        write_graph(two, tmp_path / "g.dot")
    db.close()
