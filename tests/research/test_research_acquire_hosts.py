"""research --fetch downloads through the sources' one downloader: a PDF link on a host the
record's source is not known to serve PDFs from is not requested; the record stays
abstract-only, with a warning that says why."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.research import ResearchOptions
from citewise.api import Library
from citewise.api.research import ResearchDesk
from citewise.sources.net.http import reset_breakers
from tests.pdfs import write_paper
from tests.research.test_research_disagreements import FIRST
from tests.research.test_research_remote import JSON, LOCAL_PAPER, openalex_work, write_config
from tests.sources.replay import ReplayServer, Reply


def test_a_pdf_link_on_an_unknown_host_is_not_fetched(tmp_path: Path) -> None:
    reset_breakers()
    local = write_paper(tmp_path / "gat.pdf", "Graph Attention for Molecules", LOCAL_PAPER)
    pdf = write_paper(tmp_path / "probes.pdf", "Acoustic Probes for Granite Sorting", FIRST)
    with (
        Library(tmp_path / "library", embeddings=False) as library,
        ReplayServer() as api,
        ReplayServer() as elsewhere,
    ):
        library.ingest([local])
        other = f"http://localhost:{elsewhere.base_url.rsplit(':', 1)[1]}"
        api.add("/openalex/works", Reply(200, openalex_work(other), JSON))
        elsewhere.add("/pdf/", Reply(200, pdf.read_bytes(), {"content-type": "application/pdf"}))
        options = ResearchOptions(
            sources=["local", "openalex"],
            sources_config=str(write_config(tmp_path / "sources.yaml", api)),
            fetch=True,
            rounds=1,
        )
        desk = ResearchDesk(library)
        outcome = desk.research("acoustic probes for granite sorting", options)
        requested = elsewhere.seen()
        warnings = [e.data["message"] for e in desk.tasks.events(outcome.task.id, "warning")]
        key = "doi:10.1000-granite.2021.9"
        remote = [e for e in desk.tasks.evidence(outcome.task.id) if e.paper == key]
    assert outcome.task.state == "completed"
    assert requested == []  # the link named a host openalex is not known to serve PDFs from
    assert any("not on a host openalex is known to serve PDFs from" in w for w in warnings)
    assert remote and all(e.block_id is None for e in remote)  # abstract-only
    reset_breakers()
