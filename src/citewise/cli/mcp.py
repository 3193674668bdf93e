"""`citewise mcp`: the library as an MCP server over stdio (for desktop assistants, IDEs),
or over streamable HTTP with the Host and token rules of `citewise serve`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from citewise.cli import parsing as cli
from citewise.cli.app import app, err, settings
from citewise.cli.serve import read_token, run_server
from citewise.errors import CitewiseError


class MCPUnavailableError(CitewiseError):
    code = "MCP_UNAVAILABLE"


UsersOption = Annotated[
    Path | None,
    cli.Option(
        "--users",
        metavar="FILE",
        help="With --http: users.toml of 'citewise serve --users' (each user's own token; "
        "role read may call only read-only tools; calls go to the audit log).",
    ),
]


@app.command()
def mcp(
    http: Annotated[
        bool, cli.Option("--http", help="Serve streamable HTTP at /mcp instead of stdio.")
    ] = False,
    host: Annotated[
        str,
        cli.Option(
            "--host",
            metavar="HOST",
            help="With --http: interface; anything but loopback needs a token.",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, cli.Option("--port", min=0, max=65535, metavar="PORT")] = 8766,
    token_file: Annotated[
        Path | None,
        cli.Option(
            "--token-file",
            metavar="FILE",
            help="With --http: require the token on this file's first line.",
        ),
    ] = None,
    users: UsersOption = None,
    allow_host: Annotated[
        list[str] | None,
        cli.Option(
            "--allow-host",
            metavar="NAME",
            help="With --http: also answer this Host name; repeatable.",
        ),
    ] = None,
) -> None:
    """Serve the library over MCP: tools (search_library, ask, get_evidence, list_documents,
    get_document, get_table, get_formula, search_literature, start_research, get_task,
    get_report; on a PostgreSQL library also queue_list, queue_cancel) and each document
    as a resource; stdio unless --http ($CITEWISE_TOKEN or --token-file sets the HTTP
    token)."""
    try:
        from citewise.server.mcp import create_mcp, http_app
    except ImportError as exc:
        raise MCPUnavailableError(
            f"the MCP server needs the mcp SDK ({exc})",
            hint='pip install -e ".[mcp]" in the citewise checkout',
        ) from exc
    from citewise.server.users import load_users

    chosen = settings()
    server = create_mcp(chosen.library, settings=chosen)
    if not http:
        server.run("stdio")
        return
    secret, known = read_token(None, token_file), load_users(users) if users else None
    _serve(http_app(server, host, secret, allow_host or (), users=known), host, port)


def _serve(served: Any, host: str, port: int) -> None:
    err.print(f"citewise: MCP over streamable HTTP on http://{host}:{port}/mcp")
    run_server(served, host, port)
