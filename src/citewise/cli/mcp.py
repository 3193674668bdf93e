"""`citewise mcp`: the library as an MCP server over stdio (for desktop assistants, IDEs)."""

from __future__ import annotations

from citewise.cli.app import State, app
from citewise.config import library_dir
from citewise.errors import CitewiseError


class MCPUnavailableError(CitewiseError):
    code = "MCP_UNAVAILABLE"


@app.command()
def mcp() -> None:
    """Serve the library over MCP on stdin/stdout: tools (search_library, ask, get_evidence,
    list_documents, get_document, get_table, get_formula, search_literature, start_research,
    get_task, get_report) and each document as a resource."""
    try:
        from citewise.server.mcp import create_mcp
    except ImportError as exc:
        raise MCPUnavailableError(
            f"the MCP server needs the mcp SDK ({exc})",
            hint='pip install -e ".[mcp]" in the citewise checkout',
        ) from exc
    create_mcp(library_dir(State.library)).run("stdio")
