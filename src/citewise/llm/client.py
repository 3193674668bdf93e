"""A model as the agent uses it: cached by a hash of the call, and logged (the store's
AuditLog)."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import asdict, dataclass, replace

from citewise.errors import CitewiseError
from citewise.llm.base import Completion, LanguageModel, Message, Params, Schema
from citewise.llm.confidence import reply_confidence
from citewise.llm.usage import CallRecord, log_call
from citewise.store.protocols import AuditLog

log = logging.getLogger(__name__)


def cache_key(
    backend: str, model: str, messages: list[Message], schema: Schema | None, params: Params
) -> str:
    """sha256 of (backend, model, messages, schema, params), canonical JSON."""
    payload = json.dumps(
        [backend, model, messages, schema, asdict(params)], sort_keys=True, ensure_ascii=False
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass
class ModelClient:
    """Wraps a backend for one role: every call is looked up in `llm_cache` (unless
    `use_cache` is off) and written to the call log, hits and failures included.

    `escalate` makes a cascade (see `llm.cascade`): when this model fails or its reply's
    confidence is below `threshold`, the same call goes to that client, logged as a
    second call.
    """

    model: LanguageModel
    audit: AuditLog | None = None
    role: str | None = None
    task: str | None = None
    use_cache: bool = True
    escalate: ModelClient | None = None
    threshold: float = 0.5

    @property
    def label(self) -> str:
        model = self.model
        return f"{model.backend}:{model.model}" if model.model else model.backend

    @property
    def n_ctx(self) -> int:
        return self.model.n_ctx

    def count_tokens(self, text: str) -> int:
        return self.model.count_tokens(text)

    def for_role(self, role: str) -> ModelClient:
        escalate = self.escalate.for_role(role) if self.escalate else None
        return replace(self, role=role, escalate=escalate)

    def alone(self) -> ModelClient:
        """This model without its cascade (for callers that measure confidence themselves)."""
        return replace(self, escalate=None)

    def complete(
        self, messages: list[Message], schema: Schema | None = None, params: Params = Params()
    ) -> Completion:
        """This model's reply, or the next model's when this one fails or is unsure."""
        if self.escalate is None:
            return self._complete(messages, schema, params)
        try:
            completion = self._complete(messages, schema, params)
        except CitewiseError as exc:
            log.info("%s failed (%s); escalating to %s", self.label, exc.code, self.escalate.label)
            return self.escalate.complete(messages, schema, params)
        confidence = reply_confidence(completion.text, completion.finish_reason, schema)
        if confidence < self.threshold:
            log.info(
                "%s confidence %.2f < %.2f; escalating to %s",
                self.label, confidence, self.threshold, self.escalate.label,
            )  # fmt: skip
            return self.escalate.complete(messages, schema, params)
        return completion

    def _complete(
        self, messages: list[Message], schema: Schema | None, params: Params
    ) -> Completion:
        key = cache_key(self.model.backend, self.model.model, messages, schema, params)
        cached = self._cached(key)
        if cached is not None:
            self._log(
                CallRecord(
                    cached.backend,
                    cached.model,
                    self.role,
                    self.task,
                    0,
                    0,
                    cached.latency_ms,
                    cache_hit=True,
                )
            )
            return cached
        try:
            completion = self.model.complete(messages, schema, params)
        except CitewiseError as exc:
            self._log(
                CallRecord(
                    self.model.backend,
                    self.model.model,
                    self.role,
                    self.task,
                    ok=False,
                    error=exc.code,
                )
            )
            raise
        self._log(CallRecord.of(completion, self.role, self.task))
        if self.audit is not None and self.use_cache:
            self.audit.cache_model_reply(key, json.dumps(asdict(completion)))
        return completion

    def _cached(self, key: str) -> Completion | None:
        if self.audit is None or not self.use_cache:
            return None
        response = self.audit.cached_model_reply(key)
        if response is None:
            return None
        completion = Completion(**json.loads(response))
        completion.cache_hit = True
        completion.latency_ms = 0.0
        return completion

    def _log(self, call: CallRecord) -> None:
        if self.audit is not None:
            log_call(self.audit, call)
