"""Fetching an open-access copy: identifier parsing, lookups on loopback, PDF checks."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from citewise.errors import CitewiseError
from citewise.sources.downloads.fetch import Identifier, NoOpenCopyError, download, identify, locate
from citewise.sources.net.http import reset_breakers
from tests.sources.loopback import DATA, loopback_config
from tests.sources.replay import ReplayServer, Reply


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.7717/PEERJ.4375", Identifier("doi", "10.7717/peerj.4375")),
        ("https://doi.org/10.1000/x", Identifier("doi", "10.1000/x")),
        ("arXiv:2101.00001v2", Identifier("arxiv", "2101.00001")),
        ("10.48550/arXiv.2101.00001", Identifier("arxiv", "2101.00001")),
        ("hep-th/9901001", Identifier("arxiv", "hep-th/9901001")),
        ("PMID: 29456894", Identifier("pmid", "29456894")),
        ("pmc5815332", Identifier("pmcid", "PMC5815332")),
    ],
)
def test_identifiers_are_recognized(text: str, expected: Identifier) -> None:
    assert identify(text) == expected


def test_anything_else_is_refused() -> None:
    with pytest.raises(CitewiseError, match="not a DOI"):
        identify("deep learning")


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        yield running


def test_an_arxiv_preprint_is_found_and_checked_to_be_a_pdf(server: ReplayServer) -> None:
    feed = (
        (DATA / "arxiv.xml")
        .read_text("utf-8")
        .replace("https://arxiv.org/pdf/2101.00001v2", f"{server.base_url}/pdf/2101.00001")
    )
    server.add("/arxiv/query", Reply(200, feed.encode(), {"content-type": "application/atom+xml"}))
    server.add("/semantic_scholar/paper/", Reply(404, b'{"error": "not found"}'))
    server.add("/pdf/", Reply(200, b"<html>login</html>"), Reply(200, b"%PDF-1.7 fake"))
    config = loopback_config(server)
    located = asyncio.run(locate("arXiv:2101.00001", config=config))
    assert located.warnings == []  # a 404 means "not there", not a failure
    assert located.record is not None and located.record.key == "arxiv:2101.00001"
    assert located.candidates == [("arxiv", f"{server.base_url}/pdf/2101.00001")]
    with pytest.raises(NoOpenCopyError, match="not a PDF"):
        asyncio.run(download(located, config=config))
    pdf, url = asyncio.run(download(located, config=config))
    assert pdf.startswith(b"%PDF-") and url.endswith("/pdf/2101.00001")


def test_no_open_copy_is_a_clear_not_found(server: ReplayServer) -> None:
    server.add("/", Reply(404, b"{}"))
    config = loopback_config(server)
    located = asyncio.run(locate("10.1000/closed", config=config))
    assert located.candidates == [] and located.record is None
    with pytest.raises(NoOpenCopyError, match="no source lists an open-access copy") as caught:
        asyncio.run(download(located, config=config))
    assert caught.value.exit_code == 3
