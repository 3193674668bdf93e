"""`citewise mcp` driven by the SDK's own client over stdio (stdio_client + ClientSession):
every tool listed with its annotations, every tool called once on a small library, results
matching what the HTTP API answers for the same library; errors carry the citewise code.

One MCP server process for the module: the session runs once (in a fixture) and the tests
read what it got back.
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest
import yaml

from citewise.agent.research.model import ResearchOptions
from citewise.api import Library
from citewise.api.research import task_store
from citewise.sources.config import SOURCE_NAMES
from tests.loopback import free_port, stop
from tests.server.conftest import TOKEN, Server, environment, make_library, start
from tests.sources.loopback import serve_fixtures
from tests.sources.replay import ReplayServer
from tests.structure.paper import write_structured_paper

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="needs the mcp SDK (the [mcp] extra)"
)

TOOLS = {
    "search_library",
    "ask",
    "get_evidence",
    "list_documents",
    "get_document",
    "get_table",
    "get_formula",
    "compare",
    "matrix",
    "setup",
    "search_literature",
    "start_research",
    "get_task",
    "get_report",
}
WRITES = {"start_research"}
FINAL = ("completed", "failed", "cancelled")
TASK_SECONDS = 120  # how long the session polls get_task for a final state
QUESTION = "What accuracy did the classifier reach on the held-out test set?"
TOPIC = "acoustic granite sorting accuracy"


def sources_config(path: Path, replay: ReplayServer) -> Path:
    """Every literature source at the loopback replay server (no real network)."""
    config = {
        name: {
            "base_url": f"{replay.base_url}/{name}",
            "rate_limit": {"requests_per_second": 50, "burst": 5},
            "timeout": 10.0,
        }
        for name in SOURCE_NAMES
    }
    path.write_text(yaml.safe_dump(config), "utf-8")
    return path


def text(result: Any) -> str:
    assert result.content and result.content[0].type == "text"
    return str(result.content[0].text)


def unstarted_task(library: Path) -> str:
    """A research task created in the library and never run (it stays `planning`)."""
    with Library(library, embeddings=False) as lib:
        return task_store(lib).create("coastal fog forecasts", ResearchOptions(rounds=1)).id


async def session(library: Path, env: dict[str, str]) -> dict[str, Any]:
    """Run one MCP session against `citewise mcp`; everything it got, by name."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "citewise", "--library", str(library), "mcp"], env=env
    )
    got: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        got["tools"] = (await client.list_tools()).tools
        got["resources"] = (await client.list_resources()).resources

        async def call(name: str, **arguments: Any) -> Any:
            got.setdefault("called", set()).add(name)
            return await client.call_tool(name, arguments)

        listed = json.loads(text(await call("list_documents")))
        got["list_documents"] = listed
        structured = next(d["id"] for d in listed if d["title"] == "Echo Profiles of Quarry Stone")
        got["structured"] = structured
        got["get_document"] = json.loads(text(await call("get_document", document_id=structured)))
        got["read_resource"] = await client.read_resource(got["resources"][0].uri)
        got["search_library"] = json.loads(
            text(await call("search_library", query="crusher downtime", k=3))
        )
        got["ask"] = json.loads(text(await call("ask", question=QUESTION)))
        cited = got["ask"]["sentences"][0]["citations"][0]
        got["get_evidence"] = await call("get_evidence", block_id=cited, page_image=True)
        got["missing_evidence"] = await call("get_evidence", block_id="nope-00000")
        got["bad_arguments"] = await call("get_evidence", block=7)
        got["get_table"] = json.loads(
            text(await call("get_table", document_id=structured, label="Table 2"))
        )
        got["get_formula"] = json.loads(
            text(await call("get_formula", document_id=structured, number="1"))
        )
        got["missing_table"] = await call("get_table", document_id=structured, label="Table 9")
        others = [d["id"] for d in listed if d["id"] != structured]
        got["others"] = others
        got["compare"] = json.loads(text(await call("compare", documents=others)))
        got["matrix"] = json.loads(text(await call("matrix")))
        got["setup"] = await call("setup", document=structured)  # trains nothing
        got["search_literature"] = json.loads(
            text(await call("search_literature", query="graph networks", limit=5))
        )
        # a task no worker runs stays unfinished: its report is asked for before it exists (a
        # started task may finish before the next call, so it cannot stand for "not yet")
        got["early_report"] = await call("get_report", task_id=unstarted_task(library))
        started = json.loads(text(await call("start_research", topic=TOPIC, rounds=1)))
        got["start_research"] = started
        deadline = time.time() + TASK_SECONDS
        while True:
            shown = json.loads(text(await call("get_task", task_id=started["id"])))
            if shown["state"] in FINAL or time.time() > deadline:
                break
            await asyncio.sleep(0.5)
        got["get_task"] = shown
        got["get_report"] = text(await call("get_report", task_id=started["id"]))
    return got


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mcp")
    library = make_library(folder)
    with Library(library, embeddings=False) as lib:
        assert not lib.ingest([write_structured_paper(folder / "structured.pdf")]).failed
    return library


