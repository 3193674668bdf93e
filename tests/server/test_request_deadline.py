"""The answer deadline of server/guards.py on a real uvicorn: a route that has not started
its answer in time gets a 504 JSON error at the deadline (not when its thread finally ends),
while a stream that started in time runs on past it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route

from citewise.server.guards import RequestLimits
from citewise.server.limits import Limits
from tests.loopback import free_port

DEADLINE = 0.5


def slow(request: Request) -> PlainTextResponse:
    time.sleep(DEADLINE * 4)  # a sync route: its worker thread cannot be interrupted
    return PlainTextResponse("late")


def fast(request: Request) -> PlainTextResponse:
    return PlainTextResponse("quick")


async def ticks() -> AsyncIterator[str]:
    for n in range(4):
        yield f"tick {n}\n"
        await asyncio.sleep(DEADLINE / 2)


async def stream(request: Request) -> StreamingResponse:
    return StreamingResponse(ticks(), media_type="text/plain")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    routes = [Route("/slow", slow), Route("/fast", fast), Route("/stream", stream)]
    app = RequestLimits(Starlette(routes=routes), Limits(request_seconds=DEADLINE))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def test_a_late_answer_is_a_504_at_the_deadline(url: str) -> None:
    started = time.perf_counter()
    late = httpx.get(f"{url}/slow", timeout=10)
    seconds = time.perf_counter() - started
    assert late.status_code == 504 and late.json()["code"] == "REQUEST_TIMEOUT"
    assert seconds < DEADLINE * 3  # the route itself takes DEADLINE * 4
    assert httpx.get(f"{url}/fast", timeout=10).text == "quick"


def test_a_stream_that_started_in_time_runs_past_the_deadline(url: str) -> None:
    streamed = httpx.get(f"{url}/stream", timeout=10)
    assert streamed.status_code == 200
    assert streamed.text.splitlines() == [f"tick {n}" for n in range(4)]
    assert streamed.headers["x-content-type-options"] == "nosniff"
