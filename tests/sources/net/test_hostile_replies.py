"""Replies that try to hurt the client, from real loopback servers: a gzip bomb and an
oversized body stop at the size cap (memory stays small), a trickling reply stops at the
deadline, and an API key never follows a redirect to another host."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.sources import SearchResult, search_sources
from citewise.sources.config import SourcesConfig
from citewise.sources.net.http import reset_breakers
from tests.sources.hostile import HostileServer, Misbehaviour, gzip_bomb, padded_json
from tests.sources.replay import ReplayServer, Reply

DATA = Path(__file__).parents[1] / "data"
JSON = {"content-type": "application/json"}
CAP = 1_000_000
KEY = "s2-secret-key-0123456789"


@pytest.fixture(autouse=True)
def clean_limits() -> Iterator[None]:
    reset_breakers()
    yield
    reset_breakers()


def guarded(base_url: str, source: str = "crossref", **extra: object) -> SourcesConfig:
    """`source` at `base_url`, with a 1 MB cap, a 2 s deadline, 1 s per read, no retries."""
    entry = {
        "base_url": base_url,
        "rate_limit": {"requests_per_second": 100, "burst": 10},
        "max_response_bytes": CAP,
        "deadline": 2.0,
        "timeout": 1.0,
        "max_retries": 0,
        "cache_ttl": 0,
        **extra,
    }
    return SourcesConfig.load(env={}).with_overrides({source: entry})


def search_measured(config: SourcesConfig, source: str = "crossref") -> tuple[SearchResult, int]:
    """The search's result and the peak memory Python allocated during it, in bytes."""
    tracemalloc.start()
    try:
        result = search_sources("graph", [source], config=config)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak


def test_a_gzip_bomb_stops_at_the_size_cap_and_memory_stays_small() -> None:
    bomb = gzip_bomb(64_000_000)  # 64 MB of zeros in about 62 KB
    headers = {**JSON, "content-encoding": "gzip"}
    with HostileServer() as server:
        server.add("/crossref/works", Misbehaviour(bomb, headers))
        result, peak = search_measured(guarded(f"{server.base_url}/crossref"))
    (warning,) = result.warnings
    assert warning.startswith("crossref: ") and "larger than 1 MB" in warning
    assert f"{server.base_url}/crossref/works" in warning and "[RESPONSE_TOO_LARGE]" in warning
    assert peak < 12_000_000, f"peak {peak / 1e6:.1f} MB while reading a capped reply"


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "until-close"])
def test_an_oversized_body_is_not_read_past_the_cap(declared: bool) -> None:
    body = padded_json(8_000_000)  # valid JSON: a client without a cap would accept it
    with HostileServer() as server:
        server.add("/crossref/works", Misbehaviour(body, JSON, length=declared))
        result, peak = search_measured(guarded(f"{server.base_url}/crossref"))
    (warning,) = result.warnings
    assert "crossref: " in warning and "larger than 1 MB" in warning
    assert result.sources[0].status == "failed"
    assert peak < 6_000_000, f"peak {peak / 1e6:.1f} MB for a reply capped at 1 MB"


def test_a_trickling_reply_is_abandoned_at_the_deadline() -> None:
    # One byte every 0.5 s: every read is within the 1 s read timeout, the whole never is.
    trickle = Misbehaviour(padded_json(60), JSON, chunk=1, interval=0.5)
    with HostileServer() as server:
        server.add("/crossref/works", trickle)
        started = time.monotonic()
        result = search_sources(
            "graph", ["crossref"], config=guarded(f"{server.base_url}/crossref")
        )
        elapsed = time.monotonic() - started
    assert elapsed < 4.0, f"the search took {elapsed:.1f} s against a 2 s deadline"
    (warning,) = result.warnings
    assert "crossref: " in warning and "within 2 s" in warning
    assert "[DEADLINE_EXCEEDED]" in warning


def test_an_api_key_does_not_follow_a_redirect_to_another_host() -> None:
    fixture = (DATA / "semantic_scholar.json").read_bytes()
    with ReplayServer() as api, ReplayServer() as elsewhere:
        # Two loopback servers, two hosts: 127.0.0.1:<port> and localhost:<other port>.
        other = f"http://localhost:{elsewhere.base_url.rsplit(':', 1)[1]}"
        api.add(
            "/semantic_scholar/paper/search",
            lambda seen: Reply(302, b"", {"Location": f"{other}/moved/paper/search?query=x"}),
        )
        elsewhere.add("/moved/paper/search", Reply(200, fixture, JSON))
        config = guarded(f"{api.base_url}/semantic_scholar", "semantic_scholar", api_key=KEY)
        result = search_sources("graph", ["semantic_scholar"], config=config)
        (asked,) = api.seen()
        (redirected,) = elsewhere.seen()
    assert asked.headers.get("x-api-key") == KEY  # the key went where it belongs
    assert "x-api-key" not in redirected.headers
    assert not any(KEY in value for value in redirected.headers.values())
    assert result.warnings == [] and result.records  # the redirect itself was followed


def test_a_redirect_on_the_same_host_keeps_the_key() -> None:
    fixture = (DATA / "semantic_scholar.json").read_bytes()
    with ReplayServer() as api:
        api.add(
            "/semantic_scholar/paper/search",
            Reply(307, b"", {"Location": "/v2/paper/search?query=x"}),
        )
        api.add("/v2/paper/search", Reply(200, fixture, JSON))
        config = guarded(f"{api.base_url}/semantic_scholar", "semantic_scholar", api_key=KEY)
        result = search_sources("graph", ["semantic_scholar"], config=config)
        first, second = api.seen()
    assert second.path == "/v2/paper/search" and second.headers.get("x-api-key") == KEY
    assert result.records
