"""The shared async HTTP layer every source fetches through.

Per source: a token bucket (never more than the configured rate), a concurrency cap,
retries with exponential backoff and jitter, `Retry-After` honoured on 429/503, timeouts and
a circuit breaker. For all: polite headers, a response cache in the store (`http_cache`, with
a TTL; `refresh` bypasses it) and a request log (`http_requests`)."""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import json
import random
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlencode

import httpx

from citewise import __version__
from citewise.sources.base import HttpResponse, SourceError
from citewise.sources.config import SourcesConfig, SourceSettings

RETRY_STATUSES = {429, 500, 502, 503, 504}
BACKOFF_BASE = 0.5  # seconds before the first retry when the server gives no Retry-After
BACKOFF_CAP = 8.0
# Parameters whose values never go into the request log.
SECRET_PARAMS = re.compile(r"(?i)\b(api_key|apikey|key|token)=[^&]*")

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class TokenBucket:
    """At most `burst` requests at once, refilled at `rate` per second: over any window of
    t seconds, no more than burst + rate * t requests start."""

    def __init__(
        self, rate: float, burst: int, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._clock = clock
        self._sleep = sleep
        self._last = clock()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                now = self._clock()
                self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
                self._last = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await self._sleep((1 - self._tokens) / self.rate)


class CircuitBreaker:
    """Opens after `threshold` failed attempts in a row; while open (for `cooldown` seconds)
    requests fail at once; after that one trial request decides."""

    def __init__(self, threshold: int, cooldown: float, clock: Clock = time.monotonic) -> None:
        self.threshold = threshold
        self.cooldown = cooldown
        self.failures = 0
        self.opened_at: float | None = None
        self._clock = clock

    @property
    def is_open(self) -> bool:
        if self.opened_at is None:
            return False
        if self._clock() - self.opened_at >= self.cooldown:
            # Half-open: let one trial through; one more failure opens it again.
            self.opened_at = None
            self.failures = self.threshold - 1
            return False
        return True

    def record_success(self) -> None:
        self.failures = 0
        self.opened_at = None

    def record_failure(self) -> None:
        self.failures += 1
        if self.failures >= self.threshold:
            self.opened_at = self._clock()


# One breaker per (source, base URL) for the whole process, so a dead source stays skipped
# across searches (the research pipeline searches many times).
_BREAKERS: dict[tuple[str, str], CircuitBreaker] = {}


def breaker_for(name: str, settings: SourceSettings) -> CircuitBreaker:
    key = (name, settings.base_url)
    if key not in _BREAKERS:
        _BREAKERS[key] = CircuitBreaker(settings.breaker_threshold, settings.breaker_cooldown)
    return _BREAKERS[key]


def reset_breakers() -> None:
    _BREAKERS.clear()


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def backoff_delay(attempt: int, rng: random.Random | None = None) -> float:
    """Exponential backoff with jitter: about 0.5, 1, 2, 4 ... seconds, capped, each scaled by
    a random factor in [0.5, 1] so clients that failed together do not retry together."""
    delay = min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt)
    return delay * (rng or random).uniform(0.5, 1.0)


def user_agent(mailto: str | None) -> str:
    contact = f"; mailto:{mailto}" if mailto else ""
    return f"citewise/{__version__} (+https://github.com/citewise/citewise{contact})"


def full_url(url: str, params: dict[str, str] | None) -> str:
    if not params:
        return url
    return f"{url}{'&' if '?' in url else '?'}{urlencode(sorted(params.items()))}"


def redact(url: str) -> str:
    return SECRET_PARAMS.sub(lambda m: f"{m.group(1)}=***", url)


class HttpLayer:
    """One search's HTTP session: an httpx client, and per-source limits, cache and log."""

    def __init__(
        self,
        config: SourcesConfig,
        store_db: sqlite3.Connection | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        refresh: bool = False,
    ) -> None:
        self.config = config
        self.db = store_db
        self.refresh = refresh
        self._client = httpx.AsyncClient(transport=transport, follow_redirects=True)
        self._fetchers: dict[str, SourceFetcher] = {}

    async def __aenter__(self) -> HttpLayer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._client.aclose()

    def fetcher(self, name: str) -> SourceFetcher:
        if name not in self._fetchers:
            self._fetchers[name] = SourceFetcher(self, name, self.config.settings(name))
        return self._fetchers[name]

    # -------------------------------------------------------------- store

    def cached(self, key: str) -> HttpResponse | None:
        if self.db is None or self.refresh:
            return None
        row = self.db.execute(
            "SELECT url, status, headers, body FROM http_cache WHERE key = ? AND expires > ?",
            (key, time.time()),
        ).fetchone()
        if row is None:
            return None
        url, status, headers, body = tuple(row)
        return HttpResponse(status, json.loads(headers), bytes(body), url, True, key)

    def store(self, key: str, response: HttpResponse, ttl: float) -> None:
        if self.db is None or ttl <= 0:
            return
        now = time.time()
        self.db.execute(
            "INSERT OR REPLACE INTO http_cache (key, url, status, headers, body, created, expires)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                redact(response.url),
                response.status,
                json.dumps(response.headers),
                response.body,
                now,
                now + ttl,
            ),
        )

    def evict(self, key: str | None) -> None:
        """Forget a cached reply (its body turned out to be unreadable)."""
        if self.db is not None and key:
            self.db.execute("DELETE FROM http_cache WHERE key = ?", (key,))

    def log(
        self,
        source: str,
        method: str,
        url: str,
        status: int | None,
        latency_ms: float,
        cache_hit: bool,
        error: str | None,
    ) -> None:
        if self.db is None:
            return
        self.db.execute(
            "INSERT INTO http_requests (source, method, url, status, latency_ms, cache_hit, error)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (source, method, redact(url), status, round(latency_ms, 1), int(cache_hit), error),
        )


