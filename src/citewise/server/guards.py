"""What stands between a client and the routes (plain ASGI middleware, outermost first):
the Host check against DNS rebinding, the bearer token, and the request limits (body size,
a deadline for the body, a deadline for the first byte of the answer).

A web page the user visits can make the browser talk to 127.0.0.1 under the page's own host
name (DNS rebinding); answering only Host names that mean this machine stops it reading the
library. A server on any other interface needs a token, which such a page cannot know.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

import anyio
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from citewise.errors import CitewiseError
from citewise.server.limits import Limits
from citewise.server.users import User, token_digest

# POSTs that change nothing (a read-only user may send them).
READ_POSTS = frozenset({"/ask"})


def _unauthorized() -> JSONResponse:
    return error(
        401,
        "UNAUTHORIZED",
        "missing or wrong bearer token",
        "send 'Authorization: Bearer TOKEN' (your own token for this server)",
        headers={"WWW-Authenticate": "Bearer"},
    )


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})
NOSNIFF = (b"x-content-type-options", b"nosniff")


class TokenRequiredError(CitewiseError):
    code = "TOKEN_REQUIRED"


def error(
    status: int,
    code: str,
    message: str,
    hint: str = "",
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """Every error body: {"code", "message", "hint"} (plus details for bad parameters)."""
    return JSONResponse(
        {"code": code, "message": message, "hint": hint, **extra},
        status_code=status,
        headers=headers,
    )


def is_loopback(host: str) -> bool:
    if host_name(host) == "localhost":
        return True
    try:
        return ipaddress.ip_address(host_name(host)).is_loopback
    except ValueError:
        return False


def host_name(host: str) -> str:
    """The name part of a Host header or bind address: no port, no brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def require_token_off_loopback(host: str, token: str | None) -> None:
    """A server bound anywhere but loopback answers only requests that carry a token."""
    if not is_loopback(host) and not token:
        raise TokenRequiredError(
            f"refusing to serve on non-loopback host '{host}' without a token",
            hint="give a token (--token-file FILE or $CITEWISE_TOKEN; --token TOKEN works but "
            "shows in `ps`; clients send 'Authorization: Bearer TOKEN'), or bind 127.0.0.1",
        )


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str] | None:
    """The Host names the server answers: loopback names, the bound host and `extra`; None
    (any Host) for a wildcard bind without `extra`, where the required token protects it."""
    added = {host_name(h) for h in extra if host_name(h)}
    if host_name(bound) in WILDCARDS and not added:
        return None
    named = set() if host_name(bound) in WILDCARDS else {host_name(bound)}
    return LOOPBACK_NAMES | named | added


