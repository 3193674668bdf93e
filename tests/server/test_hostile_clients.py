"""Clients that try to starve the server: event streams opened and dropped, streams and
research tasks past their caps, an absurd Last-Event-ID, request bodies that are huge or never
finish. The server (tests/server/tight.py) has small limits so each shows in a few requests.
"""

from __future__ import annotations

import signal
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from citewise.agent.research import ResearchOptions
from citewise.agent.research.tasks import TaskStore
from citewise.api import Library
from tests.server.conftest import Hostile, Server, make_library, start
from tests.server.test_tasks_api import TOPIC, sse, wait_for

MAX_STREAMS = 8  # tight.py
MAX_TASKS = 2
BODY_SECONDS = 1.0
SHUTDOWN_SECONDS = 5  # cli/serve.py: open streams are cut this long after SIGTERM
DROPPED_CLIENTS = 60  # more than the 40 worker threads one stuck stream each used to hold


def connect(server: Server) -> socket.socket:
    parts = urlsplit(server.url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
    return sock


def response_head(sock: socket.socket) -> str:
    """The status line and headers of the answer on `sock`."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.partition(b"\r\n\r\n")[0].decode("latin-1")


def open_stream(server: Server, task_id: str) -> tuple[socket.socket, str]:
    sock = connect(server)
    sock.sendall(f"GET /tasks/{task_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return sock, response_head(sock)


@contextmanager
def streams(server: Server, task_id: str, n: int) -> Iterator[list[str]]:
    """`n` event streams held open on raw sockets (their status lines), closed at the end."""
    opened = [open_stream(server, task_id) for _ in range(n)]
    try:
        yield [head.partition("\r\n")[0] for _, head in opened]
    finally:
        for sock, _ in opened:
            sock.close()


def test_dropped_event_streams_leave_the_server_answering(hostile: Hostile) -> None:
    server = hostile.server
    with streams(server, hostile.stuck_task, DROPPED_CLIENTS) as statuses:
        assert sum(" 200 " in s for s in statuses) == MAX_STREAMS
        assert sum(" 429 " in s for s in statuses) == DROPPED_CLIENTS - MAX_STREAMS
        with server.client() as http:
            refused = http.get(f"/tasks/{hostile.stuck_task}/events", timeout=5)
    assert refused.status_code == 429 and refused.json()["code"] == "TOO_MANY_STREAMS"
    with server.client() as http:
        started = time.perf_counter()
        answer = http.post("/ask", json={"question": "What accuracy did the classifier reach?"})
        seconds = time.perf_counter() - started
    assert answer.status_code == 200 and "93.4%" in answer.json()["answer"]
    assert seconds < 10
    # the dropped clients' slots come back: the cap's worth of streams opens again
    deadline = time.monotonic() + 10
    while True:
        with streams(server, hostile.stuck_task, MAX_STREAMS) as statuses:
            if all(" 200 " in s for s in statuses):
                break
        assert time.monotonic() < deadline, f"stream slots not released: {statuses}"
        time.sleep(0.2)


def test_research_tasks_past_the_cap_are_refused(hostile: Hostile) -> None:
    with hostile.server.client() as http:
        started = [http.post("/tasks", json={"topic": TOPIC}) for _ in range(MAX_TASKS)]
        over = http.post("/tasks", json={"topic": TOPIC})
        ids = [s.json()["id"] for s in started if s.status_code == 202]
        for task_id in ids:
            http.delete(f"/tasks/{task_id}")
        for task_id in ids:
            wait_for(http, task_id, lambda t: not t["running"], seconds=30)
    assert [s.status_code for s in started] == [202] * MAX_TASKS
    assert over.status_code == 429 and over.json()["code"] == "TOO_MANY_TASKS"


def test_an_absurd_last_event_id_starts_the_stream_over(hostile: Hostile) -> None:
    path = f"/tasks/{hostile.cancelled_task}/events"
    with hostile.server.client() as http:
        whole = sse(http, path)
        for absurd in ("9" * 5000, "-1", "12abc", "1e3"):
            http.headers["Last-Event-ID"] = absurd
            assert sse(http, path) == whole, absurd
        http.headers["Last-Event-ID"] = str(whole[0][1]["id"])
        resumed = sse(http, path)
    assert whole[0][0] == "created" and whole[-1][0] == "end"
    assert whole[-1][1]["state"] == "cancelled"
    assert resumed == whole[1:]


def test_an_unfinished_body_is_answered_408_and_its_connection_closed(hostile: Hostile) -> None:
    sock = connect(hostile.server)
    try:
        sock.sendall(
            b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"question": "'
        )
        started = time.monotonic()
        answer = b""
        while chunk := sock.recv(4096):  # until the server closes the connection
            answer += chunk
        seconds = time.monotonic() - started
    finally:
        sock.close()
    head, _, body = answer.decode("latin-1").partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 408") and "connection: close" in head.lower()
    assert '"BODY_TIMEOUT"' in body
    assert seconds < BODY_SECONDS + 5


def test_oversized_bodies_and_fields_are_refused(hostile: Hostile) -> None:
    huge = {"question": "granite " * 300_000}  # 2.4 MB
    with hostile.server.client() as http:
        declared = http.post("/ask", json=huge)
        chunked = http.post(
            "/ask",
            content=iter([b'{"question": "', b"x" * 600_000, b'"}']),
            headers={"Content-Type": "application/json"},
        )
        long_question = http.post("/ask", json={"question": "x" * 4001})
        long_topic = http.post("/tasks", json={"topic": "y" * 2001})
    for response in (declared, chunked):
        assert response.status_code == 413, response.text[:200]
        assert response.json()["code"] == "BODY_TOO_LARGE"
    for response in (long_question, long_topic):
        assert response.status_code == 422 and response.json()["code"] == "INVALID_REQUEST"


def test_a_stop_is_not_held_up_by_open_streams(tmp_path: Path) -> None:
    library = make_library(tmp_path)
    with Library(library, embeddings=False) as lib:
        stuck = TaskStore(lib.store.tasks).create("a task nobody runs", ResearchOptions()).id
    served = start(library)
    server = next(served)
    try:
        with streams(server, stuck, 3) as statuses:
            assert all(" 200 " in s for s in statuses)
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            server.process.wait(timeout=30)
            seconds = time.monotonic() - started
    finally:
        served.close()
    assert seconds < SHUTDOWN_SECONDS + 5
