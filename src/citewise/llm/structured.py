"""Structured calls: a JSON schema to the backend, pydantic validation, one retry carrying
the validation error, then the caller's deterministic fallback."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from citewise.llm.base import Completion, Message, Params, clean_reply
from citewise.llm.client import ModelClient

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)


@dataclass
class Structured(Generic[T]):
    """The validated reply (or the fallback's), and how it was reached."""

    value: T | None
    fell_back: bool = False
    errors: list[str] = field(default_factory=list)
    completions: list[Completion] = field(default_factory=list)


def parse_reply(text: str, shape: type[T]) -> T:
    """The reply as `shape`: `<think>` blocks and code fences removed, then validated.
    Raises ValueError (json) or ValidationError (pydantic)."""
    cleaned = clean_reply(text)
    start = cleaned.find("{")
    # Tolerate a sentence of preamble before the object; nothing else is repaired.
    return shape.model_validate(json.loads(cleaned[start:] if start > 0 else cleaned))


def _error_text(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()
        )[:500]
    return f"not valid JSON ({exc})"[:500]


def structured_call(
    client: ModelClient,
    messages: list[Message],
    shape: type[T],
    params: Params = Params(),
    fallback: Callable[[], T | None] | None = None,
) -> Structured[T]:
    """Ask for `shape`; on an invalid reply, ask once more quoting the error; then fall back."""
    result: Structured[T] = Structured(None)
    if client.model.backend == "extractive":
        result.value, result.fell_back = (fallback() if fallback else None), True
        return result
    schema = shape.model_json_schema()
    conversation = list(messages)
    for _attempt in range(2):
        completion = client.complete(conversation, schema, params)
        result.completions.append(completion)
        try:
            result.value = parse_reply(completion.text, shape)
            return result
        except (ValueError, ValidationError) as exc:
            error = _error_text(exc)
            result.errors.append(error)
            log.info("invalid %s reply from %s: %s", shape.__name__, client.label, error)
            conversation = [
                *messages,
                {"role": "assistant", "content": completion.text},
                {
                    "role": "user",
                    "content": f"That reply is invalid: {error}. Reply again with only a JSON "
                    "object that matches the schema.",
                },
            ]
    result.value, result.fell_back = (fallback() if fallback else None), True
    return result
