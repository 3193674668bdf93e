"""What every source module provides: a pure query translation, pure response parsers, and
an async `search` that fetches through the shared HTTP layer (`http.py`)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from citewise.errors import CitewiseError
from citewise.sources.config import SourceSettings
from citewise.sources.query import Query
from citewise.sources.record import KINDS, SearchRecord


class SourceError(CitewiseError):
    """A source failed (HTTP error after retries, timeout, open circuit, unreadable reply)."""

    code = "SOURCE_FAILED"

    def __init__(self, source: str, message: str, hint: str = "") -> None:
        super().__init__(f"{source}: {message}", hint=hint)
        self.source = source


class ParseError(SourceError):
    """The reply came back but is not what the source sends (an HTML page, broken JSON/XML)."""

    code = "SOURCE_GARBAGE"


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: dict[str, str]
    body: bytes
    url: str
    from_cache: bool = False
    cache_key: str | None = None

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


class Fetcher(Protocol):
    """The shared HTTP layer as one source sees it (rate limit, retries and cache included)."""

    async def get(
        self, url: str, params: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> HttpResponse: ...


class Source(ABC):
    """One scholarly database."""

    name: ClassVar[str]
    # Publication kinds the database holds; a --type asking only for others skips it.
    kinds: ClassVar[frozenset[str]] = frozenset(KINDS)
    needs_key: ClassVar[bool] = False

    def __init__(self, settings: SourceSettings) -> None:
        self.settings = settings
        # How many records the source reported for the last search (None: it does not say).
        self.total: int | None = None

    @property
    def base_url(self) -> str:
        return self.settings.base_url.rstrip("/")

    def skip_reason(self, query: Query) -> str | None:
        """Why this source cannot serve the query at all, or None."""
        if self.needs_key and not self.settings.api_key:
            env = f"CITEWISE_{self.name.upper()}_API_KEY"
            return (
                f"{self.name} skipped: it needs an API key (set {env} or api_key in sources.yaml)"
            )
        if query.types and not (query.types & self.kinds):
            wanted = ", ".join(sorted(query.types))
            return f"{self.name} skipped: it holds no {wanted} records"
        return None

    def params(self, extra: dict[str, str]) -> dict[str, str]:
        """Request parameters: the configured ones first, then the query's."""
        return {**self.settings.params, **extra}

    @abstractmethod
    async def search(self, fetch: Fetcher, query: Query, limit: int) -> list[SearchRecord]:
        """Up to `limit` records for `query`, normalized."""


# ---------------------------------------------------------------- parsing helpers


def load_json(source: str, body: bytes | str) -> Any:
    """Parsed JSON, or a ParseError naming the source (e.g. an HTML error page)."""
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ParseError(source, f"reply is not JSON ({describe(body)})") from exc


def load_xml(source: str, body: bytes | str) -> ET.Element:
    """Parsed XML root, or a ParseError naming the source."""
    try:
        data = body.encode("utf-8") if isinstance(body, str) else body
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise ParseError(source, f"reply is not XML ({describe(body)})") from exc


def describe(body: bytes | str) -> str:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    head = " ".join(text[:60].split())
    if "<html" in text[:500].lower() or "<!doctype html" in text[:500].lower():
        return f"an HTML page: {head!r}"
    return f"starts {head!r}" if head else "empty"


def as_int(value: object) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None