class SourceFetcher:
    """The HTTP layer as one source sees it (implements base.Fetcher)."""

    def __init__(self, layer: HttpLayer, name: str, settings: SourceSettings) -> None:
        self.layer = layer
        self.name = name
        self.settings = settings
        self.bucket = TokenBucket(
            settings.rate_limit.requests_per_second, settings.rate_limit.burst
        )
        self.slots = asyncio.Semaphore(settings.max_concurrency)
        self.breaker = breaker_for(name, settings)
        self.last_key: str | None = None

    def headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        return {
            "User-Agent": user_agent(self.settings.mailto),
            **self.settings.headers,
            **(extra or {}),
        }

    async def get(
        self, url: str, params: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> HttpResponse:
        """The reply to GET url?params: from the cache when fresh, else from the server,
        with retries; a SourceError when the source cannot answer."""
        target = full_url(url, params)
        key = hashlib.sha256(f"GET {target}".encode()).hexdigest()
        self.last_key = key
        hit = self.layer.cached(key)
        if hit is not None:
            self.layer.log(self.name, "GET", target, hit.status, 0.0, True, None)
            return hit
        response = await self._send(target, self.headers(headers))
        response = HttpResponse(
            response.status, response.headers, response.body, response.url, False, key
        )
        self.layer.store(key, response, self.settings.cache_ttl)
        return response

    async def _send(self, target: str, headers: dict[str, str]) -> HttpResponse:
        attempt = 0
        while True:
            if self.breaker.is_open:
                raise SourceError(
                    self.name,
                    "skipped: too many failures in a row (circuit open)",
                    hint=f"it is tried again after {self.settings.breaker_cooldown:.0f} s",
                )
            outcome = await self._attempt(target, headers)
            if outcome.response is not None:
                self.breaker.record_success()
                return outcome.response
            if not outcome.retryable:
                raise SourceError(self.name, outcome.problem)
            self.breaker.record_failure()
            if attempt >= self.settings.max_retries or self.breaker.is_open:
                raise SourceError(self.name, outcome.problem)
            wait = outcome.retry_after
            if wait is None:
                wait = backoff_delay(attempt)
            elif wait > self.settings.max_retry_after:
                raise SourceError(self.name, f"{outcome.problem}; asked to wait {wait:.0f} s")
            await asyncio.sleep(wait)
            attempt += 1

    async def _attempt(self, target: str, headers: dict[str, str]) -> Attempt:
        """One try, within the concurrency cap and the rate limit."""
        async with self.slots:
            await self.bucket.acquire()
            started = time.perf_counter()
            try:
                reply = await self.layer._client.get(
                    target, headers=headers, timeout=self.settings.timeout
                )
                body = reply.content
            except httpx.TimeoutException:
                problem = f"timed out after {self.settings.timeout:g} s"
            except httpx.TransportError as exc:
                problem = f"connection failed ({type(exc).__name__})"
            else:
                problem = ""
        elapsed = (time.perf_counter() - started) * 1000
        if problem:
            self.layer.log(self.name, "GET", target, None, elapsed, False, problem)
            return Attempt(problem, retryable=True)
        status = reply.status_code
        if 200 <= status < 300:
            self.layer.log(self.name, "GET", target, status, elapsed, False, None)
            response_headers = {k.lower(): v for k, v in reply.headers.items()}
            return Attempt(
                "", response=HttpResponse(status, response_headers, body, str(reply.url))
            )
        problem = f"HTTP {status}" + (f" {reply.reason_phrase}" if reply.reason_phrase else "")
        self.layer.log(self.name, "GET", target, status, elapsed, False, problem)
        told = (
            retry_after_seconds(reply.headers.get("retry-after")) if status in (429, 503) else None
        )
        return Attempt(problem, retryable=status in RETRY_STATUSES, retry_after=told)


@dataclass(frozen=True)
class Attempt:
    """What one try came to: a response, or a problem that may be worth retrying."""

    problem: str
    retryable: bool = False
    retry_after: float | None = None
    response: HttpResponse | None = None
