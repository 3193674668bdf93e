"""Research tasks over HTTP: start in the background, poll, stream events, read the report,
cancel a running task; and the bearer token."""

from __future__ import annotations

import json
import subprocess
import time
from typing import Any

import httpx

from tests.loopback import free_port
from tests.server.conftest import TOKEN, Server, environment, serve_command

TOPIC = "acoustic granite sorting accuracy"


def wait_for(http: httpx.Client, task_id: str, done: Any, seconds: float = 60) -> dict[str, Any]:
    deadline = time.time() + seconds
    while True:
        shown: dict[str, Any] = http.get(f"/tasks/{task_id}").json()
        if done(shown):
            return shown
        assert time.time() < deadline, f"task stuck in {shown['state']}"
        time.sleep(0.2)


def sse(http: httpx.Client, path: str) -> list[tuple[str, dict[str, Any]]]:
    """(event name, data) of every message until the server ends the stream."""
    messages, name = [], "message"
    with http.stream("GET", path, timeout=60) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[len("event: ") :]
            elif line.startswith("data: "):
                messages.append((name, json.loads(line[len("data: ") :])))
    return messages


def test_research_task_runs_to_a_report_in_the_background(server: Server) -> None:
    with server.client() as http:
        started = http.post("/tasks", json={"topic": TOPIC, "rounds": 2})
        assert started.status_code == 202
        task_id = started.json()["id"]
        assert started.json()["state"] in {"planning", "searching", "screening", "extracting"}
        assert task_id in [t["id"] for t in http.get("/tasks").json()]
        shown = wait_for(http, task_id, lambda t: t["state"] == "completed")
        events = sse(http, f"/tasks/{task_id}/events")
        markdown = http.get(f"/tasks/{task_id}/report")
        html = http.get(f"/tasks/{task_id}/report", params={"format": "html"})
        bad_format = http.get(f"/tasks/{task_id}/report", params={"format": "pdf"})
        late_cancel = http.delete(f"/tasks/{task_id}")
    assert shown["topic"] == TOPIC and shown["options"]["rounds"] == 2
    assert shown["evidence"] > 0 and shown["events"]
    assert events[0][0] == "created" and events[0][1]["data"]["topic"] == TOPIC
    assert [e[1]["id"] for e in events[:-1]] == sorted(e[1]["id"] for e in events[:-1])
    assert events[-1] == ("end", {**events[-1][1], "state": "completed"})
    assert {e[1]["stage"] for e in events[:-1]} >= {"plan", "write", "verify"}
    assert markdown.status_code == 200 and markdown.headers["content-type"].startswith(
        "text/markdown"
    )
    text = markdown.text
    for heading in ("# Research report: ", "## Executive summary", "## References"):
        assert heading in text
    assert "93.4%" in text  # a quote from the library's granite paper
    assert html.status_code == 200 and html.text.lstrip().lower().startswith("<!doctype html")
    # the report shows links from source records: nothing in it may run, load or post
    policy = html.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy
    assert html.headers["x-content-type-options"] == "nosniff"
    assert bad_format.status_code == 422
    assert late_cancel.status_code == 409 and late_cancel.json()["code"] == "TASK_STATE"


def test_unknown_tasks_are_404_and_bad_tasks_422(server: Server) -> None:
    with server.client() as http:
        for path in ("/tasks/nope", "/tasks/nope/report", "/tasks/nope/events"):
            response = http.get(path)
            assert response.status_code == 404, path
            assert response.json()["code"] == "TASK_NOT_FOUND"
        assert http.delete("/tasks/nope").status_code == 404
        unknown_source = http.post("/tasks", json={"topic": TOPIC, "sources": ["myspace"]})
        no_topic = http.post("/tasks", json={"rounds": 0})
    assert unknown_source.status_code == 422 and "myspace" in unknown_source.json()["message"]
    assert no_topic.status_code == 422 and no_topic.json()["code"] == "INVALID_REQUEST"


def test_delete_cancels_a_running_task(guarded_server: Server) -> None:
    with guarded_server.client(TOKEN) as http:
        task_id = http.post("/tasks", json={"topic": TOPIC}).json()["id"]
        # the stalling server holds the task inside `extracting` until it is cancelled
        wait_for(http, task_id, lambda t: any(e["kind"] == "stall" for e in t["events"]))
        assert http.get(f"/tasks/{task_id}/report").status_code == 409
        cancelled = http.delete(f"/tasks/{task_id}")
        assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
        shown = wait_for(http, task_id, lambda t: not t["running"], seconds=20)
        events = sse(http, f"/tasks/{task_id}/events")
    assert shown["state"] == "cancelled"
    assert not any(e["stage"] == "extract" and e["kind"] == "output" for e in shown["events"])
    assert events[-1][0] == "end" and events[-1][1]["state"] == "cancelled"


def test_token_is_required_when_set(guarded_server: Server) -> None:
    with guarded_server.client() as anonymous, guarded_server.client("wrong") as wrong:
        for response in (anonymous.get("/documents"), wrong.get("/tasks")):
            assert response.status_code == 401
            assert response.json()["code"] == "UNAUTHORIZED"
            assert response.headers["www-authenticate"] == "Bearer"
    with guarded_server.client(TOKEN) as http:
        response = http.get("/documents")
    assert response.status_code == 200 and len(response.json()) == 2


def test_non_loopback_bind_without_token_refuses_to_start(server: Server) -> None:
    command = serve_command(server.library, free_port(), "--host", "0.0.0.0")
    result = subprocess.run(command, env=environment(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "TOKEN_REQUIRED" in result.stderr and "--token" in result.stderr
