"""`citewise mcp --http --users` on a PostgreSQL library (real uvicorn on loopback, the real
`mcp` client): the tokens and roles of `serve --users`, a read-only user cannot call a
tool that starts work, and every call is in the audit log with the user's name."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.api import Library
from citewise.config import Settings
from citewise.server.users import users_entry
from tests.loopback import free_port, stop
from tests.pdfs import write_paper
from tests.server.conftest import environment

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="needs the mcp SDK (the [mcp] extra)"
)

TOKENS = {"alice": "alice-token-0123456789", "bob": "bob-token-9876543210"}
QUESTION = "What accuracy did the classifier reach on the held-out test set?"


@pytest.fixture
def mcp_url(pg_url: str, tmp_path: Path) -> Iterator[str]:
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    paper = write_paper(tmp_path / "granite.pdf")
    with Library(pg_url, settings=Settings.load(pg_url, environ=cache)) as library:
        assert not library.ingest([paper]).failed
    users = tmp_path / "users.toml"
    users.write_text(
        users_entry("alice", "write", TOKENS["alice"]) + users_entry("bob", "read", TOKENS["bob"])
    )
    port = free_port()
    command = [sys.executable, "-m", "citewise", "--library", pg_url, "mcp", "--http"]
    command += ["--port", str(port), "--users", str(users)]
    process = subprocess.Popen(command, env=environment(**cache), stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_until_up(url, process)
        yield url
    finally:
        stop(process)


def _wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    import httpx

    deadline = time.time() + 60
    while True:
        try:
            httpx.post(url, json={}, timeout=2)
            return
        except httpx.TransportError:
            assert process.poll() is None and time.time() < deadline, "no MCP server"
            time.sleep(0.2)


async def _calls(url: str, token: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        return [await client.call_tool(name, arguments) for name, arguments in calls]


def _text(result: Any) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


def test_mcp_users_have_their_tokens_roles_and_audit_lines(
    mcp_url: str, pg_url: str, tmp_path: Path
) -> None:
    import httpx

    anonymous = httpx.post(mcp_url, json={}, timeout=10)
    stranger = httpx.post(mcp_url, json={}, headers={"Authorization": "Bearer nope"}, timeout=10)
    assert anonymous.status_code == 401 and stranger.status_code == 401

    research = ("start_research", {"topic": "acoustic sorting of granite", "rounds": 1})
    bob = asyncio.run(
        asyncio.wait_for(
            _calls(mcp_url, TOKENS["bob"], [("ask", {"question": QUESTION}), research]), 90
        )
    )
    answer = json.loads(_text(bob[0]))
    assert not bob[0].is_error and "93.4%" in answer["answer"]
    assert bob[1].is_error and _text(bob[1]).startswith("FORBIDDEN: user 'bob' may only read")

    alice = asyncio.run(
        asyncio.wait_for(
            _calls(
                mcp_url,
                TOKENS["alice"],
                [("search_library", {"query": "crusher downtime"}), research],
            ),
            90,
        )
    )
    assert not alice[0].is_error and json.loads(_text(alice[0]))
    assert not alice[1].is_error and json.loads(_text(alice[1]))["id"]

    listed = subprocess.run(
        [sys.executable, "-m", "citewise", "--library", pg_url, "audit", "--json"],
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
        capture_output=True,
        check=True,
    )
    trail = json.loads(listed.stdout)
    assert [(a["actor"], a["action"], a["subject"]) for a in trail] == [
        ("alice", "research", "acoustic sorting of granite"),
        ("alice", "search", "crusher downtime"),
        ("bob", "research", "acoustic sorting of granite"),
        ("bob", "ask", QUESTION),
    ]
    assert all(a["detail"]["via"] == "mcp" for a in trail)
    assert trail[2]["detail"]["error"] == "FORBIDDEN" and "error" not in trail[0]["detail"]
