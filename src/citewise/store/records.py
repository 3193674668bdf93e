"""Plain records the store's repositories take and return (no database types).

Domain modules (research tasks, the model client, the HTTP layer, watches) convert these to
and from their own types, so a second store implementation only has to speak these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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


@dataclass(frozen=True)
class CachedResponse:
    key: str
    url: str
    status: int
    headers: dict[str, str]
    body: bytes
    created: float
    expires: float


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
