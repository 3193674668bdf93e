"""One GET, read defensively: the body streamed and decoded under a size cap (a gzip bomb
stops at the cap, not in memory), the whole exchange, redirects included, under one deadline
(a reply trickling a byte at a time cannot hold a search), and redirects followed by hand so
credentials never reach another host."""

from __future__ import annotations

import asyncio
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx

from citewise.sources.base import SourceError

REDIRECTS = {301, 302, 303, 307, 308}
CHUNK = 64 * 1024
ACCEPT_ENCODING = "gzip, deflate"  # the encodings decoded here, chunk by bounded chunk
# Headers that may follow a redirect to another host; all others (API keys, Authorization,
# a source's configured headers) stay with the host they were meant for.
PORTABLE_HEADERS = frozenset({"user-agent", "accept", "accept-encoding", "accept-language"})
# Parameters whose values never go into the request log, nor to another host.
SECRET_PARAMS = re.compile(r"(?i)\b(api_key|apikey|key|token)=[^&]*")

# A URL -> why it may not be requested (None: it may).
HopCheck = Callable[[str], str | None]


class ResponseTooLarge(SourceError):
    code = "RESPONSE_TOO_LARGE"


class DeadlineExceeded(SourceError):
    code = "DEADLINE_EXCEEDED"


class RefusedURL(SourceError):
    """A redirect (or a named URL) the client will not follow."""

    code = "URL_REFUSED"


@dataclass(frozen=True)
class Caps:
    """Limits of one exchange: decoded bytes, seconds in all, seconds per read or connect."""

    max_bytes: int
    deadline: float
    timeout: float
    max_redirects: int = 5


@dataclass(frozen=True)
class Reply:
    status: int
    reason: str
    headers: dict[str, str]
    body: bytes
    url: str


def redact(url: str) -> str:
    return SECRET_PARAMS.sub(lambda m: f"{m.group(1)}=***", url)


def origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or {"http": 80, "https": 443}.get(scheme)
    return scheme, (parts.hostname or "").lower(), port


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:g} MB"


async def get(
    client: httpx.AsyncClient,
    source: str,
    url: str,
    headers: dict[str, str],
    caps: Caps,
    allow: HopCheck | None = None,
) -> Reply:
    """GET `url` through `client` (which must not follow redirects itself), every hop
    checked by `allow`; ResponseTooLarge, DeadlineExceeded or RefusedURL when a limit is hit,
    httpx errors for transport failures."""
    try:
        async with asyncio.timeout(caps.deadline):
            return await _follow(client, source, url, headers, caps, allow)
    except TimeoutError as exc:
        raise DeadlineExceeded(
            source,
            f"no complete reply from {redact(url)} within {caps.deadline:g} s (gave up)",
            hint="the server is too slow; try again later, or raise its deadline in sources.yaml",
        ) from exc


async def _follow(
    client: httpx.AsyncClient,
    source: str,
    url: str,
    headers: dict[str, str],
    caps: Caps,
    allow: HopCheck | None,
) -> Reply:
    sent = {"Accept-Encoding": ACCEPT_ENCODING, **headers}
    home = origin(url)
    current = url
    for _ in range(caps.max_redirects + 1):
        problem = allow(current) if allow else None
        if problem:
            raise RefusedURL(source, problem)
        request = client.build_request("GET", current, headers=sent, timeout=caps.timeout)
        response = await client.send(request, stream=True, follow_redirects=False)
        try:
            location = response.headers.get("location")
            if response.status_code in REDIRECTS and location:
                following = urljoin(current, location)
                if urlsplit(following).scheme.lower() not in ("http", "https"):
                    raise RefusedURL(source, f"{redact(current)} redirects to a non-web URL")
                if origin(following) != home:
                    # Another host: what authenticated us here must not go there.
                    sent = {k: v for k, v in sent.items() if k.lower() in PORTABLE_HEADERS}
                    following = SECRET_PARAMS.sub(lambda m: f"{m.group(1)}=", following)
                current = following
                continue
            body = await read_capped(response, source, current, caps.max_bytes)
            return Reply(
                response.status_code,
                response.reason_phrase,
                {k.lower(): v for k, v in response.headers.items()},
                body,
                current,
            )
        finally:
            await response.aclose()
    raise RefusedURL(source, f"more than {caps.max_redirects} redirects from {redact(url)}")


async def read_capped(response: httpx.Response, source: str, url: str, cap: int) -> bytes:
    """The decoded body, or ResponseTooLarge as soon as it passes `cap` bytes."""

    def too_large() -> ResponseTooLarge:
        return ResponseTooLarge(
            source,
            f"reply from {redact(url)} is larger than {megabytes(cap)} (stopped reading)",
            hint="raise max_response_bytes for this source in sources.yaml if it is genuine",
        )

    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise too_large()
    if response.is_stream_consumed:
        # Built in memory already (an injected transport's canned reply): nothing to stream.
        if len(response.content) > cap:
            raise too_large()
        return response.content
    decoder = BoundedDecoder(response.headers.get("content-encoding", ""), source, url)
    parts: list[bytes] = []
    size = 0
    async for chunk in response.aiter_raw(CHUNK):
        piece = decoder.feed(chunk, cap - size)
        size += len(piece)
        if size > cap:
            raise too_large()
        parts.append(piece)
        if decoder.done:
            break
    return b"".join(parts)


class BoundedDecoder:
    """Content-Encoding undone a bounded piece at a time: never more than `room` + 1 bytes
    out of one call, whatever the compression ratio."""

    def __init__(self, encoding: str, source: str, url: str) -> None:
        name = encoding.strip().lower()
        self._raw_deflate_tried = name != "deflate"
        self._z: zlib._Decompress | None
        if name in ("", "identity"):
            self._z = None
        elif name in ("gzip", "x-gzip"):
            self._z = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif name == "deflate":
            self._z = zlib.decompressobj(zlib.MAX_WBITS)
        else:
            raise SourceError(source, f"reply from {redact(url)} uses encoding '{encoding}'")
        self._where = (source, url)

    @property
    def done(self) -> bool:
        return self._z is not None and self._z.eof

    def feed(self, data: bytes, room: int) -> bytes:
        if self._z is None:
            return data
        out = bytearray()
        try:
            while data and not self._z.eof and len(out) <= room:
                out += self._z.decompress(data, room - len(out) + 1)
                data = self._z.unconsumed_tail
        except zlib.error as exc:
            if not self._raw_deflate_tried and not out:
                # Some servers send raw deflate without the zlib header.
                self._raw_deflate_tried = True
                self._z = zlib.decompressobj(-zlib.MAX_WBITS)
                return self.feed(data, room)
            source, url = self._where
            problem = f"reply from {redact(url)} is not validly compressed"
            raise SourceError(source, problem) from exc
        self._raw_deflate_tried = True
        return bytes(out)
