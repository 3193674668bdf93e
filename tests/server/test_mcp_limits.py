"""MCP over HTTP keeps the limits and the role table of `citewise serve` (both real servers
on loopback, the real `mcp` client, users of one users file): the same caps refuse the same
requests, research starts past the running cap are refused, and a read user may compare on
both faces and start research on neither; the task list shows a user their own tasks,
an admin everyone's."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from citewise.server.limits import MAX_LIST_ITEMS, MAX_QUESTION_CHARS
from citewise.server.users import users_entry
from tests.loopback import free_port, stop
from tests.server.conftest import TIGHT, Server, environment, make_library, start

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="needs the mcp SDK (the [mcp] extra)"
)

TOKENS = {
    "alice": "alice-token-limits-0123",
    "bob": "bob-token-limits-9876",
    "carol": "carol-token-limits-5555",
}
MAX_TASKS = 2  # tests/server/tight.py
QUESTION = "What share of foraging trips happened after dusk near sodium lamps?"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("mcp-limits")
    library = make_library(folder)
    users = folder / "users.toml"
    users.write_text(
        users_entry("alice", "write", TOKENS["alice"])
        + users_entry("bob", "read", TOKENS["bob"])
        + users_entry("carol", "admin", TOKENS["carol"])
    )
    return library, users


@pytest.fixture(scope="module")
def mcp_url(shared: tuple[Path, Path]) -> Iterator[str]:
    """`citewise mcp --http --users` with small limits, research stalling in `extracting`."""
    library, users = shared
    port = free_port()
    command = [sys.executable, str(TIGHT), "extracting", "--library", str(library)]
    command += ["mcp", "--http", "--port", str(port), "--users", str(users)]
    process = subprocess.Popen(command, env=environment(), stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.post(url, json={}, timeout=2)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.monotonic() < deadline, "no MCP server"
                time.sleep(0.2)
        yield url
    finally:
        stop(process, grace=10)


@pytest.fixture(scope="module")
def http(shared: tuple[Path, Path]) -> Iterator[Server]:
    library, users = shared
    yield from start(library, "--users", str(users))


def calls(url: str, user: str, wanted: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Each (tool, arguments) called in order in one session of `user`; the results."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def run() -> list[Any]:
        headers = {"Authorization": f"Bearer {TOKENS[user]}"}
        async with (
            create_mcp_http_client(headers=headers) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return [await session.call_tool(name, arguments) for name, arguments in wanted]

    return asyncio.run(asyncio.wait_for(run(), timeout=90))


def said(result: Any) -> str:
    return str(result.content[0].text)


def document_ids(url: str) -> list[str]:
    return [d["id"] for d in json.loads(said(calls(url, "bob", [("list_documents", {})])[0]))]


def test_mcp_refuses_what_http_refuses_at_the_same_caps(mcp_url: str, http: Server) -> None:
    many = [f"paper{n}" for n in range(12 * MAX_LIST_ITEMS)]
    long_question = "why " * (MAX_QUESTION_CHARS // 4 + 1)
    compared, asked, nul = calls(
        mcp_url,
        "alice",
        [
            ("compare", {"documents": many}),
            ("ask", {"question": long_question}),
            ("ask", {"question": "what\x00 accuracy"}),
        ],
    )
    assert compared.is_error and said(compared).startswith("INVALID_REQUEST")
    assert asked.is_error and said(asked).startswith("INVALID_REQUEST")
    assert nul.is_error and said(nul).startswith("BAD_REQUEST")
    with http.client(TOKENS["alice"]) as client:
        assert client.post("/compare", json={"documents": many}).status_code == 422
        assert client.post("/ask", json={"question": long_question}).status_code == 422
    megabyte = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"} | {
        "params": {"name": "ask", "arguments": {"question": "x" * 1_000_000}}
    }
    headers = {"Authorization": f"Bearer {TOKENS['alice']}", "Accept": "application/json"}
    refused = httpx.post(mcp_url, json=megabyte, headers=headers, timeout=30)
    assert refused.status_code == 413 and refused.json()["code"] == "BODY_TOO_LARGE"


@pytest.fixture(scope="module")
def research_starts(mcp_url: str) -> list[Any]:
    """Six research starts by alice over MCP (each stalls, so it keeps running)."""
    wanted = [("start_research", {"topic": f"light and foraging, part {n}"}) for n in range(6)]
    return calls(mcp_url, "alice", wanted)


def test_research_starts_past_the_running_cap_are_refused(research_starts: list[Any]) -> None:
    accepted = [r for r in research_starts if not r.is_error]
    assert len(accepted) == MAX_TASKS
    assert all("TOO_MANY_TASKS: " in said(r) for r in research_starts[MAX_TASKS:])


def test_a_read_user_may_compare_on_both_faces_and_start_research_on_neither(
    mcp_url: str, http: Server
) -> None:
    ids = document_ids(mcp_url)
    compared, research = calls(
        mcp_url,
        "bob",
        [("compare", {"documents": ids}), ("start_research", {"topic": "street lamps"})],
    )
    assert not compared.is_error and json.loads(said(compared))["documents"]
    assert research.is_error and said(research).startswith("FORBIDDEN")
    with http.client(TOKENS["bob"]) as client:
        assert client.post("/compare", json={"documents": ids}).status_code == 200
        assert client.post("/ask", json={"question": QUESTION}).status_code == 200
        refused = client.post("/tasks", json={"topic": "street lamps"})
    assert refused.status_code == 403 and refused.json()["code"] == "FORBIDDEN"


def test_the_task_list_shows_the_callers_own_tasks_and_an_admin_every_task(
    research_starts: list[Any], http: Server
) -> None:
    over_mcp = {json.loads(said(r))["id"] for r in research_starts if not r.is_error}
    with http.client(TOKENS["alice"]) as alice:
        posted = alice.post("/tasks", json={"topic": "bees under LED lamps"}).json()["id"]
        mine = {t["id"] for t in alice.get("/tasks").json()}
    with http.client(TOKENS["bob"]) as bob:
        theirs = {t["id"] for t in bob.get("/tasks").json()}
    with http.client(TOKENS["carol"]) as carol:
        everything = {t["id"] for t in carol.get("/tasks").json()}
    ids = {posted} | over_mcp
    assert len(ids) == 1 + MAX_TASKS
    assert ids <= mine and ids <= everything
    assert not ids & theirs


def test_a_long_call_on_the_writer_does_not_hold_up_a_document_list(tmp_path: Path) -> None:
    from citewise.server.mcp import create_mcp

    server = create_mcp(make_library(tmp_path))
    try:
        asyncio.run(server.call_tool("list_documents", {}))  # a reader exists from now on
        with server.tools.lock:  # what a comparison or a model's answer holds while it runs
            started = time.monotonic()
            listed = asyncio.run(asyncio.wait_for(server.call_tool("list_documents", {}), 10))
            seconds = time.monotonic() - started
    finally:
        server.tools.readers.close()
        server.tools.library.close()
    assert seconds < 1
    assert len(json.loads(said(listed))) == 2
