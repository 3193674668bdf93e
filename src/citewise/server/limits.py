"""How much one server gives any client: open connections and their deadlines (enforced
below HTTP by server/connections.py), body sizes and deadlines, open event streams,
concurrent research tasks, page-render pixels. Errors past a limit are CitewiseErrors with an
HTTP status of their own, so every face of the server answers them as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.errors import CitewiseError, Kind


@dataclass(frozen=True)
class Limits:
    idle_seconds: float = 5.0  # a connection with no request in flight and no byte arriving
    head_seconds: float = 10.0  # for a request's line and headers, from the connection's idle
    max_connections: int = 512  # open at once (fewer under a low file-descriptor limit)
    max_client_connections: int = 64  # open at once from one client address
    max_body_bytes: int = 256 * 1024  # every JSON body the API takes fits in a few KB
    body_seconds: float = 10.0  # to send the whole request body once the headers are in
    request_seconds: float = 300.0  # to the first byte of the answer (streams then run on)
    max_streams: int = 32  # open GET /tasks/{id}/events streams
    max_tasks: int = 4  # research tasks running at once
    max_readers: int = 8  # read requests served at once, each on a connection of its own
    max_render_pixels: int = 4_000_000  # width * height of one page image (~12 MB of RGB)
    render_wait_seconds: float = 30.0  # for the one render slot before answering 503


# The limits create_app uses when given none (a test wrapper may replace it before serving).
DEFAULTS = Limits()

MAX_QUESTION_CHARS = 4000
MAX_TOPIC_CHARS = 2000
MAX_ID_CHARS = 200
MAX_LIST_ITEMS = 100


class LimitError(CitewiseError):
    """A request past one of the server's limits (kind too_many, or busy: HTTP 429 / 503)."""

    code = "LIMIT_EXCEEDED"
    kind: Kind = "too_many"


class TooManyStreamsError(LimitError):
    code = "TOO_MANY_STREAMS"


class TooManyTasksError(LimitError):
    code = "TOO_MANY_TASKS"


class RenderBusyError(LimitError):
    code = "RENDER_BUSY"
    kind: Kind = "busy"
