"""Connections that never send a request, or send half of one, against a real `citewise
serve` and `citewise mcp --http` (uvicorn on loopback, small limits through tests/server/
tight.py): each is closed at its deadline, and a client with a request still gets an answer
while the caps are full.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from citewise.agent.research import ResearchOptions
from citewise.agent.research.tasks import TaskStore
from citewise.api import Library
from citewise.server.connections import Caps
from citewise.server.limits import Limits
from tests.loopback import free_port, stop
from tests.server.conftest import TIGHT, environment, make_library

IDLE_SECONDS = 1.0
HEAD_SECONDS = 2.0
MAX_CONNECTIONS = 16
MAX_CLIENT_CONNECTIONS = 8
SMALL = {
    "idle_seconds": IDLE_SECONDS,
    "head_seconds": HEAD_SECONDS,
    "max_connections": MAX_CONNECTIONS,
    "max_client_connections": MAX_CLIENT_CONNECTIONS,
}
PARTIAL_HEAD = b"GET /documents HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@contextmanager
def serving(library: Path, *face: str) -> Iterator[str]:
    """`citewise FACE...` under the small limits on a free port; its base URL."""
    port = free_port()
    command = [sys.executable, str(TIGHT), "-", "--library", str(library), *face]
    process = subprocess.Popen(
        [*command, "--port", str(port)],
        env=environment(TIGHT_LIMITS=json.dumps(SMALL)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert process.poll() is None, "the server exited"
                assert time.monotonic() < deadline, "the server did not start within 30 s"
                time.sleep(0.1)
        yield url
    finally:
        stop(process, grace=10)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Two papers and a research task nobody runs (its event stream stays open)."""
    folder = make_library(tmp_path_factory.mktemp("connections"))
    with Library(folder, embeddings=False) as lib:
        task = TaskStore(lib.store.tasks).create("a task nobody runs", ResearchOptions()).id
    return folder, task


@pytest.fixture(scope="module")
def served(library: tuple[Path, str]) -> Iterator[str]:
    with serving(library[0], "serve") as url:
        yield url


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def dial(url: str, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(
        ("127.0.0.1", port_of(url)), timeout=10, source_address=(source, 0)
    )
    return sock


def closed_after(sock: socket.socket, limit: float) -> tuple[float, bytes]:
    """Seconds until the server closed `sock` (at most `limit`), and what it sent first."""
    started = time.monotonic()
    sock.settimeout(limit)
    received = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return time.monotonic() - started, received
        received += chunk


def still_open(sock: socket.socket) -> bool:
    """Whether the server has not closed `sock`, asked without waiting: a socket with a
    timeout would wait for data first, and a quiet stream would read as closed."""
    timeout = sock.gettimeout()
    sock.settimeout(0)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.settimeout(timeout)


def documents(url: str) -> tuple[int, float]:
    """Status and seconds of `GET /documents` on a connection of its own."""
    started = time.monotonic()
    with httpx.Client(base_url=url, timeout=10) as http:
        status = http.get("/documents").status_code
    return status, time.monotonic() - started


def test_a_connection_that_sends_nothing_is_closed_at_the_idle_deadline(served: str) -> None:
    with dial(served) as sock:
        seconds, sent = closed_after(sock, IDLE_SECONDS + 5)
    assert sent == b""
    assert IDLE_SECONDS - 0.2 <= seconds <= IDLE_SECONDS + 1.5


def test_a_kept_alive_connection_is_closed_once_idle(served: str) -> None:
    with dial(served) as sock:
        sock.sendall(b"GET /documents HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        seconds, sent = closed_after(sock, IDLE_SECONDS + 5)
    assert sent.startswith(b"HTTP/1.1 200")
    assert seconds <= IDLE_SECONDS + 1.5


def test_a_half_sent_head_gets_408_and_does_not_block_other_clients(served: str) -> None:
    halves = [dial(served) for _ in range(MAX_CLIENT_CONNECTIONS - 2)]
    try:
        started = time.monotonic()
        for sock in halves:
            sock.sendall(PARTIAL_HEAD)
        time.sleep(0.3)
        status, seconds = documents(served)
        assert status == 200 and seconds < 2
        # a header line now and then does not buy more time: the head has one deadline
        halves[0].sendall(b"X-Slow: a\r\n")
        answers = [closed_after(sock, HEAD_SECONDS + 5) for sock in halves]
        waited = time.monotonic() - started
    finally:
        for sock in halves:
            sock.close()
    assert all(sent.startswith(b"HTTP/1.1 408") and b"HEAD_TIMEOUT" in sent for _, sent in answers)
    assert HEAD_SECONDS - 0.2 <= waited <= HEAD_SECONDS + 1.5


def test_connections_past_the_caps_make_room_for_a_client_with_a_request(served: str) -> None:
    # five other addresses each open more than one address may keep; together more than the
    # server may keep
    crowd = [dial(served, f"127.0.0.{2 + n % 5}") for n in range(5 * (MAX_CLIENT_CONNECTIONS + 2))]
    try:
        for sock in crowd[::2]:
            sock.sendall(PARTIAL_HEAD)
        status, seconds = documents(served)
        time.sleep(0.3)
        held = [sock.getsockname()[0] for sock in crowd if still_open(sock)]
    finally:
        for sock in crowd:
            sock.close()
    assert status == 200 and seconds < 2
    assert len(held) <= MAX_CONNECTIONS
    assert max(held.count(address) for address in held) <= MAX_CLIENT_CONNECTIONS


def test_an_answer_in_progress_is_not_cut_to_make_room(
    served: str, library: tuple[Path, str]
) -> None:
    stream = dial(served)
    stream.sendall(f"GET /tasks/{library[1]}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    stream.settimeout(10)
    assert stream.recv(4096).startswith(b"HTTP/1.1 200")
    crowd = [dial(served) for _ in range(3 * MAX_CLIENT_CONNECTIONS)]
    try:
        time.sleep(IDLE_SECONDS + 0.6)  # past the idle deadline too: a stream has none
        assert still_open(stream)
        assert sum(still_open(sock) for sock in crowd) < MAX_CLIENT_CONNECTIONS
    finally:
        for sock in [stream, *crowd]:
            sock.close()


@pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="needs the mcp SDK (the [mcp] extra)"
)
def test_mcp_over_http_closes_idle_and_half_sent_connections(library: tuple[Path, str]) -> None:
    with serving(library[0], "mcp", "--http") as url:
        idle, half = dial(url), dial(url)
        half.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        crowd = [dial(url, "127.0.0.2") for _ in range(2 * MAX_CLIENT_CONNECTIONS)]
        with idle, half:
            idle_seconds, _ = closed_after(idle, IDLE_SECONDS + 5)
            head_seconds, sent = closed_after(half, HEAD_SECONDS + 5)
        for sock in crowd:
            sock.close()
    assert idle_seconds <= IDLE_SECONDS + 1.5
    assert sent.startswith(b"HTTP/1.1 408")


def test_the_connection_cap_leaves_room_for_the_servers_own_files() -> None:
    assert Caps.of(Limits(), fd_limit=100_000).max_connections == Limits().max_connections
    tight = Caps.of(Limits(), fd_limit=512)
    assert 0 < tight.max_connections <= 512 - 128
    assert tight.max_client_connections <= tight.max_connections
