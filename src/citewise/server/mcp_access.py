"""Who calls an MCP tool over HTTP and what they may call: the user whose token the
request carried (`citewise mcp --http --users`, the users file of `serve --users`), their
role against the tool's readOnlyHint, and the audit log's line for the call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from citewise.errors import CitewiseError

# The audit log's names for the calls `citewise serve` logs too; other tools by their name.
AUDITED = {
    "ask": "ask",
    "search_library": "search",
    "start_research": "research",
    "queue_cancel": "cancel",  # as POST /queue/cancel
}
# The argument that names what a call is about, first found first.
SUBJECTS = ("question", "query", "topic", "document_id", "document", "block_id", "task_id")


class ReadOnlyUserError(CitewiseError):
    """A user whose token has role read called a tool that changes the library."""

    code = "FORBIDDEN"
    kind = "conflict"


def request_user(request: object) -> str | None:
    """The user BearerAuth found for this HTTP request; None on stdio and without users."""
    state = getattr(request, "scope", {}).get("state") or {}
    user = state.get("user")
    return str(user) if user else None


def refusal(
    roles: Mapping[str, str], user: str | None, tool: str, read_only: bool
) -> ReadOnlyUserError | None:
    """Why `user` may not call `tool` (a tool that changes the library needs role write);
    None when they may, or when the call came without a user (stdio, one shared token)."""
    if user is None or read_only or roles.get(user) == "write":
        return None
    return ReadOnlyUserError(
        f"user '{user}' may only read this library ({tool} changes it)",
        hint="ask whoever runs the server for a token with role write",
    )


def audit_entry(
    tool: str, arguments: dict[str, Any], error: str | None
) -> tuple[str, str | None, dict[str, object]]:
    """(action, subject, detail) of the audit log's line for one call."""
    subject = next((str(arguments[k]) for k in SUBJECTS if arguments.get(k)), None)
    detail: dict[str, object] = {"via": "mcp", "tool": tool, "arguments": arguments}
    if error:
        detail["error"] = error
    return AUDITED.get(tool, tool), subject, detail


def error_code(exc: BaseException) -> str:
    """The citewise code of a failed call (a ToolError keeps its CitewiseError as cause)."""
    for found in (exc, exc.__cause__):
        if isinstance(found, CitewiseError):
            return found.code
    return type(exc).__name__
