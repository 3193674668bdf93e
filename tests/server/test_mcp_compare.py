"""The MCP `compare`, `matrix` and `setup` tools, driven by the SDK's client over stdio, on
two papers the test writes with known optimizer, schedule and clipping settings: exactly
those cells, the same results as the HTTP routes (real uvicorn) and `Library.tool`, and the
tool registry's error codes and hints on every face."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.api import Library
from tests.agent.comparison.test_compare import ADAMW, SGD
from tests.pdfs import write_paper
from tests.server.conftest import Server, environment, start

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="needs the mcp SDK (the [mcp] extra)"
)
ASPECTS = ["optimizer", "learning rate schedule", "gradient clipping"]
QUESTION = "How do {a} and {b} differ in optimizer, learning rate schedule and gradient clipping?"


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    root = tmp_path_factory.mktemp("mcp-compare")
    pdfs = [
        write_paper(root / "adamw.pdf", "Echo Transformers for Granite", ADAMW),
        write_paper(root / "sgd.pdf", "Momentum Networks for Marble", SGD),
    ]
    with Library(root / "library", embeddings=False) as lib:
        assert not lib.ingest(pdfs).failed
        by_file = {Path(d.path).name: d.id for d in lib.documents()}
    return root / "library", by_file["adamw.pdf"], by_file["sgd.pdf"]


def text(result: Any) -> str:
    assert result.content and result.content[0].type == "text"
    return str(result.content[0].text)


async def session(library: Path, a: str, b: str) -> dict[str, Any]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "citewise", "--library", str(library), "mcp"],
        env=environment(),
    )
    got: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        got["tools"] = {t.name: t for t in (await client.list_tools()).tools}
        call = client.call_tool
        got["compare"] = await call("compare", {"documents": [a, b], "aspects": ASPECTS})
        got["matrix"] = await call("matrix", {"columns": ["optimizer", "batch size"]})
        got["setup"] = await call("setup", {"document": a})
        got["one_paper"] = await call("compare", {"documents": [a]})
        got["missing"] = await call("setup", {"document": "nobody2020"})
        got["unknown_aspect"] = await call(
            "compare", {"documents": [a, b], "aspects": ["optimzer"]}
        )
        got["ask"] = await call("ask", {"question": QUESTION.format(a=a, b=b)})
        got["nothing_stated"] = await call(
            "compare", {"documents": [a, b], "aspects": ["weight decay"]}
        )
    return got


@pytest.fixture(scope="module")
def got(papers: tuple[Path, str, str]) -> dict[str, Any]:
    return asyncio.run(asyncio.wait_for(session(*papers), timeout=120))


@pytest.fixture(scope="module")
def http(papers: tuple[Path, str, str]) -> Iterator[Server]:
    yield from start(papers[0])


def test_the_tools_are_listed_read_only_with_their_parameters(got: dict[str, Any]) -> None:
    for name, required in [("compare", ["documents"]), ("matrix", []), ("setup", ["document"])]:
        tool = got["tools"][name]
        assert tool.annotations.read_only_hint is True and tool.description
        assert tool.input_schema.get("required", []) == required


def test_compare_returns_exactly_the_stated_settings(
    got: dict[str, Any], papers: tuple[Path, str, str]
) -> None:
    _, a, b = papers
    result = json.loads(text(got["compare"]))
    assert result["aspects"] == ["optimizer", "schedule", "gradient clipping"]
    assert {(c["aspect"], c["document"]): c["value"] for c in result["cells"]} == {
        ("optimizer", a): "AdamW",
        ("optimizer", b): "SGD with momentum of 0.9",
        ("schedule", a): "cosine decay",
        ("schedule", b): "step decay",
        ("gradient clipping", a): "1.0",
        ("gradient clipping", b): "5.0",
    }
    blocks = {c["citation"]["block"] for c in result["cells"]}
    assert all(c["value"] in c["citation"]["quote"] for c in result["cells"])
    assert result["differences"] and all(set(d["citations"]) <= blocks
                                         for d in result["differences"])  # fmt: skip


def test_matrix_and_setup_cells_are_cited(
    got: dict[str, Any], papers: tuple[Path, str, str]
) -> None:
    _, a, b = papers
    matrix = json.loads(text(got["matrix"]))
    assert matrix["columns"] == ["optimizer", "batch size"]
    rows = {r["document"]: r["cells"] for r in matrix["rows"]}
    assert set(rows) == {a, b}
    assert rows[a]["optimizer"]["value"] == "AdamW" and not rows[a]["batch size"]["stated"]
    assert rows[a]["batch size"]["citation"] is None
    setup = json.loads(text(got["setup"]))
    stated = {v["aspect"]: v["value"] for v in setup["values"]}
    assert stated["optimizer"] == "AdamW" and stated["learning rate"] == "3e-4"
    assert "batch size" in setup["not_stated"]


def test_errors_carry_the_registry_code_and_hint(got: dict[str, Any]) -> None:
    expected = {
        "one_paper": "INVALID_PARAMS: ",
        "missing": "PAPER_NOT_FOUND: ",
        "unknown_aspect": "UNKNOWN_ASPECT: ",
        "nothing_stated": "ASPECT_EMPTY: ",
    }
    for name, prefix in expected.items():
        assert got[name].is_error and text(got[name]).startswith(prefix), (name, text(got[name]))
    assert "citewise list" in text(got["missing"])  # the hint
    assert "optimizer" in text(got["unknown_aspect"])  # the known aspects


def test_results_equal_the_http_routes_and_the_api(
    got: dict[str, Any], http: Server, papers: tuple[Path, str, str]
) -> None:
    library, a, b = papers
    tools = "/tools/compare_methods"
    with http.client() as client:
        compared = client.post(tools, json={"documents": [a, b], "aspects": ASPECTS})
        matrix = client.post("/tools/build_matrix", json={"columns": ["optimizer", "batch size"]})
        setup = client.post("/tools/extract_setup", json={"document": a})
        missing = client.post("/tools/extract_setup", json={"document": "nobody2020"})
        one = client.post(tools, json={"documents": [a]})
        empty = client.post(tools, json={"documents": [a, b], "aspects": ["weight decay"]})
        web = client.post("/compare", json={"documents": [a, b], "aspects": ASPECTS})
    assert json.loads(text(got["compare"])) == compared.json() == web.json()  # one shape
    cell = next(c for c in web.json()["cells"] if c["stated"])
    assert cell["citation"] == {k: cell[k] for k in ("document", "page", "block", "quote")}
    by_mcp = json.loads(text(got["matrix"]))
    assert _cells_of(by_mcp) == _cells_of(matrix.json())
    assert json.loads(text(got["setup"])) == setup.json()
    assert missing.status_code == 404 and missing.json()["code"] == "PAPER_NOT_FOUND"
    assert one.status_code == 422 and empty.status_code == 404
    assert empty.json()["code"] == "ASPECT_EMPTY"
    with Library(library, embeddings=False) as lib:
        result = lib.tool("compare_methods", {"documents": [a, b], "aspects": ASPECTS})
        assert result.action == "compare_methods" and result.to_dict() == compared.json()


COUNTS = ("computed", "cached")  # what this call computed or read: the call's own fact


def _cells_of(matrix: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in matrix.items() if k not in COUNTS}


def test_the_matrix_is_one_shape_on_every_face(
    got: dict[str, Any], http: Server, papers: tuple[Path, str, str]
) -> None:
    """POST /matrix (the web app's), POST /tools/build_matrix and the MCP `matrix` tool
    answer the same JSON for the same matrix: every key of each, every value."""
    library, a, b = papers
    body = {"columns": ["optimizer", "batch size"]}
    with http.client() as client:
        web = client.post("/matrix", json=body)
        tool = client.post("/tools/build_matrix", json=body)
        chosen = client.post("/matrix", json={**body, "documents": [b]})
        chosen_tool = client.post("/tools/build_matrix", json={**body, "documents": [b]})
    assert web.status_code == tool.status_code == 200
    by_mcp = json.loads(text(got["matrix"]))  # the session ran first: it computed the cells
    assert by_mcp["computed"] == 4 and by_mcp["cached"] == 0
    assert web.json() == tool.json()  # both read the cache: equal to the last key
    assert web.json()["computed"] == 0 and web.json()["cached"] == 4
    assert _cells_of(by_mcp) == _cells_of(web.json())
    assert chosen.json() == chosen_tool.json() and [
        r["document"] for r in chosen.json()["rows"]
    ] == [b]
    row = next(r for r in web.json()["rows"] if r["document"] == a)
    # the route's old keys are kept (path, cells by column, counts) and the tool's added
    assert set(row) == {"document", "title", "year", "path", "cells"} and row["path"].endswith(
        ".pdf"
    )
    assert list(row["cells"]) == ["optimizer", "batch size"]
    optimizer, batch = row["cells"]["optimizer"], row["cells"]["batch size"]
    assert optimizer["value"] == "AdamW" and optimizer["value"] in optimizer["quote"]
    assert optimizer["citation"] == {
        k: optimizer[k] for k in ("document", "page", "block", "quote")
    }
    assert not batch["stated"] and batch["citation"] is None and batch["quote"] is None
    with Library(library, embeddings=False) as lib:
        api = lib.matrix(None, body["columns"]).to_dict()
    assert api == web.json()


def test_a_comparative_ask_answers_the_table_on_every_face(
    got: dict[str, Any], http: Server, papers: tuple[Path, str, str]
) -> None:
    library, a, b = papers
    question = QUESTION.format(a=a, b=b)
    with http.client() as client:
        answered = client.post("/ask", json={"question": question}).json()
        aspects = ["optimizer", "schedule", "gradient clipping"]
        web = client.post("/compare", json={"documents": [a, b], "aspects": aspects}).json()
    with Library(library, embeddings=False) as lib:
        api = lib.ask(question).to_dict()
        compared = lib.compare([a, b], ["optimizer", "schedule", "gradient clipping"]).to_dict()
    by_mcp = json.loads(text(got["ask"]))
    for answer in (by_mcp, answered, api):
        answer.pop("timings_ms")
    assert by_mcp == answered == api
    assert answered["comparison"] == compared == web and not answered["refused"]
    values = {(c["aspect"], c["document"]): c["value"] for c in compared["cells"]}
    assert values[("gradient clipping", a)] == "1.0" and values[("optimizer", b)].startswith("SGD")
