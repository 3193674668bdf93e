"""No NUL byte in any text a client sends: SQLite would store it and PostgreSQL refuse it,
so an id, a query, a question or a topic holding one answers 400 BAD_REQUEST on both stores,
before it reaches the library. The path and query string are checked before the app runs;
a JSON body as it arrives (a NUL in JSON text is written `\\u0000`)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from citewise.errors import CitewiseError
from citewise.server.guards import error

ESCAPED = b"\\u0000"


class NulByteError(CitewiseError):
    """Text holding a NUL byte (answered 400 by the app's handler, INVALID on the CLI)."""

    code = "BAD_REQUEST"
    kind = "invalid"


def has_nul(value: object) -> bool:
    """Whether `value` (text, or lists and mappings of it) holds a NUL character."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list | tuple):
        return any(has_nul(v) for v in value)
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    return False


def nul_error(where: str) -> NulByteError:
    return NulByteError(f"a NUL byte in the {where}", hint="send text without NUL characters")


class NulGuard:
    """400 BAD_REQUEST for a NUL byte in the path or query string, and (raising NulByteError
    from `receive`, for the app's handler) in the body."""

    def __init__(self, app: ASGIApp, bodies: bool = True) -> None:
        self.app = app
        self.bodies = bodies  # False: the app checks its bodies' text itself (MCP tools)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = bytes(scope.get("query_string", b"")).lower()
        if "\x00" in str(scope.get("path", "")) or b"%00" in query or b"\x00" in query:
            refused = nul_error("request's path or query string")
            await error(400, refused.code, refused.message, refused.hint)(scope, receive, send)
            return
        if not self.bodies:
            await self.app(scope, receive, send)
            return
        tail = b""

        async def checked() -> Message:
            nonlocal tail
            message = await receive()
            if message["type"] == "http.request":
                seen = tail + message.get("body", b"")
                if ESCAPED in seen or b"\x00" in seen:
                    raise nul_error("request body")
                tail = seen[-(len(ESCAPED) - 1) :]
            return message

        await self.app(scope, checked, send)
