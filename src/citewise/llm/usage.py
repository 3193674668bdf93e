"""Model calls for the audit log (the store's AuditLog), cost estimates, `citewise usage`."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from citewise.llm.base import Completion
from citewise.store.protocols import AuditLog
from citewise.store.records import ModelCall

# US dollars per million (prompt, completion) tokens for hosted models people point citewise
# at. Local backends are free; a model missing here is reported at 0 (an estimate, not a bill).
PRICES_PER_MILLION: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o4-mini": (1.10, 4.40),
    "claude-3-5-haiku-latest": (0.80, 4.00),
    "claude-sonnet-4-0": (3.00, 15.00),
    "mistral-small-latest": (0.10, 0.30),
    "deepseek-chat": (0.27, 1.10),
}
LOCAL_BACKENDS = frozenset({"extractive", "llamacpp", "ollama"})


def cost_usd(backend: str, model: str, prompt_tokens: int, completion_tokens: int) -> float:
    """Estimated price of one call; 0 for local backends and unknown models."""
    if backend in LOCAL_BACKENDS:
        return 0.0
    prompt_price, completion_price = PRICES_PER_MILLION.get(model.lower(), (0.0, 0.0))
    return (prompt_tokens * prompt_price + completion_tokens * completion_price) / 1e6


@dataclass
class CallRecord:
    backend: str
    model: str
    role: str | None = None
    task: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cache_hit: bool = False
    ok: bool = True
    error: str | None = None

    @classmethod
    def of(cls, completion: Completion, role: str | None, task: str | None) -> CallRecord:
        return cls(
            completion.backend,
            completion.model,
            role,
            task,
            completion.prompt_tokens,
            completion.completion_tokens,
            completion.latency_ms,
            completion.cache_hit,
        )


def log_call(audit: AuditLog, call: CallRecord) -> None:
    cost = 0.0
    if not call.cache_hit:
        cost = cost_usd(call.backend, call.model, call.prompt_tokens, call.completion_tokens)
    audit.log_model_call(
        ModelCall(
            call.backend,
            call.model,
            call.role,
            call.task,
            call.prompt_tokens,
            call.completion_tokens,
            call.latency_ms,
            cost,
            call.cache_hit,
            call.ok,
            call.error,
        )
    )


def _median(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


@dataclass(frozen=True)
class ModelUsage:
    """Calls of one (backend, model, role)."""

    backend: str
    model: str
    role: str
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    latency_ms_p50: float  # of real calls: a cache hit measures SQLite, not the model


@dataclass(frozen=True)
class UsageSummary:
    """Totals and one row per (backend, model, role) of the model calls logged."""

    calls: int
    prompt_tokens: int
    completion_tokens: int
    cache_hits: int
    by_model: list[ModelUsage]

    def to_dict(self) -> dict[str, object]:
        """The `citewise usage --json` object."""
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cache_hits": self.cache_hits,
            "by_model": [asdict(m) for m in self.by_model],
        }


def usage_summary(audit: AuditLog, task: str | None = None) -> UsageSummary:
    """Totals and one row per (backend, model, role): the `citewise usage --json` shape."""
    rows = audit.model_calls(task)
    groups: dict[tuple[str, str, str], list[ModelCall]] = {}
    for row in rows:
        groups.setdefault((row.backend, row.model, row.role or ""), []).append(row)
    by_model = [
        ModelUsage(
            backend=backend,
            model=model,
            role=role,
            calls=len(group),
            prompt_tokens=sum(r.prompt_tokens for r in group),
            completion_tokens=sum(r.completion_tokens for r in group),
            cost_usd=round(sum(r.cost_usd for r in group), 6),
            latency_ms_p50=round(_median([r.latency_ms for r in group if not r.cache_hit]), 1),
        )
        for (backend, model, role), group in sorted(groups.items())
    ]
    return UsageSummary(
        calls=len(rows),
        prompt_tokens=sum(r.prompt_tokens for r in rows),
        completion_tokens=sum(r.completion_tokens for r in rows),
        cache_hits=sum(int(r.cache_hit) for r in rows),
        by_model=by_model,
    )
