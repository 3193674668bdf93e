"""Connections with deadlines and a cap, below HTTP (so before the Host check and the token):
what `citewise serve` and `citewise mcp --http` run uvicorn with.

uvicorn keeps a connection open for as long as its client likes until the first request
arrives, and a head that never finishes holds its socket forever; a thousand such sockets use
up the process's file descriptors and nobody else gets in. Here every connection is in one of
four phases, each with its own rule:

- idle (no request in flight, no byte of the next one): closed after `idle_seconds`;
- head (part of a request's line and headers): 408 and closed `head_seconds` after it went idle;
- body (the head is in, the body is arriving): RequestLimits answers 408 at `body_seconds`;
  the connection is closed here too if that answer never went out;
- serving (the app is answering): no deadline here (RequestLimits has the answer's).

At most `max_connections` are open (fewer under a low file-descriptor limit) and at most
`max_client_connections` from one client address. A connection past either cap takes the
place of the oldest idle, head or body connection of the address holding the most (a
client with a request in flight is never cut); when every connection is serving, the new one
gets 503 and is closed.
"""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from citewise.server.limits import Limits

SWEEP_SECONDS = 0.25  # how often deadlines are checked: a deadline holds to within this
BODY_GRACE_SECONDS = 2.0  # after body_seconds, for RequestLimits' own 408 to go out first
FD_RESERVE = 128  # descriptors kept for the library's files, readers, renders and logs
# asyncio accepts up to its listen backlog in one go, before any connection is admitted here:
# a small batch keeps the accepted-but-not-yet-admitted sockets (about four batches) few
ACCEPT_BATCH = 32
LISTEN_BACKLOG = 2048  # the kernel's queue of connections not accepted yet (uvicorn's default)
PEEK_BYTES = 16 * 1024  # uvicorn's h11 takes request heads up to this size


class Phase(Enum):
    IDLE = "idle"
    HEAD = "head"
    BODY = "body"
    SERVING = "serving"


