"""One role -> action table for every face of a shared server: HTTP routes and MCP tools are
each an action, and an action needs a role. A `read` user may read, search, ask, chat,
compare and build matrices (what they write is the library's extraction cache, never the
user's data); only `write` starts or cancels research and cancels queued jobs.
"""

from __future__ import annotations

READ = "read"
WRITE = "write"
ADMIN = "admin"  # write, and sees every user's research tasks (GET /tasks)

# action -> the role it needs
ACTIONS = {
    "read": READ,
    "search": READ,
    "ask": READ,
    "chat": READ,
    "compare": READ,
    "matrix": READ,
    "setup": READ,
    "research": WRITE,
    "cancel": WRITE,
    "queue_cancel": WRITE,
}

# HTTP requests that are not GET or HEAD, by path: the action each is
HTTP_POSTS = {
    "/ask": "ask",
    "/chat": "chat",
    "/compare": "compare",
    "/compare/export": "compare",
    "/matrix": "matrix",
    "/matrix/export": "matrix",
    "/tools/compare_methods": "compare",
    "/tools/build_matrix": "matrix",
    "/tools/extract_setup": "setup",
    "/tasks": "research",
    "/queue/cancel": "queue_cancel",
}

# MCP tools by name: the action each is (a tool not named here is `read` when it carries
# readOnlyHint, else `research`: a new tool that changes something needs write until listed)
MCP_TOOLS = {
    "list_documents": "read",
    "get_document": "read",
    "get_evidence": "read",
    "get_table": "read",
    "get_formula": "read",
    "get_task": "read",
    "get_report": "read",
    "queue_list": "read",
    "search_library": "search",
    "search_literature": "search",
    "ask": "ask",
    "compare": "compare",
    "matrix": "matrix",
    "setup": "setup",
    "start_research": "research",
    "queue_cancel": "queue_cancel",
}


def allows(role: str, action: str) -> bool:
    """Whether a user of `role` may take `action` (an unknown action needs write)."""
    needed = ACTIONS.get(action, WRITE)
    return needed == READ or role in (WRITE, ADMIN)


def http_action(method: str, path: str) -> str:
    """The action an HTTP request is: reads for GET and HEAD, else by path (DELETE cancels)."""
    if method in ("GET", "HEAD", "OPTIONS"):
        return "read"
    if method == "DELETE":
        return "queue_cancel" if path.startswith("/queue/") else "cancel"
    return HTTP_POSTS.get(path, "research")


def mcp_action(tool: str, read_only: bool) -> str:
    return MCP_TOOLS.get(tool, "read" if read_only else "research")


# The POST paths a read user may send (BearerAuth's `readable` for `citewise serve`).
READ_POSTS = frozenset(p for p, action in HTTP_POSTS.items() if ACTIONS[action] == READ)
