"""Hostile values in otherwise normal requests: a PDF page of 10,000 and 14,400 points, a
model "name" that is a path on the server's disk, a configured model that cannot load, a
Host header naming someone else's site (DNS rebinding)."""

from __future__ import annotations

import concurrent.futures

import pymupdf
import pytest

from citewise.errors import CitewiseError
from citewise.server import create_app
from tests.server.conftest import ALLOWED_NAME, BROKEN_MODEL, Hostile
from tests.server.test_tasks_api import TOPIC, wait_for

MAX_RENDER_PIXELS = 4_000_000  # server/limits.py


def test_giant_pages_render_within_the_pixel_budget(hostile: Hostile) -> None:
    paths = [f"/documents/{hostile.giant}/pages/{n}.png" for n in (1, 2, 1, 2)]
    # four at once: renders queue for the one render slot
    with hostile.server.client() as http, concurrent.futures.ThreadPoolExecutor(4) as pool:
        pages = list(pool.map(http.get, paths))
    for response in pages:
        assert response.status_code == 200, response.text[:300]
        assert response.headers["content-type"] == "image/png"
        image = pymupdf.Pixmap(response.content)
        assert image.width * image.height <= MAX_RENDER_PIXELS
        assert image.width == image.height  # square pages stay square
        assert image.width > 1000  # shrunk to the budget, not to a thumbnail


def test_llm_over_http_names_only_configured_models(hostile: Hostile) -> None:
    with hostile.server.client() as http:
        before = len(http.get("/tasks").json())
        existing = http.post("/tasks", json={"topic": TOPIC, "llm": "llamacpp:/etc/passwd"})
        missing = http.post("/tasks", json={"topic": TOPIC, "llm": "llamacpp:/no/such.gguf"})
        remote = http.post("/tasks", json={"topic": TOPIC, "llm": "ollama:anything"})
        after = len(http.get("/tasks").json())
    for refused in (existing, missing, remote):
        assert refused.status_code == 422
        assert refused.json()["code"] == "MODEL_NOT_ALLOWED"
        assert BROKEN_MODEL in refused.json()["hint"]  # the hint lists what is configured
    # the same answer whether or not the file exists: no way to probe the server's disk
    assert existing.json()["message"].replace("/etc/passwd", "X") == missing.json()[
        "message"
    ].replace("/no/such.gguf", "X")
    assert after == before  # nothing was started


def test_a_configured_model_that_cannot_load_fails_its_task(hostile: Hostile) -> None:
    with hostile.server.client() as http:
        started = http.post("/tasks", json={"topic": TOPIC, "llm": BROKEN_MODEL})
        assert started.status_code == 202, started.text
        task_id = started.json()["id"]
        shown = wait_for(http, task_id, lambda t: not t["running"], seconds=30)
    assert shown["state"] == "failed"
    errors = [e for e in shown["events"] if e["kind"] == "error"]
    assert errors and "broken.gguf" in errors[-1]["data"]["error"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example"])
def test_a_rebinding_host_is_refused(hostile: Hostile, host: str) -> None:
    with hostile.server.client() as http:
        for path in ("/documents", "/documents/", "/openapi.json"):
            response = http.get(path, headers={"Host": host})
            assert response.status_code == 421, (path, response.status_code)
            assert response.json()["code"] == "HOST_NOT_ALLOWED"
            assert "location" not in response.headers


def test_loopback_and_allowed_hosts_are_answered(hostile: Hostile) -> None:
    port = hostile.server.url.rsplit(":", 1)[1]
    with hostile.server.client() as http:
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", ALLOWED_NAME):
            assert http.get("/documents", headers={"Host": host}).status_code == 200, host
        slash = http.get("/documents/", headers={"Host": f"localhost:{port}"})
    # no redirect that would copy the Host header into Location
    assert slash.status_code == 404 and "location" not in slash.headers
    assert slash.json()["code"] == "NOT_FOUND"


def test_the_app_itself_refuses_a_non_loopback_bind_without_a_token() -> None:
    for host in ("0.0.0.0", "192.168.1.20", "[::]"):
        with pytest.raises(CitewiseError) as refused:
            create_app(host=host)
        assert refused.value.code == "TOKEN_REQUIRED"
    create_app(host="0.0.0.0", token="t0ken")  # with a token it builds
    create_app(host="::1")
