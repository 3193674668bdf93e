"""Research with remote sources: recorded responses replayed on loopback, mixed with a local
paper; abstract-only evidence from records; a source that fails becomes a warning."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from citewise.agent.research import ResearchOptions
from citewise.api import Library
from citewise.report.research import ResearchDesk
from citewise.sources.config import SOURCE_NAMES
from citewise.sources.replay import ReplayServer, Reply
from tests.pdfs import write_paper
from tests.sources.loopback import serve_fixtures

TOPIC = "graph attention networks for molecule property prediction"
LOCAL_PAPER = [
    (
        "1 Introduction",
        [
            "We present a graph attention network that predicts molecule properties from "
            "molecular graphs. Attention weights let the network focus on reactive atoms.",
        ],
    ),
    (
        "2 Results",
        [
            "On the MolProp-9 benchmark the graph attention network reached an accuracy of "
            "88.5% on held-out molecules.",
        ],
    ),
]


def write_config(path: Path, server: ReplayServer) -> Path:
    config = {
        name: {
            "base_url": f"{server.base_url}/{name}",
            "rate_limit": {"requests_per_second": 100, "burst": 10},
            "timeout": 2.0,
            "max_retries": 0,
        }
        for name in SOURCE_NAMES
    }
    path.write_text(yaml.safe_dump(config), "utf-8")
    return path


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    paper = write_paper(tmp_path / "gat.pdf", "Graph Attention for Molecules", LOCAL_PAPER)
    with Library(tmp_path / "library", embeddings=False) as lib:
        lib.ingest([paper])
        yield lib


def test_remote_records_are_screened_and_quoted_from_their_abstracts(
    library: Library, tmp_path: Path
) -> None:
    with ReplayServer() as server:
        serve_fixtures(server, only=["arxiv", "openalex"])
        options = ResearchOptions(
            sources=["local", "arxiv", "openalex"],
            sources_config=str(write_config(tmp_path / "sources.yaml", server)),
        )
        outcome = ResearchDesk(library).research(TOPIC, options)
        base = server.base_url
    assert outcome.task.state == "completed"
    report = ResearchDesk(library).report(outcome.task.id)
    screened = {d.key: d for d in report.screening}
    assert "arxiv:2101.00001" in screened and screened["arxiv:2101.00001"].included
    local = [k for k in screened if not k.startswith(("arxiv:", "doi:"))]
    assert local and screened[local[0]].included

    evidence = ResearchDesk(library).tasks.evidence(outcome.task.id)
    remote = [e for e in evidence if e.paper == "arxiv:2101.00001"]
    assert remote and all(e.block_id is None and e.page is None for e in remote)
    assert all(e.link.startswith("https://arxiv.org/") for e in remote)
    assert any(e.block_id and e.page == 1 for e in evidence if e.paper == local[0])

    cited = {ref["id"] for ref in report.references}
    assert "arxiv:2101.00001" in cited and local[0] in cited
    markdown = Path(str(outcome.report_markdown)).read_text()
    assert "[@arxiv:2101.00001, ev-" in markdown  # no page for an abstract
    assert outcome.stats["unresolved_ids"] == 0

    urls = [r[0] for r in library.store.db.execute("SELECT url FROM http_requests")]
    assert urls and all(url.startswith(base) for url in urls)  # logged, loopback only


def test_a_failing_source_is_a_warning_and_the_local_library_still_answers(
    library: Library, tmp_path: Path
) -> None:
    with ReplayServer() as server:
        server.add("/arxiv", Reply(503, b"down"))
        options = ResearchOptions(
            sources=["local", "arxiv"],
            sources_config=str(write_config(tmp_path / "sources.yaml", server)),
        )
        desk = ResearchDesk(library)
        outcome = desk.research(TOPIC, options)
    assert outcome.task.state == "completed"
    warnings = [e.data["message"] for e in desk.tasks.events(outcome.task.id, "warning")]
    assert warnings and any("arxiv" in w for w in warnings)
    assert outcome.stats["papers_included"] == 1 and outcome.evidence > 0
    shown = desk.show(outcome.task.id)
    assert json.dumps(shown)  # the event log, warnings included, is JSON-ready
