"""`citewise export -o FILE` picks the format from the extension and refuses an unknown one;
`search --json` shows the parsed query. Run in-process through the real CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.sources.bibliography.export import ExportFormatError, format_for
from citewise.sources.net.http import reset_breakers
from tests.cli.test_search_cli import Invoke, write_config
from tests.sources.loopback import serve_fixtures
from tests.sources.replay import ReplayServer


@pytest.fixture
def cli(
    library_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Invoke:
    return Invoke(library_dir, capsys, monkeypatch)


def test_format_follows_the_extension_and_refuses_others() -> None:
    assert format_for(None, Path("lib.RIS")) == "ris"
    assert format_for(None, Path("lib.bib")) == "bibtex"
    assert format_for(None, None) == "csl-json"
    assert format_for("bibtex", Path("lib.json")) == "bibtex"
    with pytest.raises(ExportFormatError, match="lib.txt"):
        format_for(None, Path("lib.txt"))
    with pytest.raises(ExportFormatError, match="endnote"):
        format_for("endnote", None)


def test_export_dash_o_ris_writes_ris(cli: Invoke, paper: Path, tmp_path: Path) -> None:
    assert cli("ingest", str(paper), "--no-embed").returncode == 0
    target = tmp_path / "lib.ris"
    done = cli("export", "-o", str(target))
    assert done.returncode == 0, done.stderr
    lines = target.read_text("utf-8").splitlines()
    assert lines[0].startswith("TY  - ") and lines[-1].startswith("ER  -")
    assert any(line.startswith("TI  - ") and "Granite" in line for line in lines)
    refused = cli("export", "-o", str(tmp_path / "lib.txt"))
    assert refused.returncode == 2 and "BAD_EXPORT_FORMAT" in refused.stderr
    assert not (tmp_path / "lib.txt").exists()


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    reset_breakers()
    with ReplayServer() as running:
        serve_fixtures(running)
        yield running


def test_search_json_shows_the_parsed_query_and_totals(
    cli: Invoke, server: ReplayServer, tmp_path: Path
) -> None:
    config = write_config(tmp_path / "sources.yaml", server)
    done = cli(
        "search",
        "graph networks 2018-2024 review",
        "--sources",
        "pubmed",
        "--mesh",
        "Neural Networks, Computer",
        "--json",
        "--sources-config",
        str(config),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    parsed = result["parsed_query"]
    assert parsed["terms"] == ["graph", "networks"]
    assert (parsed["year_from"], parsed["year_to"]) == (2018, 2024)
    assert parsed["types"] == ["review"] and parsed["mesh"] == ["Neural Networks, Computer"]
    term = server.seen("/pubmed/esearch")[0].query["term"][0]
    assert term == (
        'graph[tiab] AND networks[tiab] AND "Neural Networks, Computer"[mh] AND 2018:2024[dp]'
        " AND review[pt]"
    )
    assert result["sources"][0]["total"] == 1
