"""How often and how hard a source may be asked: token buckets, circuit breakers, retry
delays. Buckets and breakers live once per process (not per search), so a research run that
searches twenty times still keeps each source's configured rate; they are thread-safe and
bound to no event loop, because each search runs in its own `asyncio.run`."""

from __future__ import annotations

import asyncio
import email.utils
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable

from citewise.sources.config import SourceSettings

BACKOFF_BASE = 0.5  # seconds before the first retry when the server gives no Retry-After
BACKOFF_CAP = 8.0

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class TokenBucket:
    """At most `burst` requests at once, refilled at `rate` per second: over any window of
    t seconds, no more than burst + rate * t requests start. A caller takes its token at
    once (perhaps going into debt) and sleeps off the debt, so waiting needs no lock."""

    def __init__(
        self, rate: float, burst: int, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._clock = clock
        self._sleep = sleep
        self._last = clock()
        self._lock = threading.Lock()

    def reserve(self) -> float:
        """Take a token: the seconds to wait before the request it pays for may start."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
            self._last = now
            self._tokens -= 1
            return 0.0 if self._tokens >= 0 else -self._tokens / self.rate

    async def acquire(self) -> None:
        wait = self.reserve()
        if wait > 0:
            await self._sleep(wait)


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


# One bucket and one breaker per source endpoint for the whole process: a dead source stays
# skipped, and a busy one stays rate-limited, across searches.
_BUCKETS: dict[tuple[str, str, float, int], TokenBucket] = {}
_BREAKERS: dict[tuple[str, str], CircuitBreaker] = {}
_REGISTRY_LOCK = threading.Lock()


def bucket_for(name: str, settings: SourceSettings) -> TokenBucket:
    limit = settings.rate_limit
    key = (name, settings.base_url, limit.requests_per_second, limit.burst)
    with _REGISTRY_LOCK:
        if key not in _BUCKETS:
            _BUCKETS[key] = TokenBucket(limit.requests_per_second, limit.burst)
        return _BUCKETS[key]


def breaker_for(name: str, settings: SourceSettings) -> CircuitBreaker:
    key = (name, settings.base_url)
    with _REGISTRY_LOCK:
        if key not in _BREAKERS:
            _BREAKERS[key] = CircuitBreaker(settings.breaker_threshold, settings.breaker_cooldown)
        return _BREAKERS[key]


def reset_breakers() -> None:
    """Forget every breaker and bucket of this process (tests start from a clean slate)."""
    with _REGISTRY_LOCK:
        _BREAKERS.clear()
        _BUCKETS.clear()


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
    return float(delay * (rng or random).uniform(0.5, 1.0))
