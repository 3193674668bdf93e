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
from citewise.api.research import ResearchDesk
from citewise.sources.config import SOURCE_NAMES
from tests.pdfs import write_paper
from tests.sources.loopback import serve_fixtures
from tests.sources.replay import ReplayServer, Reply

JSON = {"content-type": "application/json"}

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
    assert outcome.stats.report.unresolved_ids == 0

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
    assert outcome.stats.report.papers_included == 1 and outcome.evidence > 0
    shown = desk.show(outcome.task.id).to_dict()
    assert json.dumps(shown)  # the event log, warnings included, is JSON-ready


def openalex_work(base: str) -> bytes:
    abstract = "We present acoustic probes that classify granite blocks before cutting."
    index: dict[str, list[int]] = {}
    for n, word in enumerate(abstract.split()):
        index.setdefault(word, []).append(n)
    work = {
        "id": "https://openalex.org/W900",
        "doi": "https://doi.org/10.1000/granite.2021.9",
        "display_name": "Acoustic Probes for Granite Sorting",
        "publication_year": 2021,
        "type": "article",
        "open_access": {"is_oa": True, "oa_url": f"{base}/pdf/probes.pdf"},
        "best_oa_location": {"pdf_url": f"{base}/pdf/probes.pdf"},
        "authorships": [{"author": {"display_name": "Ada Quarry"}}],
        "abstract_inverted_index": index,
    }
    return json.dumps({"meta": {"count": 1}, "results": [work]}).encode()


def test_fetch_downloads_and_ingests_open_access_pdfs_of_included_records(
    library: Library, tmp_path: Path
) -> None:
    from tests.research.test_research_disagreements import FIRST

    pdf = write_paper(tmp_path / "probes.pdf", "Acoustic Probes for Granite Sorting", FIRST)
    with ReplayServer() as server:
        server.add("/openalex/works", Reply(200, openalex_work(server.base_url), JSON))
        server.add(
            "/pdf/probes.pdf", Reply(200, pdf.read_bytes(), {"content-type": "application/pdf"})
        )
        options = ResearchOptions(
            sources=["local", "openalex"],
            sources_config=str(write_config(tmp_path / "sources.yaml", server)),
            fetch=True,
            rounds=1,
        )
        desk = ResearchDesk(library)
        outcome = desk.research("acoustic probes for granite sorting", options)
        downloads = len(server.seen("/pdf/"))
    assert outcome.task.state == "completed" and downloads == 1
    key = "doi:10.1000-granite.2021.9"
    fetched = [e for e in desk.tasks.evidence(outcome.task.id) if e.paper == key]
    assert fetched and all(e.block_id and e.page == 1 for e in fetched)
    assert all(e.link.startswith("file://") and "#page=1" in e.link for e in fetched)
    assert any("93.4%" in e.quote for e in fetched)  # from the PDF body, not the abstract
    report = desk.report(outcome.task.id)
    assert key in {r["id"] for r in report.references}  # cited as the record
    logged = library.store.db.execute(
        "SELECT status FROM http_requests WHERE source = 'acquire' AND task = ?",
        (outcome.task.id,),
    ).fetchall()
    assert [r[0] for r in logged] == [200]


def test_save_keeps_included_remote_records_as_abstract_documents(
    library: Library, tmp_path: Path
) -> None:
    with ReplayServer() as server:
        serve_fixtures(server, only=["arxiv", "openalex"])
        options = ResearchOptions(
            sources=["local", "arxiv", "openalex"],
            sources_config=str(write_config(tmp_path / "sources.yaml", server)),
            save_abstracts=True,
        )
        desk = ResearchDesk(library)
        outcome = desk.research(TOPIC, options)
        again = desk.research(TOPIC, options)  # a second run keeps no second copy
    assert outcome.task.state == again.task.state == "completed"
    kept = [d for d in library.documents() if d.kind == "abstract"]
    assert "2101.00001" in {d.arxiv_id for d in kept}
    assert len({d.arxiv_id or d.doi for d in kept}) == len(kept)
    saved = desk.tasks.events(outcome.task.id, "abstract_saved")
    assert {e.data["document"] for e in saved} <= {d.id for d in kept} and saved
    # this run still quoted the record's abstract, cited as the record
    evidence = desk.tasks.evidence(outcome.task.id)
    assert any(e.paper == "arxiv:2101.00001" and e.block_id is None for e in evidence)
    # a later question over the library cites the kept abstract as an abstract
    answer = library.ask("What do graph attention networks predict from molecule graphs?")
    assert not answer.refused
    assert any(e.title.startswith("abstract of ") for e in answer.evidence)