class HostGuard:
    """421 for a request whose Host is not one of the allowed names."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str] | None) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.allowed is not None:
            host = Headers(scope=scope).get("host")
            if host is not None and host_name(host) not in self.allowed:
                refused = error(
                    421,
                    "HOST_NOT_ALLOWED",
                    f"this server does not answer for host '{host[:100]}'",
                    "use http://127.0.0.1:PORT or http://localhost:PORT; other names need "
                    "'citewise serve --allow-host NAME'",
                )
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BearerAuth:
    """401 unless the request carries 'Authorization: Bearer TOKEN'; a GET of a `public`
    path (the web app's static shell, the same for every library) needs none, since a
    browser cannot add a header to a page load.

    With `users` (token digest -> User), each user's own token is accepted instead and the
    request's `state.user` names them; a read-only user gets 403 on any change (anything
    but GET, HEAD and the read-only POSTs in `READ_POSTS`)."""

    def __init__(
        self,
        app: ASGIApp,
        token: str | None,
        public: frozenset[str] = frozenset(),
        users: Mapping[str, User] | None = None,
    ) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode() if token else None
        self.public = public
        self.users = users or {}

    def _public(self, scope: Scope) -> bool:
        return scope.get("method") in ("GET", "HEAD") and scope.get("path") in self.public

    def _user(self, scope: Scope) -> User | None:
        given = Headers(scope=scope).get("authorization", "")
        scheme, _, token = given.partition(" ")
        found = self.users.get(token_digest(token)) if scheme == "Bearer" and token else None
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.users and not self._public(scope):
            user = self._user(scope)
            if user is None:
                await _unauthorized()(scope, receive, send)
                return
            changes = scope.get("method") not in ("GET", "HEAD", "OPTIONS")
            if changes and not user.writes and scope.get("path") not in READ_POSTS:
                forbidden = error(
                    403,
                    "FORBIDDEN",
                    f"user '{user.name}' may only read this library",
                    "ask whoever runs the server for a token with role write",
                )
                await forbidden(scope, receive, send)
                return
            scope.setdefault("state", {})["user"] = user.name
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and self.expected is not None and not self._public(scope):
            given = Headers(scope=scope).get("authorization", "").encode()
            if not secrets.compare_digest(given, self.expected):
                refused = error(
                    401,
                    "UNAUTHORIZED",
                    "missing or wrong bearer token",
                    "send 'Authorization: Bearer TOKEN' (the token given to 'citewise serve')",
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


class RequestLimits:
    """A body past `max_body_bytes` gets 413, a body not in within `body_seconds` 408, an
    answer not started within `request_seconds` 504; each closes the connection."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.limits.max_body_bytes:
            await self._too_large()(scope, receive, send)
            return
        has_body = (length.isdigit() and int(length) > 0) or "chunked" in headers.get(
            "transfer-encoding", ""
        )
        await _Exchange(self.limits, receive, send, has_body).run(self.app, scope)

    def _too_large(self) -> JSONResponse:
        return error(
            413,
            "BODY_TOO_LARGE",
            f"the request body is over {self.limits.max_body_bytes} bytes",
            "send the question or task as a small JSON object",
            headers={"Connection": "close"},
        )


class _Exchange:
    """One request through RequestLimits: counts and times the body, watches for the
    answer's first byte, and drops what the app sends after a timeout answered for it."""

    def __init__(self, limits: Limits, receive: Receive, send: Send, has_body: bool) -> None:
        self.limits = limits
        self._receive = receive
        self._send = send
        self.body_done = not has_body
        self.received = 0
        self.body_deadline = anyio.current_time() + limits.body_seconds
        self.answering = anyio.Event()  # the app started its answer, or returned
        self.timed_out = False

    async def receive(self) -> Message:
        if self.body_done:
            return await self._receive()
        with anyio.move_on_after(max(self.body_deadline - anyio.current_time(), 0)) as wait:
            message = await self._receive()
        if wait.cancelled_caught:
            raise HTTPException(
                408,
                f"the request body did not arrive within {self.limits.body_seconds:g} s",
                headers={"Connection": "close"},
            )
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.limits.max_body_bytes:
                raise HTTPException(
                    413,
                    f"the request body is over {self.limits.max_body_bytes} bytes",
                    headers={"Connection": "close"},
                )
            self.body_done = not message.get("more_body", False)
        return message

    async def send(self, message: Message) -> None:
        if self.timed_out:
            return
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            headers.append(NOSNIFF)
            if not self.body_done:  # an unread body would keep the connection busy
                headers = [(k, v) for k, v in headers if k.lower() != b"connection"]
                headers.append((b"connection", b"close"))
            message = {**message, "headers": headers}
            self.answering.set()
        await self._send(message)

    async def run(self, app: ASGIApp, scope: Scope) -> None:
        failure: Exception | None = None

        async def serve() -> None:
            nonlocal failure
            try:
                await app(scope, self.receive, self.send)
            except Exception as exc:  # re-raised below, outside the task group
                failure = exc
            finally:
                self.answering.set()

        async with anyio.create_task_group() as group:
            group.start_soon(serve)
            with anyio.move_on_after(self.limits.request_seconds):
                await self.answering.wait()
            if not self.answering.is_set():
                await self._timeout(scope)
                group.cancel_scope.cancel()  # a sync route's thread still runs to its end
        if failure is not None and not self.timed_out:
            raise failure

    async def _timeout(self, scope: Scope) -> None:
        self.timed_out = True
        late = error(
            504,
            "REQUEST_TIMEOUT",
            f"no answer within {self.limits.request_seconds:g} s",
            "try a narrower question, or fewer documents",
            headers={"Connection": "close"},
        )
        await late(scope, self._receive, self._send)
