"""A loopback HTTP server that misbehaves on purpose: a gzip bomb, a body larger than it
says or than anyone should read, a reply trickling one byte at a time. Written for the tests
alone (it does not use the replay server under test), bound to 127.0.0.1."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Misbehaviour:
    """What one path sends: `body` in `chunks` of this many bytes, `interval` seconds apart;
    `length` False leaves out Content-Length (the body ends when the connection closes)."""

    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    chunk: int = 64 * 1024
    interval: float = 0.0
    length: bool = True


def gzip_bomb(decoded: int) -> bytes:
    """`decoded` zero bytes, gzip-compressed (about a thousandth of the size)."""
    return gzip.compress(b"\0" * decoded, compresslevel=9)


def padded_json(size: int) -> bytes:
    """A valid, empty Crossref reply padded to about `size` bytes."""
    head, tail = b'{"status": "ok", "message": {"items": [], "pad": "', b'"}}'
    return head + b"x" * max(0, size - len(head) - len(tail)) + tail


class HostileServer:
    def __init__(self) -> None:
        self.routes: dict[str, Misbehaviour] = {}
        self.bytes_sent: dict[str, int] = {}
        self.hits: dict[str, int] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        # A client that hangs up mid-reply is the point, not an error worth a traceback.
        self._server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def add(self, path: str, behaviour: Misbehaviour) -> HostileServer:
        self.routes[path] = behaviour
        return self

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _count(self, path: str, sent: int) -> None:
        with self._lock:
            self.bytes_sent[path] = self.bytes_sent.get(path, 0) + sent

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                path = self.path.split("?")[0]
                behaviour = next((b for p, b in server.routes.items() if path.startswith(p)), None)
                with server._lock:
                    server.hits[path] = server.hits.get(path, 0) + 1
                if behaviour is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                for name, value in behaviour.headers.items():
                    self.send_header(name, value)
                if behaviour.length:
                    self.send_header("Content-Length", str(len(behaviour.body)))
                else:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                try:
                    for piece in pieces(behaviour):
                        self.wfile.write(piece)
                        self.wfile.flush()
                        server._count(path, len(piece))
                        if behaviour.interval:
                            time.sleep(behaviour.interval)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading: what a capped client should do

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        return Handler


def pieces(behaviour: Misbehaviour) -> Iterator[bytes]:
    body, size = behaviour.body, behaviour.chunk
    for start in range(0, len(body), size):
        yield body[start : start + size]
