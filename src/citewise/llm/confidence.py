"""How sure a model's reply is, read from the reply itself (what a cascade escalates on)."""

from __future__ import annotations

import json

from citewise.llm.base import Schema, clean_reply


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
