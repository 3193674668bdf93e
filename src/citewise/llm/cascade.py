"""Cascades: a role that lists two models calls the second only when the first is unsure.

The cascade lives in the role-call layer (`ModelClient.escalate`), so every role that
names two models (screen, extract, reason, write, judge) gets it, whoever calls it. How
sure a reply is comes from the reply itself: a failed call, a cut-off reply, a reply that
is not the JSON object asked for, or one whose own `confidence` field is low all escalate.
Callers with a better measure (the `write` role: verification support) cascade on that.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING

from citewise.llm.base import Schema, clean_reply

if TYPE_CHECKING:
    from citewise.llm.client import ModelClient


def reply_confidence(text: str, finish_reason: str = "stop", schema: Schema | None = None) -> float:
    """0..1: how far a reply can be trusted without asking a stronger model.

    0 for an empty or cut-off reply, or (with a schema) one that is not a JSON object with
    the schema's required keys; the reply's own `confidence` in 0..1 if it states one;
    else 1.
    """
    if finish_reason == "length" or not text.strip():
        return 0.0
    if schema is None:
        return 1.0
    cleaned = clean_reply(text)
    start = cleaned.find("{")
    try:
        value = json.loads(cleaned[start:] if start > 0 else cleaned)
    except ValueError:
        return 0.0
    if not isinstance(value, dict):
        return 0.0
    if any(key not in value for key in schema.get("required", [])):
        return 0.0
    stated = value.get("confidence")
    if isinstance(stated, int | float) and not isinstance(stated, bool) and 0 <= stated <= 1:
        return float(stated)
    return 1.0


def chain(clients: list[ModelClient], threshold: float) -> list[ModelClient]:
    """The role's clients with each one escalating to the next: `[first→second, second]`.

    Callers that take the first client get the cascade; the list keeps every model for
    callers that report them (doctor, labels).
    """
    chained: list[ModelClient] = []
    nxt: ModelClient | None = None
    for client in reversed(clients):
        nxt = replace(client, escalate=nxt, threshold=threshold)
        chained.insert(0, nxt)
    return chained
