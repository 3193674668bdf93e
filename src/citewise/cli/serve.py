"""`citewise serve`: the HTTP API over the current library (FastAPI + uvicorn)."""

from __future__ import annotations

import ipaddress
import os
from typing import Annotated

import typer

from citewise.cli.app import State, app, err
from citewise.config import library_dir
from citewise.errors import CitewiseError


class TokenRequiredError(CitewiseError):
    code = "TOKEN_REQUIRED"


class ServerUnavailableError(CitewiseError):
    code = "SERVER_UNAVAILABLE"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@app.command()
def serve(
    host: Annotated[
        str, typer.Option("--host", help="Interface to bind; anything but loopback needs --token.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535)] = 8765,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="Require 'Authorization: Bearer TOKEN' on every request "
            "(default: $CITEWISE_TOKEN).",
        ),
    ] = None,
) -> None:
    """Serve the HTTP API (ask, search, documents, page images, research tasks; OpenAPI at
    /openapi.json) on loopback, or on HOST with a token."""
    token = token or os.environ.get("CITEWISE_TOKEN") or None
    if not is_loopback(host) and not token:
        raise TokenRequiredError(
            f"refusing to serve on non-loopback host '{host}' without a token",
            hint="pass --token TOKEN (clients send 'Authorization: Bearer TOKEN'), "
            "or bind 127.0.0.1",
        )
    try:
        import uvicorn

        from citewise.server import create_app
    except ImportError as exc:
        raise ServerUnavailableError(
            f"the server needs FastAPI and uvicorn ({exc})",
            hint='pip install -e ".[server]" in the citewise checkout',
        ) from exc
    directory = library_dir(State.library)
    err.print(f"citewise: serving {directory} on http://{host}:{port} (OpenAPI: /openapi.json)")
    uvicorn.run(create_app(directory, token), host=host, port=port, log_level="warning")