@pytest.fixture(scope="module")
def got(small: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with ReplayServer() as replay:
        serve_fixtures(replay)
        config = sources_config(tmp_path_factory.mktemp("sources") / "sources.yaml", replay)
        env = environment(CITEWISE_SOURCES_CONFIG=str(config))
        yield asyncio.run(asyncio.wait_for(session(small, env), timeout=240))


@pytest.fixture(scope="module")
def http(small: Path) -> Iterator[Server]:
    yield from start(small)


def test_every_tool_is_listed_with_its_annotations_and_called(got: dict[str, Any]) -> None:
    tools = {t.name: t for t in got["tools"]}
    assert set(tools) == TOOLS
    assert got["called"] == TOOLS
    for name, tool in tools.items():
        assert tool.description, name
        assert tool.annotations.read_only_hint is (name not in WRITES), name
    assert tools["search_literature"].annotations.open_world_hint is True
    assert "NETWORK" in tools["search_literature"].description
    assert tools["search_library"].annotations.open_world_hint is False


def test_documents_are_resources(got: dict[str, Any]) -> None:
    uris = {str(r.uri) for r in got["resources"]}
    assert uris == {f"citewise://documents/{d['id']}" for d in got["list_documents"]}
    read = got["read_resource"].contents[0]
    shown = json.loads(read.text)
    assert str(read.uri) == str(got["resources"][0].uri) and "sections" in shown


def test_results_match_the_http_api(got: dict[str, Any], http: Server) -> None:
    structured = got["structured"]
    with http.client() as client:
        assert got["list_documents"] == client.get("/documents").json()
        assert got["get_document"] == client.get(f"/documents/{structured}").json()
        hits = client.get("/search", params={"q": "crusher downtime", "k": 3}).json()
        answer = client.post("/ask", json={"question": QUESTION}).json()
        table = client.get(f"/documents/{structured}/tables/Table 2").json()
        formula = client.get(f"/documents/{structured}/equations/1").json()
        block = got["ask"]["sentences"][0]["citations"][0]
        evidence = client.get(f"/blocks/{block}").json()
        task_id = got["start_research"]["id"]
        task = client.get(f"/tasks/{task_id}").json()
        report = client.get(f"/tasks/{task_id}/report").text
    assert got["search_library"] == hits
    assert "41 hours per month" in hits[0]["text"]
    answer.pop("timings_ms")
    assert {k: v for k, v in got["ask"].items() if k != "timings_ms"} == answer
    assert "93.4%" in got["ask"]["answer"]
    assert got["get_table"] == table and table["label"] == "Table 2" and table["grid"]
    assert got["get_formula"] == formula and formula["text"] == "E = a m u 2"
    shown = json.loads(text(got["get_evidence"]))
    assert shown == {k: v for k, v in evidence.items() if k != "page_size"}
    # the task the MCP server ran, as the HTTP API shows it (which server runs it differs):
    # read once it was final, when nothing of it changes any more
    state = got["get_task"]["state"]
    assert state in FINAL, f"the task was still {state} after {TASK_SECONDS} s of polling"
    assert {k: v for k, v in got["get_task"].items() if k != "running"} == {
        k: v for k, v in task.items() if k != "running"
    }
    assert got["get_report"] == report


def test_compare_tools_match_the_http_api(got: dict[str, Any], http: Server) -> None:
    with http.client() as client:
        compared = client.post("/tools/compare_methods", json={"documents": got["others"]})
        matrix = client.post("/tools/build_matrix", json={})
        setup = client.post("/tools/extract_setup", json={"document": got["structured"]})
    assert compared.status_code == 200 and got["compare"] == compared.json()
    counts = ("computed", "cached")  # this call's own: MCP computed the cells, HTTP read them
    assert matrix.status_code == 200 and matrix.json()["computed"] == 0
    assert {k: v for k, v in got["matrix"].items() if k not in counts} == {
        k: v for k, v in matrix.json().items() if k not in counts
    }
    assert {r["document"] for r in got["matrix"]["rows"]} == {
        d["id"] for d in got["list_documents"]
    }
    stated = [c for c in got["compare"]["cells"] if c["stated"]]
    assert stated and all(c["value"] in c["citation"]["quote"] for c in stated)
    # the structured paper trains nothing: its setup holds only the measure its results table's
    # caption opens with, the same on both faces (ASPECT_EMPTY: tests/server/test_mcp_compare.py)
    shown = json.loads(text(got["setup"]))
    assert not got["setup"].is_error and setup.status_code == 200 and shown == setup.json()
    assert {v["aspect"]: v["value"] for v in shown["values"]} == {"metrics": "Precision"}


def test_get_evidence_returns_the_page_image_with_the_block(got: dict[str, Any]) -> None:
    result = got["get_evidence"]
    image = result.content[1]
    assert image.type == "image" and image.mime_type == "image/png"
    pixmap = pymupdf.Pixmap(base64.b64decode(image.data))
    assert pixmap.width > 500 and pixmap.height > 700
    evidence = json.loads(text(result))
    assert evidence["page"] == 1 and len(evidence["bbox"]) == 4 and "93.4%" in evidence["quote"]


def test_tool_errors_carry_the_citewise_code_and_hint(got: dict[str, Any]) -> None:
    # each begins with its code, as the HTTP API's errors do, not with the SDK's words
    missing = got["missing_evidence"]
    assert missing.is_error and text(missing).startswith("BLOCK_NOT_FOUND: ")
    assert "search hits" in text(missing)  # the hint
    table = got["missing_table"]
    assert table.is_error and text(table).startswith("NOT_IN_DOCUMENT: ")
    assert "Table 1" in text(table)
    early = got["early_report"]
    assert early.is_error and text(early).startswith("REPORT_NOT_READY: ")
    wrong = got["bad_arguments"]
    assert wrong.is_error and text(wrong).startswith("INVALID_REQUEST: ")
    assert "block" in text(wrong) and "input schema" in text(wrong)


def test_literature_search_goes_to_the_configured_sources(got: dict[str, Any]) -> None:
    found = got["search_literature"]
    assert found["records"] and len(found["records"]) <= 5
    assert {s["name"] for s in found["sources"]} == set(SOURCE_NAMES)


def test_a_research_task_runs_to_its_report(got: dict[str, Any]) -> None:
    assert got["start_research"]["state"] == "planning"
    shown = got["get_task"]
    assert shown["state"] == "completed" and shown["evidence"] > 0
    # shown completed, it names its report files (they are written before it completes)
    assert shown["report_markdown"] and shown["report_html"]
    assert "# Research report: " in got["get_report"]
    assert "93.4%" in got["get_report"]


def test_streamable_http_keeps_the_host_and_token_rules(small: Path, tmp_path: Path) -> None:
    import httpx
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    token_file = tmp_path / "token"
    token_file.write_text(f"{TOKEN}\n")
    port = free_port()
    command = [sys.executable, "-m", "citewise", "--library", str(small), "mcp", "--http"]
    command += ["--port", str(port), "--token-file", str(token_file)]
    process = subprocess.Popen(command, env=environment(), stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.time() + 30
        while True:
            try:
                anonymous = httpx.post(url, json={}, timeout=2)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.time() < deadline, "no MCP server"
                time.sleep(0.2)
        auth = {"Authorization": f"Bearer {TOKEN}"}
        rebound = httpx.post(url, json={}, headers={**auth, "Host": "attacker.example"})

        async def listed() -> list[str]:
            async with (
                create_mcp_http_client(headers=auth) as http,
                streamable_http_client(url, http_client=http) as (read, write),
                ClientSession(read, write) as client,
            ):
                await client.initialize()
                tools = (await client.list_tools()).tools
                docs = json.loads(text(await client.call_tool("list_documents", {})))
                return [t.name for t in tools] + [d["id"] for d in docs]

        names = asyncio.run(asyncio.wait_for(listed(), timeout=60))
    finally:
        stop(process)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "UNAUTHORIZED"
    assert rebound.status_code == 421 and rebound.json()["code"] == "HOST_NOT_ALLOWED"
    assert set(names) >= TOOLS and "quarrygranite" in names
    wide = [sys.executable, "-m", "citewise", "--library", str(small), "mcp", "--http"]
    refused = subprocess.run(
        [*wide, "--host", "0.0.0.0", "--port", str(free_port())],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1 and "TOKEN_REQUIRED" in refused.stderr
