"""The pure parts of transfer.py: bounded decoding of compressed bodies, and what counts as
another host."""

from __future__ import annotations

import gzip
import zlib

import pytest

from citewise.sources.base import SourceError
from citewise.sources.net.transfer import BoundedDecoder, origin

TEXT = b'{"message": "the same words again and again"} ' * 2000


def raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize(
    ("encoding", "packed"),
    [
        ("gzip", gzip.compress(TEXT)),
        ("x-gzip", gzip.compress(TEXT)),
        ("deflate", zlib.compress(TEXT)),
        ("deflate", raw_deflate(TEXT)),  # no zlib header, as some servers send it
        ("identity", TEXT),
        ("", TEXT),
    ],
)
def test_bodies_decode_whatever_the_encoding(encoding: str, packed: bytes) -> None:
    decoder = BoundedDecoder(encoding, "crossref", "http://x/works")
    out = b"".join(
        decoder.feed(packed[i : i + 1000], len(TEXT)) for i in range(0, len(packed), 1000)
    )
    assert out == TEXT


def test_one_call_never_yields_more_than_the_room_left() -> None:
    bomb = gzip.compress(b"\0" * 50_000_000)
    decoder = BoundedDecoder("gzip", "crossref", "http://x/works")
    out = decoder.feed(bomb, 100_000)
    assert len(out) == 100_001  # one byte past the room: enough to know it is too large


def test_unknown_encodings_and_broken_streams_are_named() -> None:
    with pytest.raises(SourceError, match="crossref: .*uses encoding 'br'"):
        BoundedDecoder("br", "crossref", "http://x/works")
    decoder = BoundedDecoder("gzip", "crossref", "http://x/works")
    with pytest.raises(SourceError, match="not validly compressed"):
        decoder.feed(b"this is not gzip at all", 1000)


def test_another_port_or_host_or_scheme_is_another_origin() -> None:
    assert origin("https://api.example.org/x") == origin("https://API.example.org:443/y")
    assert origin("http://127.0.0.1:8000/") != origin("http://127.0.0.1:8001/")
    assert origin("http://127.0.0.1:8000/") != origin("http://localhost:8000/")
    assert origin("http://example.org/") != origin("https://example.org/")
