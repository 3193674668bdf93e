"""Who calls an MCP tool over HTTP and what they may call: the user whose token the
request carried (`citewise mcp --http --users`, the users file of `serve --users`), their
role against the tool's readOnlyHint, and the audit log's line for the call."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from pydantic import ValidationError

from citewise.errors import CitewiseError
from citewise.server.permissions import allows, mcp_action

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
    """Why `user` may not call `tool` (server/permissions.py: the same table as HTTP's);
    None when they may, or when the call came without a user (stdio, one shared token)."""
    if user is None or allows(roles.get(user, "read"), mcp_action(tool, read_only)):
        return None
    return ReadOnlyUserError(
        f"user '{user}' may only read this library ({tool} changes it)",
        hint="ask whoever runs the server for a token with role write",
    )


def audit_entry(
    tool: str, arguments: dict[str, Any], error: str | None, answer: str | None = None
) -> tuple[str, str | None, dict[str, object]]:
    """(action, subject, detail) of the audit log's line for one call; `answer`: the text
    a call that succeeded returned."""
    subject = next((str(arguments[k]) for k in SUBJECTS if arguments.get(k)), None)
    detail: dict[str, object] = {"via": "mcp", "tool": tool, "arguments": arguments}
    if tool == "queue_cancel":  # as POST /queue/cancel logs it: what it named, what it touched
        subject = _cancel_subject(arguments)
        if answer is not None and not error:
            detail["jobs"] = _touched(answer)
    if error:
        detail["error"] = error
    return AUDITED.get(tool, tool), subject, detail


def _cancel_subject(arguments: dict[str, Any]) -> str | None:
    """The subject POST /queue/cancel logs for the same request; None when it names
    nothing (a refused request may hold anything)."""
    from citewise.api.queue_cancel import cancel_subject

    jobs, files = arguments.get("jobs"), arguments.get("files")
    jobs = jobs if isinstance(jobs, list) else []
    files = files if isinstance(files, list) else []
    everything = arguments.get("all") is True
    return cancel_subject(jobs, [str(f) for f in files], everything) or None


def _touched(answer: str) -> list[int]:
    """The job ids a queue_cancel answer (CancelReport.to_dict) lists, group by group."""
    try:
        report = json.loads(answer)
        return [int(e["job"]) for group in report.values() for e in group]
    except (ValueError, TypeError, KeyError, AttributeError):
        return []


def error_code(exc: BaseException) -> str:
    """The citewise code of a failed call: a ToolError keeps its CitewiseError as cause,
    and the SDK wraps every ToolError a tool raises in its own, so the chain is walked."""
    found: BaseException | None = exc
    for _ in range(5):
        if found is None:
            break
        if isinstance(found, CitewiseError):
            return found.code
        found = found.__cause__
    return type(exc).__name__


def coded(exc: Exception) -> Exception:
    """The error a client reads, starting with its code as the HTTP API's do: the SDK puts
    "Error executing tool NAME: " before every failure; a citewise error (a ToolError this
    server raised, with its code and hint) is given back as it was raised, and arguments
    the input schema rejects read INVALID_REQUEST. Crashes and anything else stay as the
    SDK words them."""
    if not isinstance(exc, ToolError) or isinstance(exc, UnexpectedToolError):
        return exc
    cause = exc.__cause__
    if isinstance(cause, ToolError) and isinstance(cause.__cause__, CitewiseError):
        return ToolError(str(cause))
    if isinstance(cause, ValidationError):
        wrong = sorted({".".join(str(p) for p in e["loc"]) for e in cause.errors()})
        return ToolError(
            f"INVALID_REQUEST: arguments the tool does not accept: {', '.join(wrong)}"
            " — see the tool's input schema"
        )
    return exc
