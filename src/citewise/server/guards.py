"""What stands between a client and the routes (plain ASGI middleware, outermost first):
the Host check against DNS rebinding, the bearer token, and the request limits (body size,
a deadline for the body, a deadline for the first byte of the answer).

A web page the user visits can make the browser talk to 127.0.0.1 under the page's own host
name (DNS rebinding); answering only Host names that mean this machine stops it reading the
library. A server on any other interface needs a token, which such a page cannot know.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Iterable, Mapping
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, quote

import anyio
from fastapi.responses import JSONResponse, Response
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from citewise.errors import CitewiseError
from citewise.server.limits import Limits
from citewise.server.permissions import allows, http_action
from citewise.server.users import User, token_digest

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


UI_COOKIE = "citewise-ui"


def ui_cookie_value(token: str) -> str:
    """What the web app's cookie holds: a digest of the token, not the token, so the cookie
    opens the shell (pages, scripts, the schema) and nothing that reads or changes data."""
    return hmac.new(token.encode(), b"citewise web app", hashlib.sha256).hexdigest()


class BearerAuth:
    """401 unless the request carries 'Authorization: Bearer TOKEN'.

    A browser cannot add a header to a page load, so GETs of the `shell` paths (the web
    app's files, /docs, /openapi.json: the same for every library) also pass with the web
    app's cookie. The cookie is set by opening `/?token=TOKEN` (the link `citewise serve`
    prints): the answer redirects to `/#token=TOKEN`, where the app keeps the token for its
    bearer headers, and sets the cookie HttpOnly and SameSite=Strict. A cookie never opens
    a data route and never authorizes a change (CSRF): those need the header.

    With `users` (token digest -> User, `serve --users`), each user's own bearer token is
    accepted instead, the shell's files need none, and the request's `state.user` names the
    user; a read-only user gets 403 on an action server/permissions.py gives to role write
    (the `readable` paths pass: MCP over HTTP passes /mcp and checks each tool's action)."""

    def __init__(
        self,
        app: ASGIApp,
        token: str | None,
        public: frozenset[str] = frozenset(),
        users: Mapping[str, User] | None = None,
        readable: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.readable = readable
        self.token = token
        self.expected = f"Bearer {token}".encode() if token else None
        self.cookie = ui_cookie_value(token) if token else ""
        self.public = public
        self.users = users or {}

    def _shell(self, scope: Scope) -> bool:
        return scope.get("method") in ("GET", "HEAD") and scope.get("path") in self.public

    def _user(self, scope: Scope) -> User | None:
        scheme, _, token = Headers(scope=scope).get("authorization", "").partition(" ")
        return self.users.get(token_digest(token)) if scheme == "Bearer" and token else None

    async def _per_user(self, scope: Scope, receive: Receive, send: Send) -> None:
        user = self._user(scope)
        if user is None and not self._shell(scope):
            refused = error(
                401,
                "UNAUTHORIZED",
                "missing or wrong bearer token",
                "send 'Authorization: Bearer TOKEN' (your own token for this server)",
                headers={"WWW-Authenticate": "Bearer"},
            )
            await refused(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        action = http_action(str(scope.get("method", "")), path)
        if user is not None and path not in self.readable and not allows(user.role, action):
            forbidden = error(
                403,
                "FORBIDDEN",
                f"user '{user.name}' may only read this library",
                "ask whoever runs the server for a token with role write",
            )
            await forbidden(scope, receive, send)
            return
        if user is not None:
            scope.setdefault("state", {}).update(user=user.name, role=user.role)
        await self.app(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.users:
            await self._per_user(scope, receive, send)
            return
        if scope["type"] != "http" or self.expected is None or self.token is None:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        given = headers.get("authorization", "").encode()
        if secrets.compare_digest(given, self.expected):
            await self.app(scope, receive, send)
            return
        if self._shell(scope):
            if _cookie(headers, UI_COOKIE, self.cookie):
                await self.app(scope, receive, send)
                return
            offered = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
            if offered and secrets.compare_digest(offered[0].encode(), self.token.encode()):
                await self._open_session(scope, receive, send)
                return
        refused = error(
            401,
            "UNAUTHORIZED",
            "missing or wrong bearer token",
            "send 'Authorization: Bearer TOKEN' (the token given to 'citewise serve'); in a "
            "browser, open the link 'citewise serve' printed (/?token=TOKEN)",
            headers={"WWW-Authenticate": "Bearer"},
        )
        await refused(scope, receive, send)

    async def _open_session(self, scope: Scope, receive: Receive, send: Send) -> None:
        """303 to the page without the token in its URL (the fragment carries it to the
        app and is never sent to a server), with the shell's cookie."""
        path = scope.get("path", "/")
        cookie = f"{UI_COOKIE}={self.cookie}; Path=/; HttpOnly; SameSite=Strict"
        location = f"{path}#token={quote(self.token or '', safe='')}"
        response = Response(
            status_code=303,
            headers={
                "Location": location,
                "Set-Cookie": cookie,
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
            },
        )
        await response(scope, receive, send)


def _cookie(headers: Headers, name: str, expected: str) -> bool:
    jar = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except CookieError:
        return False
    morsel = jar.get(name)
    return morsel is not None and secrets.compare_digest(morsel.value.encode(), expected.encode())


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
