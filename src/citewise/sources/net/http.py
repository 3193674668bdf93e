"""The shared async HTTP layer every source fetches through.

Per source: a token bucket (never more than the configured rate, shared by every search of
the process), a concurrency cap, retries with exponential backoff and jitter, `Retry-After`
honoured on 429/503, timeouts, an overall deadline, a size cap on the decoded reply, and a
circuit breaker. For all: polite headers, redirects followed by hand (credentials never go
to another host), a response cache in the store (`http_cache`, with a TTL; `refresh`
bypasses it) and a request log (`http_requests`) that also keeps the rate between processes
sharing the library."""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass
from urllib.parse import urlencode

import httpx

from citewise import __version__
from citewise.sources.base import HttpResponse, SourceError
from citewise.sources.config import SourcesConfig, SourceSettings
from citewise.sources.net import transfer
from citewise.sources.net.limits import (
    CircuitBreaker,
    TokenBucket,
    backoff_delay,
    breaker_for,
    bucket_for,
    reset_breakers,
    retry_after_seconds,
)
from citewise.sources.net.requestlog import RequestLog
from citewise.sources.net.transfer import (
    Caps,
    DeadlineExceeded,
    RefusedURL,
    ResponseTooLarge,
    redact,
)
from citewise.store.protocols import AuditLog

__all__ = [
    "CircuitBreaker",
    "HttpLayer",
    "SourceFetcher",
    "TokenBucket",
    "backoff_delay",
    "breaker_for",
    "full_url",
    "redact",
    "reset_breakers",
    "retry_after_seconds",
    "user_agent",
]

RETRY_STATUSES = {429, 500, 502, 503, 504}


def user_agent(mailto: str | None) -> str:
    contact = f"; mailto:{mailto}" if mailto else ""
    return f"citewise/{__version__} (+https://github.com/citewise/citewise{contact})"


def full_url(url: str, params: dict[str, str] | None) -> str:
    if not params:
        return url
    return f"{url}{'&' if '?' in url else '?'}{urlencode(sorted(params.items()))}"


def caps_for(settings: SourceSettings) -> Caps:
    return Caps(settings.max_response_bytes, settings.deadline, settings.timeout)


class HttpLayer:
    """One search's HTTP session: an httpx client bound to the running event loop, the
    library's cache and log, and a view per source. The rate limits and breakers it applies
    are the process's (limits.py) and, through the log, the library's."""

    def __init__(
        self,
        config: SourcesConfig,
        audit: AuditLog | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        refresh: bool = False,
    ) -> None:
        self.config = config
        self.audit = audit
        self.requests = RequestLog(audit, refresh)
        # Redirects are followed by transfer.get, which strips credentials on a host change.
        self._client = httpx.AsyncClient(transport=transport, follow_redirects=False)
        self._fetchers: dict[str, SourceFetcher] = {}

    async def __aenter__(self) -> HttpLayer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._client.aclose()

    @property
    def client(self) -> httpx.AsyncClient:
        return self._client

    def fetcher(self, name: str) -> SourceFetcher:
        if name not in self._fetchers:
            self._fetchers[name] = SourceFetcher(self, name, self.config.settings(name))
        return self._fetchers[name]

    def evict(self, key: str | None) -> None:
        """Forget a cached reply (its body turned out to be unreadable)."""
        self.requests.evict(key)


class SourceFetcher:
    """The HTTP layer as one source sees it (implements base.Fetcher)."""

    def __init__(self, layer: HttpLayer, name: str, settings: SourceSettings) -> None:
        self.layer = layer
        self.name = name
        self.settings = settings
        self.bucket = bucket_for(name, settings)
        self.slots = asyncio.Semaphore(settings.max_concurrency)
        self.breaker = breaker_for(name, settings)
        self.caps = caps_for(settings)
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
        hit = self.layer.requests.cached(key)
        if hit is not None:
            self.layer.requests.hit(self.name, target, hit.status)
            return hit
        response = await self._send(target, self.headers(headers))
        response = HttpResponse(
            response.status, response.headers, response.body, response.url, False, key
        )
        self.layer.requests.store(key, response, self.settings.cache_ttl)
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
            if outcome.fatal is not None:
                self.breaker.record_failure()
                raise outcome.fatal
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
        """One try, within the concurrency cap, the process's rate limit and the library's."""
        log = self.layer.requests
        async with self.slots:
            await self.bucket.acquire()
            row = await log.start(self.name, target, self.settings.rate_limit)
            started = time.perf_counter()
            fatal: SourceError | None = None
            try:
                reply = await transfer.get(self.layer.client, self.name, target, headers, self.caps)
            except (ResponseTooLarge, DeadlineExceeded, RefusedURL) as exc:
                # Not worth another try: the same server would send the same again.
                fatal, problem = exc, f"{exc.code}: {exc.message.removeprefix(self.name + ': ')}"
            except httpx.TimeoutException:
                problem = f"timed out after {self.settings.timeout:g} s"
            except httpx.TransportError as exc:
                problem = f"connection failed ({type(exc).__name__})"
            else:
                problem = ""
        elapsed = (time.perf_counter() - started) * 1000
        if problem:
            log.finish(row, None, elapsed, problem)
            return Attempt(problem, retryable=fatal is None, fatal=fatal)
        status = reply.status
        if 200 <= status < 300:
            log.finish(row, status, elapsed, None)
            return Attempt("", response=HttpResponse(status, reply.headers, reply.body, reply.url))
        problem = f"HTTP {status}" + (f" {reply.reason}" if reply.reason else "")
        log.finish(row, status, elapsed, problem)
        told = (
            retry_after_seconds(reply.headers.get("retry-after")) if status in (429, 503) else None
        )
        return Attempt(problem, retryable=status in RETRY_STATUSES, retry_after=told)


@dataclass(frozen=True)
class Attempt:
    """What one try came to: a response, a problem that may be worth retrying, or a fatal
    error (a limit this client enforces) to raise as it is."""

    problem: str
    retryable: bool = False
    retry_after: float | None = None
    response: HttpResponse | None = None
    fatal: SourceError | None = None
