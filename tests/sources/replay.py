"""A loopback HTTP server that replays canned replies: for tests, benchmarks and offline
demos of the search commands. It binds 127.0.0.1 only and never forwards anything."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Reply:
    """A canned reply; `delay` seconds pass before it is sent (a slow or timing-out server)."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class Seen:
    """A request as the server saw it (`at` is time.monotonic() on arrival)."""

    at: float
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


Responder = Callable[[Seen], Reply]


class ReplayServer:
    """Routes by longest path prefix; each route plays its replies in order, then repeats the
    last one. Unknown paths get 404."""

    def __init__(self) -> None:
        self.routes: dict[str, list[Reply | Responder]] = {}
        self.served: dict[str, int] = {}
        self.requests: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0  # the most requests the server was handling at one time
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def add(self, prefix: str, *replies: Reply | Responder) -> ReplayServer:
        """Replies for paths under `prefix`; a Responder builds one from the request."""
        self.routes[prefix] = list(replies)
        self.served[prefix] = 0
        return self

    def seen(self, prefix: str = "") -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.path.startswith(prefix)]

    def start(self) -> ReplayServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _reply_for(self, path: str) -> Reply | Responder:
        with self._lock:
            matches = [p for p in self.routes if path.startswith(p)]
            if not matches:
                return Reply(404, b"not found", {"content-type": "text/plain"})
            prefix = max(matches, key=len)
            replies = self.routes[prefix]
            index = min(self.served[prefix], len(replies) - 1)
            self.served[prefix] += 1
            return replies[index]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                parts = urlsplit(self.path)
                seen = Seen(
                    time.monotonic(),
                    "GET",
                    parts.path,
                    parse_qs(parts.query),
                    {k.lower(): v for k, v in self.headers.items()},
                )
                with server._lock:
                    server.requests.append(seen)
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                reply = server._reply_for(parts.path)
                if callable(reply):
                    reply = reply(seen)
                if reply.delay:
                    time.sleep(reply.delay)
                # Done before the reply leaves, so the client's next request cannot overlap.
                with server._lock:
                    server.in_flight -= 1
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        return Handler
