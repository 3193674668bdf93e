"""`citewise search` and `citewise export`, run as subprocesses against a loopback HTTP server
replaying recorded responses (including 429 + Retry-After, 503, a timeout, an HTML page)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
import jsonschema
import pytest
import yaml

from citewise.sources.config import SOURCE_NAMES
from tests.sources.loopback import DATA, serve_fixtures
from tests.sources.recorded import CSL_SCHEMA, LITERATURE, load
from tests.sources.replay import ReplayServer, Reply

JSON = {"content-type": "application/json"}


def run(library: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEWISE_")}
    env.update(CITEWISE_LIBRARY=str(library), HF_HUB_OFFLINE="1", COLUMNS="160")
    return subprocess.run(
        [sys.executable, "-m", "citewise", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


class Invoke:
    """`citewise ARGS` in this process (fast: no interpreter start-up), as the console script
    runs it: exit code, stdout, stderr."""

    def __init__(
        self, library: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.library = library
        self.capsys = capsys
        for name in [k for k in os.environ if k.startswith("CITEWISE_")]:
            monkeypatch.delenv(name)
        monkeypatch.setenv("CITEWISE_LIBRARY", str(library))

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        from citewise.cli import main

        self.capsys.readouterr()
        argv = sys.argv
        sys.argv = ["citewise", *args]
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            sys.argv = argv
        captured = self.capsys.readouterr()
        return subprocess.CompletedProcess(list(args), code, captured.out, captured.err)


@pytest.fixture
def cli(
    library_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Invoke:
    return Invoke(library_dir, capsys, monkeypatch)


def write_config(path: Path, server: ReplayServer, **per_source: dict[str, object]) -> Path:
    config: dict[str, dict[str, object]] = {}
    for name in SOURCE_NAMES:
        config[name] = {
            "base_url": f"{server.base_url}/{name}",
            "rate_limit": {"requests_per_second": 50, "burst": 5},
            "timeout": 10.0,  # generous: a busy CI machine must not look like a dead source
            **per_source.get(name, {}),
        }
    path.write_text(yaml.safe_dump(config), "utf-8")
    return path


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    with ReplayServer() as running:
        yield running


@pytest.fixture
def own(server: ReplayServer, tmp_path: Path) -> Path:
    """The project's own fixtures on loopback; CORE has a key."""
    serve_fixtures(server)
    return write_config(tmp_path / "sources.yaml", server, core={"api_key": "test"})


