"""Every CitewiseError has a kind from the one table, and the kind alone decides the CLI's
exit code and the server's HTTP status (a new not-found error answers 404, not 422)."""

from __future__ import annotations

import importlib
import pkgutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

import citewise
from citewise.errors import KINDS, CitewiseError
from citewise.server.app import create_app
from tests.loopback import free_port


def all_subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *all_subclasses(sub)}
    return found


def citewise_errors() -> set[type[CitewiseError]]:
    for module in pkgutil.walk_packages(citewise.__path__, "citewise."):
        if module.name.endswith("__main__"):  # running it would start the CLI
            continue
        try:
            importlib.import_module(module.name)
        except ModuleNotFoundError as exc:
            # a face on an optional extra (server/mcp.py needs [mcp]): its errors are
            # checked where the extra is installed, as CI does
            if (exc.name or "").startswith("citewise"):
                raise
    return {c for c in all_subclasses(CitewiseError) if c.__module__.startswith("citewise.")}


def test_every_error_class_in_src_has_a_kind_from_the_table() -> None:
    errors = citewise_errors()
    assert len(errors) > 30  # the walk really imported the package
    without = sorted(c.__qualname__ for c in errors if c.kind not in KINDS)
    assert without == []
    # no class answers a status or exit code of its own, past the table
    own = sorted(
        c.__qualname__
        for c in errors
        if "http_status" in vars(c) or "exit_code" in vars(c) or "status" in vars(c)
    )
    assert own == []


def test_kinds_map_to_exit_codes_and_statuses() -> None:
    assert (KINDS["not_found"].exit_code, KINDS["not_found"].http_status) == (3, 404)
    assert KINDS["conflict"].http_status == 409
    assert KINDS["invalid"].exit_code == 2


class NoSuchShelfError(CitewiseError):
    """An error class the server has never heard of."""

    code = "SHELF_NOT_FOUND"
    kind = "not_found"


@pytest.fixture
def app_url(tmp_path: Path) -> Iterator[str]:
    app: FastAPI = create_app(tmp_path / "library")

    @app.get("/shelves/{name}")
    def shelf(name: str) -> dict[str, str]:
        raise NoSuchShelfError(f"no shelf '{name}'", hint="there are no shelves")

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_a_new_not_found_error_answers_404_over_http(app_url: str) -> None:
    reply = httpx.get(f"{app_url}/shelves/top", timeout=10)
    assert reply.status_code == 404
    assert reply.json()["code"] == "SHELF_NOT_FOUND"
    assert reply.json()["hint"] == "there are no shelves"
    assert NoSuchShelfError("x").exit_code == 3
