"""`fetch` downloads a PDF a source names only from a host that source is known to serve
PDFs from (its pdf_hosts, or its own host), redirects included; a link the user gives is
downloaded wherever it points. Two loopback servers are two hosts: 127.0.0.1:<port> and
localhost:<other port>."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.sources.config import SourcesConfig
from citewise.sources.downloads.fetch import Located, NoOpenCopyError, download, locate
from citewise.sources.net.http import reset_breakers
from citewise.store.sqlite.audit import SqliteAuditLog
from citewise.store.sqlite.db import connect
from tests.sources.loopback import loopback_config
from tests.sources.replay import ReplayServer, Reply

DOI = "10.1000/granite.2021.9"
PDF = b"%PDF-1.7 a tiny but real-looking PDF header"


def openalex_work(pdf_url: str) -> bytes:
    return json.dumps(
        {
            "id": "https://openalex.org/W900",
            "doi": f"https://doi.org/{DOI}",
            "display_name": "Acoustic Probes for Granite Sorting",
            "publication_year": 2021,
            "type": "article",
            "open_access": {"is_oa": True, "oa_url": pdf_url},
            "best_oa_location": {"pdf_url": pdf_url},
        }
    ).encode()


@pytest.fixture
def servers() -> Iterator[tuple[ReplayServer, ReplayServer]]:
    reset_breakers()
    with ReplayServer() as api, ReplayServer() as elsewhere:
        elsewhere.add("/", Reply(200, PDF, {"content-type": "application/pdf"}))
        yield api, elsewhere


def other_host(server: ReplayServer) -> str:
    return f"http://localhost:{server.base_url.rsplit(':', 1)[1]}"


def located_at(api: ReplayServer, pdf_url: str) -> Located:
    api.add("/openalex/works/", Reply(200, openalex_work(pdf_url)))
    api.add("/", Reply(404, b'{"error": "not found"}'))
    located = asyncio.run(locate(DOI, config=loopback_config(api)))
    assert located.candidates == [("openalex", pdf_url)]
    return located


def test_a_pdf_link_on_a_host_the_source_does_not_serve_is_not_downloaded(
    servers: tuple[ReplayServer, ReplayServer], tmp_path: Path
) -> None:
    api, elsewhere = servers
    link = f"{other_host(elsewhere)}/files/probes.pdf"
    located = located_at(api, link)
    db = connect(tmp_path / "library.db")
    with pytest.raises(NoOpenCopyError) as caught:
        asyncio.run(download(located, config=loopback_config(api), audit=SqliteAuditLog(db)))
    assert elsewhere.seen() == []  # not a single request to the unknown host
    assert "is not on a host openalex is known to serve PDFs from" in caught.value.message
    assert "--pdf-url" in caught.value.hint
    logged = db.execute("SELECT COUNT(*) FROM http_requests WHERE url LIKE '%probes%'")
    assert logged.fetchone()[0] == 0  # nothing left the machine, so nothing to log
    # The user may name the same link themselves: then it is downloaded.
    pdf, url = asyncio.run(download(located, config=loopback_config(api), pdf_url=link))
    assert pdf == PDF and url == link and len(elsewhere.seen()) == 1
    db.close()


def test_a_redirect_from_a_known_host_to_an_unknown_one_is_refused(
    servers: tuple[ReplayServer, ReplayServer],
) -> None:
    api, elsewhere = servers
    api.add("/pdf/", Reply(302, b"", {"Location": f"{other_host(elsewhere)}/probes.pdf"}))
    located = located_at(api, f"{api.base_url}/pdf/probes.pdf")  # the source's own host
    with pytest.raises(NoOpenCopyError, match="is not on a host openalex is known"):
        asyncio.run(download(located, config=loopback_config(api)))
    assert len(api.seen("/pdf/")) == 1 and elsewhere.seen() == []


def test_a_pdf_larger_than_the_cap_is_not_kept(servers: tuple[ReplayServer, ReplayServer]) -> None:
    api, _ = servers
    api.add("/pdf/", Reply(200, PDF + b"0" * 60_000_000, {"content-type": "application/pdf"}))
    located = located_at(api, f"{api.base_url}/pdf/big.pdf")
    with pytest.raises(NoOpenCopyError, match="larger than 50 MB"):
        asyncio.run(download(located, config=loopback_config(api)))


def test_pdf_hosts_match_subdomains_and_nothing_else() -> None:
    from citewise.sources.downloads.downloader import link_problem, on_host

    assert on_host("https://export.arxiv.org/pdf/1", ["arxiv.org"])
    assert on_host("https://arxiv.org/pdf/1", ["arxiv.org"])
    assert not on_host("https://arxiv.org.evil.example/pdf/1", ["arxiv.org"])
    assert not on_host("https://notarxiv.org/pdf/1", ["arxiv.org"])
    config = SourcesConfig.load(env={})  # the shipped pdf_hosts
    assert link_problem("file:///etc/passwd", None, config) is not None  # not even the user's
    assert link_problem("https://arxiv.org/pdf/2101.00001", ["arxiv"], config) is None
    assert link_problem("https://arxiv.org/pdf/2101.00001", ["crossref"], config) is not None