def test_search_merges_and_ranks_records_from_all_eight_sources(
    cli: Invoke, own: Path, library_dir: Path
) -> None:
    done = cli("search", "graph networks", "--sources-config", str(own), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["warnings"] == [] and result["notices"] == []
    by_key = {r["key"]: r for r in result["records"]}
    assert set(by_key) == {
        "doi:10.1000/jmc.2022.001",
        "arxiv:2101.00001",
        "doi:10.1000/bio.2019.7",
        "doi:10.1000/x.2018.3",
        "doi:10.1000/icml.2020.55",
    }
    assert by_key["doi:10.1000/bio.2019.7"]["sources"] == [
        "pubmed",
        "europepmc",
        "openalex",
        "doaj",
    ]
    assert by_key["doi:10.1000/icml.2020.55"]["sources"] == [
        "openalex",
        "semantic_scholar",
        "arxiv",
    ]
    assert by_key["arxiv:2101.00001"]["related"] == ["doi:10.1000/jmc.2022.001"]
    scores = [r["score"] for r in result["records"]]
    assert scores == sorted(scores, reverse=True)
    assert set(result["records"][0]["explanation"]) == {"bm25", "recency", "citations"}


def test_the_table_shows_source_badges(cli: Invoke, own: Path, library_dir: Path) -> None:
    done = cli("search", "graph networks", "--sources-config", str(own))
    assert done.returncode == 0, done.stderr
    for badge in ("[PM]", "[EPMC]", "[OAlex]", "[DOAJ]", "[CR]", "[CORE]", "[S2]", "[arXiv]"):
        assert badge in done.stdout
    assert "other version:" in done.stdout and "arxiv:2101.00001" in done.stdout


def test_replies_are_cached_and_refresh_fetches_again(
    cli: Invoke, own: Path, library_dir: Path, server: ReplayServer
) -> None:
    args = ["search", "graph networks", "--sources", "crossref,arxiv", "--sources-config", str(own)]
    assert cli(*args).returncode == 0
    assert len(server.seen()) == 2
    assert cli(*args).returncode == 0
    assert len(server.seen()) == 2  # from the cache
    assert cli(*args, "--refresh").returncode == 0
    assert len(server.seen()) == 4
    with sqlite3.connect(library_dir / "library.db") as db:
        hits = db.execute("SELECT cache_hit, count(*) FROM http_requests GROUP BY 1").fetchall()
    assert dict(hits) == {0: 4, 1: 2}


def test_an_empty_query_is_a_usage_error(own: Path, library_dir: Path) -> None:
    # One real process: the exit code as a shell script sees it.
    empty = run(library_dir, "search", "  ", "--sources-config", str(own))
    assert empty.returncode == 2 and "query is empty" in empty.stderr


def test_bad_input_is_refused_with_the_right_exit_codes(cli: Invoke, own: Path) -> None:
    unknown = cli("search", "x", "--sources", "arxiv,scopus", "--sources-config", str(own))
    assert unknown.returncode == 2
    assert "unknown source 'scopus'" in unknown.stderr
    assert "arxiv, pubmed, semantic_scholar, openalex, crossref, core, doaj, europepmc" in (
        unknown.stderr
    )
    bad_format = cli("search", "x", "--format", "docx", "--sources-config", str(own))
    assert bad_format.returncode == 2
    assert cli("search", "x", "--since", "2024", "--until", "2020").returncode == 2


def test_core_without_a_key_is_skipped_with_a_notice(
    cli: Invoke, server: ReplayServer, tmp_path: Path, library_dir: Path
) -> None:
    serve_fixtures(server)
    config = write_config(tmp_path / "sources.yaml", server)
    done = cli(
        "search",
        "graph",
        "--sources",
        "core,crossref",
        "--sources-config",
        str(config),
    )
    assert done.returncode == 0
    assert "notice: core skipped: it needs an API key" in done.stderr
    assert not server.seen("/core")


def test_a_source_returning_garbage_is_named_and_the_others_answer(
    cli: Invoke, server: ReplayServer, tmp_path: Path, library_dir: Path
) -> None:
    serve_fixtures(server)
    server.add(
        "/doaj/search/articles/",
        Reply(200, b"<html><body>Service Unavailable</body></html>", {"content-type": "text/html"}),
    )
    config = write_config(tmp_path / "sources.yaml", server)
    done = cli(
        "search",
        "graph",
        "--sources",
        "doaj,crossref",
        "--json",
        "--sources-config",
        str(config),
    )
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert len(result["warnings"]) == 1 and result["warnings"][0].startswith(
        "doaj: reply is not JSON"
    )
    assert "warning: doaj" in done.stderr
    assert {s for r in result["records"] for s in r["sources"]} == {"crossref"}
    with sqlite3.connect(library_dir / "library.db") as db:
        cached = db.execute("SELECT url FROM http_cache").fetchall()
    assert all("/doaj/" not in url for (url,) in cached)  # garbage is not kept


def test_every_source_failing_exits_1(
    cli: Invoke, server: ReplayServer, tmp_path: Path, library_dir: Path
) -> None:
    server.add("/", Reply(500, b"down"))
    config = write_config(tmp_path / "s.yaml", server, crossref={"max_retries": 0})
    done = cli("search", "x", "--sources", "crossref", "--sources-config", str(config))
    assert done.returncode == 1 and "warning: crossref: HTTP 500" in done.stderr


def test_exports_parse_as_bibtex_ris_and_schema_valid_csl(
    cli: Invoke, own: Path, library_dir: Path, tmp_path: Path
) -> None:
    base = ["search", "graph networks", "--sources-config", str(own)]
    bib = cli(*base, "--format", "bibtex")
    assert bib.returncode == 0, bib.stderr
    database = bibtexparser.loads(bib.stdout)
    assert len(database.entries) == 5
    keys = {e["ID"] for e in database.entries}
    assert {"keller2022graph", "keller2021graph", "okafor2019graph"} <= keys
    preprint = next(e for e in database.entries if e["ID"] == "keller2021graph")
    assert preprint["ENTRYTYPE"] == "misc" and preprint["eprint"] == "2101.00001"
    ris = cli(*base, "--format", "ris")
    assert ris.stdout.count("TY  - ") == 5 and ris.stdout.count("ER  - ") == 5
    out = tmp_path / "refs.json"
    assert cli(*base, "--out", str(out)).returncode == 0
    items = json.loads(out.read_text("utf-8"))
    if CSL_SCHEMA.exists():
        schema = json.loads(CSL_SCHEMA.read_text("utf-8"))
        assert not list(jsonschema.Draft7Validator(schema).iter_errors(items))
    assert len(items) == 5 and len({i["id"] for i in items}) == 5


@pytest.mark.skipif(shutil.which("pandoc") is None, reason="pandoc not installed")
def test_the_csl_json_renders_with_pandoc_citeproc(
    cli: Invoke, own: Path, library_dir: Path, tmp_path: Path
) -> None:
    refs = tmp_path / "refs.json"
    cli("search", "graph networks", "--sources-config", str(own), "--out", str(refs))
    document = tmp_path / "doc.md"
    document.write_text('---\nnocite: "@*"\n---\n', "utf-8")
    rendered = subprocess.run(
        ["pandoc", "--citeproc", "--bibliography", str(refs), str(document), "-t", "plain"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "Keller, María, and Tom van der Berg. 2021" in rendered.stdout
    assert "Okafor, Chidi, and Drug Graph Consortium. 2019" in rendered.stdout
    assert rendered.stderr == ""


# ---------------------------------------------------------------- recorded responses

shared = pytest.mark.skipif(not LITERATURE.is_dir(), reason="shared fixtures absent")


def recorded(relative: str, index: int = 0, delay: float = 0.0) -> Reply:
    exchange = load(LITERATURE / relative)[index]
    return Reply(
        200, exchange.body, {"content-type": exchange.headers.get("content-type", "")}, delay
    )


@shared
def test_search_against_recorded_responses_with_throttling_and_failures(
    server: ReplayServer, tmp_path: Path, library_dir: Path
) -> None:
    # arXiv throttles once (429 + Retry-After), Europe PMC is busy once (503), Semantic
    # Scholar hangs past the timeout, OpenAlex answers with an HTML error page.
    server.add(
        "/arxiv/query",
        Reply(429, b"Too Many Requests", {"Retry-After": "1"}),
        recorded("arxiv/search_all_testing_start0_max10.json"),
    )
    server.add(
        "/europepmc/search",
        Reply(503, b"busy"),
        recorded("europepmc/search_cancer_resultType_core.json"),
    )
    server.add(
        "/semantic_scholar/paper/search",
        recorded("semanticscholar/search_turing_fields_title.vcr.yaml", delay=3.0),
    )
    server.add(
        "/openalex/works",
        Reply(
            200, b"<!doctype html><html><title>Oops</title></html>", {"content-type": "text/html"}
        ),
    )
    server.add("/crossref/works", recorded("crossref/works_query_ecology_rows2.vcr.yaml"))
    server.add("/pubmed/esearch.fcgi", recorded("pubmed/esearch_pubmed_biopython.xml"))
    server.add(
        "/pubmed/efetch.fcgi", recorded("pubmed/efetch_pubmed_two_articles_affiliations.xml")
    )
    server.add("/doaj/search/articles/", recorded("doaj/v2_search_articles_license_CC-BY.rvcr.yml"))
    config = write_config(
        tmp_path / "sources.yaml",
        server,
        semantic_scholar={"timeout": 0.5, "max_retries": 1},
    )
    done = run(
        library_dir,
        "search",
        "testing",
        "--limit",
        "100",
        "--json",
        "--sources-config",
        str(config),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    warnings = sorted(result["warnings"])
    assert len(warnings) == 2
    assert warnings[0].startswith("openalex: reply is not JSON (an HTML page")
    assert warnings[1] == "semantic_scholar: timed out after 0.5 s"
    assert result["notices"] == [
        "core skipped: it needs an API key (set CITEWISE_CORE_API_KEY or api_key in sources.yaml)"
    ]
    found = {s for r in result["records"] for s in r["sources"]}
    assert found == {"arxiv", "crossref", "europepmc", "pubmed", "doaj"}
    counts = {s["name"]: s["records"] for s in result["sources"]}
    assert counts["arxiv"] == 10 and counts["pubmed"] == 2
    # Europe PMC: the 503, then the first page, then the next page by its cursorMark.
    epmc = server.seen("/europepmc")
    assert [r.query["cursorMark"] for r in epmc] == [["*"], ["*"], ["AoIIP4ZawSg1MzEyODI1MA=="]]
    # The replayed next page repeats the recorded first page: deduplicated across pages.
    assert counts["europepmc"] == 25
    arxiv_requests = server.seen("/arxiv")
    # The 429, page one, then page two by `start` (the feed's total says there is more).
    assert len(arxiv_requests) == 3 and arxiv_requests[1].at - arxiv_requests[0].at >= 0.95
    assert arxiv_requests[2].query["start"] == ["10"]
    with sqlite3.connect(library_dir / "library.db") as db:
        statuses = [
            s for (s,) in db.execute("SELECT status FROM http_requests WHERE source != 'x'")
        ]
    assert 429 in statuses and 503 in statuses


def test_export_writes_the_librarys_documents(cli: Invoke, library_dir: Path, paper: Path) -> None:
    assert cli("ingest", str(paper), "--no-embed").returncode == 0
    done = cli("export", "--format", "bibtex")
    assert done.returncode == 0, done.stderr
    (entry,) = bibtexparser.loads(done.stdout).entries
    assert "Granite" in entry["title"]
    csl = json.loads(cli("export").stdout)
    assert csl[0]["id"] and csl[0]["type"]


def test_watch_reports_only_new_records(cli: Invoke, own: Path) -> None:
    first = cli("watch", "graph networks", "--sources-config", str(own), "--json")
    assert first.returncode == 0, first.stderr
    assert len(json.loads(first.stdout)["new"]) == 3
    second = cli("watch", "graph networks", "--sources-config", str(own))
    assert second.returncode == 0 and "No new records since" in second.stdout


def test_graph_writes_a_citation_network(cli: Invoke, server: ReplayServer, tmp_path: Path) -> None:
    from tests.sources.bibliography.test_graph import list_page, work

    server.add(
        "/openalex/works/doi:10.1000/seed", Reply(200, json.dumps(work("W1")).encode(), JSON)
    )
    server.add("/openalex/works", list_page)
    config = write_config(tmp_path / "sources.yaml", server)
    out = tmp_path / "net.graphml"
    done = cli("graph", "10.1000/seed", "--out", str(out), "--sources-config", str(config))
    assert done.returncode == 0, done.stderr
    assert "wrote 4 works and 4 citations" in done.stdout and out.read_text().count("<node ") == 4
    assert cli("graph", "10.1000/seed", "--out", str(tmp_path / "x.dot")).returncode == 2


def test_fetch_downloads_an_open_copy_and_ingests_it_with_metadata(
    cli: Invoke, server: ReplayServer, tmp_path: Path, paper: Path, library_dir: Path
) -> None:
    feed = (DATA / "arxiv.xml").read_text("utf-8")
    feed = feed.replace("https://arxiv.org/pdf/2101.00001v2", f"{server.base_url}/pdf/x")
    server.add("/arxiv/query", Reply(200, feed.encode(), {"content-type": "application/xml"}))
    server.add("/semantic_scholar/", Reply(404, b"{}"))
    server.add("/pdf/x", Reply(200, paper.read_bytes(), {"content-type": "application/pdf"}))
    config = write_config(tmp_path / "sources.yaml", server)
    done = cli("fetch", "arXiv:2101.00001", "--no-embed", "--json", "--sources-config", str(config))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["title"] == "Graph Attention Networks for Molecule Property Prediction"
    with sqlite3.connect(library_dir / "library.db") as db:
        row = db.execute("SELECT arxiv_id, authors, csl FROM documents").fetchone()
    assert row[0] == "2101.00001" and "María Keller" in row[1]
    assert json.loads(row[2])["id"] == result["document"]


def test_fetch_without_an_open_copy_says_so(
    cli: Invoke, server: ReplayServer, tmp_path: Path
) -> None:
    server.add("/", Reply(404, b"{}"))
    config = write_config(tmp_path / "sources.yaml", server)
    done = cli("fetch", "10.1000/closed", "--sources-config", str(config))
    assert done.returncode == 3
    assert "NO_OPEN_COPY" in done.stderr and "no source lists an open-access copy" in done.stderr