@dataclass(frozen=True)
class Caps:
    """The connection limits one server enforces (Limits, bounded by the fd limit)."""

    idle_seconds: float
    head_seconds: float
    body_seconds: float
    max_connections: int
    max_client_connections: int

    @classmethod
    def of(cls, limits: Limits, fd_limit: int | None = None) -> Caps:
        soft = fd_limit if fd_limit is not None else _soft_fd_limit()
        room = max(soft - FD_RESERVE - 4 * ACCEPT_BATCH, soft // 2, 1)
        total = min(limits.max_connections, room)
        return cls(
            idle_seconds=limits.idle_seconds,
            head_seconds=limits.head_seconds,
            body_seconds=limits.body_seconds,
            max_connections=total,
            max_client_connections=min(limits.max_client_connections, total),
        )


def _soft_fd_limit() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def _raw_response(status: str, code: str, message: str, hint: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, written below the app."""
    body = json.dumps({"code": code, "message": message, "hint": hint}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("latin-1") + body


class Tracked:
    """What the guard needs of a connection (the protocol below implements it)."""

    client_key: str
    idle_since: float  # when its last answer ended, or it opened
    request_since: float  # when the request in flight began

    def phase(self) -> Phase:
        raise NotImplementedError

    def drop(self, answer: bytes = b"") -> None:
        raise NotImplementedError

    def head_waiting(self) -> bool:
        """A whole request head has arrived and is not read yet."""
        raise NotImplementedError


def head_waiting(transport: asyncio.BaseTransport) -> bool:
    """Whether the socket under `transport` holds a whole request head nobody read yet (a
    peek: the bytes stay for the protocol). The event loop reads a connection only after it
    has admitted the others accepted with it, so a client that sent its request at once can
    still look idle here."""
    wrapped = transport.get_extra_info("socket")
    if wrapped is None:
        return False
    raw = socket.socket(fileno=wrapped.fileno())  # the same descriptor, not a copy
    try:
        waiting = raw.recv(PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except OSError:  # nothing there (EAGAIN), or the client went away
        waiting = b""
    finally:
        raw.detach()  # the transport still owns the descriptor
    return b"\r\n\r\n" in waiting


class ConnectionGuard:
    """The open connections of one server, by client address, oldest idle first."""

    def __init__(self, caps: Caps) -> None:
        self.caps = caps
        self.clock: Callable[[], float] = time.monotonic  # the serving loop's, once started
        self.open: OrderedDict[Tracked, None] = OrderedDict()
        self.by_client: dict[str, OrderedDict[Tracked, None]] = {}
        self.sweeping: asyncio.TimerHandle | None = None
        self.dropped = {"idle": 0, "head": 0, "body": 0, "evicted": 0, "refused": 0}

    def admit(self, conn: Tracked) -> bool:
        """Register `conn`, making room past a cap; False: no room (every one is serving)."""
        mine = self.by_client.get(conn.client_key)
        crowded = mine is not None and len(mine) >= self.caps.max_client_connections
        if (crowded and mine is not None and not self._evict_from(mine)) or (
            len(self.open) >= self.caps.max_connections and not self._evict()
        ):
            self.dropped["refused"] += 1
            return False
        self.open[conn] = None
        self.by_client.setdefault(conn.client_key, OrderedDict())[conn] = None
        return True

    def release(self, conn: Tracked) -> None:
        self.open.pop(conn, None)
        mine = self.by_client.get(conn.client_key)
        if mine is not None:
            mine.pop(conn, None)
            if not mine:
                del self.by_client[conn.client_key]

    def went_idle(self, conn: Tracked) -> None:
        """`conn` finished an answer: it is now the youngest idle connection."""
        if conn in self.open:
            self.open.move_to_end(conn)
            self.by_client[conn.client_key].move_to_end(conn)

    def _evict(self) -> bool:
        heaviest = max(self.by_client.values(), key=len, default=None)
        return (heaviest is not None and self._evict_from(heaviest)) or self._evict_from(self.open)

    def _evict_from(self, conns: OrderedDict[Tracked, None]) -> bool:
        """Close the oldest of `conns` that neither is answering nor has a request waiting."""
        victim = next(
            (c for c in conns if c.phase() is not Phase.SERVING and not c.head_waiting()), None
        )
        if victim is None:
            return False
        self.release(victim)
        self.dropped["evicted"] += 1
        victim.drop()
        return True

    def sweep(self) -> None:
        """Close every connection past its phase's deadline."""
        now, caps = self.clock(), self.caps
        for conn in list(self.open):
            phase = conn.phase()
            if phase is Phase.IDLE and now - conn.idle_since > caps.idle_seconds:
                answer = b""
            elif phase is Phase.HEAD and now - conn.idle_since > caps.head_seconds:
                answer = _raw_response(
                    "408 Request Timeout",
                    "HEAD_TIMEOUT",
                    f"the request's headers did not arrive within {caps.head_seconds:g} s",
                    "send the whole request line and headers at once",
                )
            elif (
                phase is Phase.BODY
                and now - conn.request_since > caps.body_seconds + BODY_GRACE_SECONDS
            ):
                answer = b""
            else:
                continue
            self.release(conn)
            self.dropped[phase.value] += 1
            conn.drop(answer)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Sweep every SWEEP_SECONDS while any connection is open."""
        if self.sweeping is not None:
            return
        self.clock = loop.time  # the clock the connections' times are read from

        def tick() -> None:
            self.sweeping = None
            self.sweep()
            if self.open:
                self.sweeping = loop.call_later(SWEEP_SECONDS, tick)

        self.sweeping = loop.call_later(SWEEP_SECONDS, tick)


REFUSED = _raw_response(
    "503 Service Unavailable",
    "TOO_MANY_CONNECTIONS",
    "every connection this server allows is answering a request",
    "retry in a few seconds",
)


def guarded_protocol(base: type[Any], guard: ConnectionGuard) -> type[Any]:
    """uvicorn's HTTP protocol class `base` (h11 or httptools) with `guard`'s deadlines and
    caps: each connection registers on open, marks its phases and leaves on close."""

    class Guarded(base):  # type: ignore[misc]  # a base chosen at run time (h11, httptools)
        client_key = ""
        idle_since = 0.0
        request_since = 0.0

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self.client_key = str(self.client[0]) if self.client else ""
            self.idle_since = self.request_since = self.loop.time()
            self.idle_cycle: object | None = None  # the last request answered
            self.heard = False  # a byte of the next request arrived
            if not guard.admit(self):
                transport.write(REFUSED)
                transport.close()
                return
            guard.start(self.loop)

        def data_received(self, data: bytes) -> None:
            self.heard = True
            before = self.cycle
            super().data_received(data)
            if self.cycle is not before:
                self.request_since = self.loop.time()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.cycle is None or self.cycle.response_complete:  # none pipelined
                self.idle_since = self.loop.time()
                self.idle_cycle = self.cycle
                self.heard = False
                guard.went_idle(self)

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self)
            super().connection_lost(exc)

        def phase(self) -> Phase:
            cycle = self.cycle
            answering = cycle is not None and not cycle.response_complete
            if answering and cycle is not self.idle_cycle:
                return Phase.BODY if cycle.more_body else Phase.SERVING
            return Phase.HEAD if self.heard else Phase.IDLE

        def head_waiting(self) -> bool:
            return not self.transport.is_closing() and head_waiting(self.transport)

        def drop(self, answer: bytes = b"") -> None:
            if self.transport.is_closing():
                return
            if answer:
                self.transport.write(answer)
            self.transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


def run(app: Any, host: str, port: int, limits: Limits, shutdown_seconds: float) -> None:
    """Serve `app` on host:port with uvicorn under `limits`' connection rules, until a
    signal stops it (open answers get `shutdown_seconds`)."""
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            for server in getattr(self, "servers", []):
                for listening in server.sockets:
                    _listen(listening.fileno(), LISTEN_BACKLOG)

    caps = Caps.of(limits)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws="none",  # no route upgrades; an upgraded socket would leave the guard's count
        backlog=ACCEPT_BATCH,  # asyncio's accept batch; the kernel's queue is reset to more
        timeout_keep_alive=max(1, round(limits.idle_seconds)),
        timeout_graceful_shutdown=round(shutdown_seconds),
    )
    config.http = guarded_protocol(AutoHTTPProtocol, ConnectionGuard(caps))
    Server(config).run()


def _listen(fileno: int, backlog: int) -> None:
    """listen() again on a listening socket: only its queue's length changes."""
    raw = socket.socket(fileno=fileno)
    try:
        raw.listen(backlog)
    finally:
        raw.detach()
