"""`citewise serve`: the HTTP API over the current library (FastAPI + uvicorn)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from citewise.cli import parsing as cli
from citewise.cli.app import app, err, settings
from citewise.errors import CitewiseError

SHUTDOWN_SECONDS = 5  # then open event streams are cut, so a stop never hangs on them


class ServerUnavailableError(CitewiseError):
    code = "SERVER_UNAVAILABLE"


class BadTokenFileError(CitewiseError):
    code = "BAD_TOKEN_FILE"


def read_token(token: str | None, token_file: Path | None) -> str | None:
    """--token, else the first line of --token-file, else $CITEWISE_TOKEN, else None."""
    if token:
        err.print(
            "citewise: warning: --token shows in `ps` to every user of this machine; "
            "use --token-file FILE or $CITEWISE_TOKEN"
        )
        return token
    if token_file is not None:
        try:
            lines = token_file.read_text(encoding="utf-8").strip().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise BadTokenFileError(
                f"cannot read the token file '{token_file}': {exc}",
                hint="give a readable text file whose first line is the token",
            ) from exc
        if not lines or not lines[0].strip():
            raise BadTokenFileError(f"the token file '{token_file}' is empty", hint="")
        return lines[0].strip()
    return settings().value("CITEWISE_TOKEN") or None


@app.command()
def serve(
    host: Annotated[
        str, cli.Option("--host", help="Interface to bind; anything but loopback needs a token.")
    ] = "127.0.0.1",
    port: Annotated[int, cli.Option("--port", min=0, max=65535)] = 8765,
    token: Annotated[
        str | None,
        cli.Option(
            "--token",
            help="Require 'Authorization: Bearer TOKEN' on every request (visible in `ps`: "
            "prefer --token-file or $CITEWISE_TOKEN).",
        ),
    ] = None,
    token_file: Annotated[
        Path | None,
        cli.Option("--token-file", help="Read the token from the first line of this file."),
    ] = None,
    users: Annotated[
        Path | None,
        cli.Option(
            "--users",
            help="users.toml: a token and role (read|write) per user; the audit log of a "
            "PostgreSQL library names who asked what (see 'citewise user').",
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        cli.Option(
            "--allow-host",
            help="Also answer requests whose Host header is NAME (besides loopback names "
            "and --host); repeatable.",
        ),
    ] = None,
) -> None:
    """Serve the HTTP API (ask, search, documents, page images, research tasks; OpenAPI at
    /openapi.json) on loopback, or on HOST with a token."""
    secret = read_token(token, token_file)
    try:
        import uvicorn  # noqa: F401  (run_server's; missing: the same hint)

        from citewise.server import create_app
    except ImportError as exc:
        raise ServerUnavailableError(
            f"the server needs FastAPI and uvicorn ({exc})",
            hint='pip install -e ".[server]" in the citewise checkout',
        ) from exc
    from citewise.server.users import load_users

    chosen = settings()
    accounts = load_users(users) if users else None
    served = create_app(
        chosen.library, secret, host, allow_host or (), settings=chosen, users=accounts
    )
    _announce(chosen.library, host, port, secret)
    run_server(served, host, port)


def _announce(directory: Path, host: str, port: int, secret: str | None) -> None:
    """Where the API and (with a token) the web app answer, on stderr."""
    err.print(f"citewise: serving {directory} on http://{host}:{port} (OpenAPI: /openapi.json)")
    if secret:
        where = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        err.print(f"citewise: web app: http://{where}:{port}/?token={quote(secret, safe='')}")


def run_server(served: Any, host: str, port: int) -> None:
    """uvicorn under the server's connection deadlines and caps (server/connections.py),
    cutting open streams SHUTDOWN_SECONDS after a stop."""
    from citewise.server import limits
    from citewise.server.connections import run

    run(served, host, port, limits.DEFAULTS, SHUTDOWN_SECONDS)
