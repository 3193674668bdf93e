"""Plain records the store's repositories take and return (no database types).

Domain modules (research tasks, the model client, the HTTP layer, watches) convert these to
and from their own types, so a second store implementation only has to speak these.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class TaskRecord:
    id: str
    topic: str
    state: str
    round: int
    options: dict[str, Any]
    created: str = ""
    updated: str = ""


@dataclass(frozen=True)
class TaskEventRecord:
    id: int
    time: str
    stage: str
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class EvidenceRecord:
    """One evidence row: the columns a query may filter on, the rest in `data`."""

    id: str
    sub_question: str | None
    kind: str
    block_id: str | None
    record_key: str | None
    quote: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelCall:
    """One row of the model-call log (cost already estimated by the caller)."""

    backend: str
    model: str
    role: str | None = None
    task: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cost_usd: float = 0.0
    cache_hit: bool = False
    ok: bool = True
    error: str | None = None

    # The log's columns in one order, for every store's INSERT and SELECT.
    COLUMNS: ClassVar[str] = (
        "task, role, backend, model, prompt_tokens, completion_tokens, latency_ms, cost_usd, "
        "cache_hit, ok, error"
    )

    def row(self) -> tuple[object, ...]:
        """The values of `COLUMNS`, as the log stores them."""
        return (
            self.task,
            self.role,
            self.backend,
            self.model,
            self.prompt_tokens,
            self.completion_tokens,
            round(self.latency_ms, 1),
            self.cost_usd,
            int(self.cache_hit),
            int(self.ok),
            self.error,
        )

    @classmethod
    def from_row(cls, r: Sequence[Any]) -> ModelCall:
        """A call from the values of `COLUMNS` in their order."""
        return cls(
            backend=r[2],
            model=r[3],
            role=r[1],
            task=r[0],
            prompt_tokens=r[4],
            completion_tokens=r[5],
            latency_ms=r[6],
            cost_usd=r[7],
            cache_hit=bool(r[8]),
            ok=bool(r[9]),
            error=r[10],
        )


@dataclass(frozen=True)
class HttpRequest:
    """One row of the HTTP request log: every writer fills the same columns."""

    source: str
    url: str
    method: str = "GET"
    task: str | None = None
    status: int | None = None
    latency_ms: float = 0.0
    cache_hit: bool = False
    error: str | None = None
    time: str | None = None  # the log's own clock when None

    def row(self) -> tuple[object, ...]:
        """time, task, source, method, url, status, latency_ms, cache_hit, error."""
        return (
            self.time,
            self.task,
            self.source,
            self.method,
            self.url,
            self.status,
            round(self.latency_ms, 1),
            int(self.cache_hit),
            self.error,
        )


@dataclass(frozen=True)
class CachedResponse:
    key: str
    url: str
    status: int
    headers: dict[str, str]
    body: bytes
    created: float
    expires: float

    COLUMNS: ClassVar[str] = "key, url, status, headers, body, created, expires"

    def row(self) -> tuple[object, ...]:
        """The values of `COLUMNS` (headers as JSON)."""
        return (
            self.key,
            self.url,
            self.status,
            json.dumps(self.headers),
            self.body,
            self.created,
            self.expires,
        )

    @classmethod
    def from_row(cls, r: Sequence[Any]) -> CachedResponse:
        return cls(r[0], r[1], r[2], json.loads(r[3]), bytes(r[4]), r[5], r[6])


@dataclass(frozen=True)
class WatchRecord:
    id: str
    query: str
    sources: list[str]
    last_run: str | None = None
    runs: int = 0
    seen: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ActionRecord:
    """One row of a shared library's audit trail: who (a user of the server) did what."""

    actor: str
    action: str  # "ask", "search", "research", "cancel", "ingest", "delete"
    subject: str | None = None  # the question, query, topic, task or document
    detail: dict[str, Any] = field(default_factory=dict)
    time: str = ""


class StageCancelled(Exception):
    """`TaskRepository.commit_stage` found the task cancelled: nothing was written."""
