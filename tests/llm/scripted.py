"""A scripted backend implementing the LanguageModel protocol: replies are given up front,
so verification cases are exact. Every call it receives is recorded."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from citewise.llm.base import Completion, Message, Params, Schema

Reply = str | dict[str, Any] | Callable[[list[Message]], str]


class ScriptedModel:
    backend = "scripted"

    def __init__(self, replies: list[Reply], model: str = "script-1", n_ctx: int = 4096) -> None:
        self.replies = list(replies)
        self.model = model
        self.n_ctx = n_ctx
        self.calls: list[tuple[list[Message], Schema | None]] = []

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def complete(
        self, messages: list[Message], schema: Schema | None = None, params: Params = Params()
    ) -> Completion:
        self.calls.append((messages, schema))
        reply = self.replies.pop(0) if self.replies else {"sentences": [], "refused": True}
        if callable(reply):
            reply = reply(messages)
        text = reply if isinstance(reply, str) else json.dumps(reply)
        prompt = sum(len(m["content"].split()) for m in messages)
        return Completion(text, self.backend, self.model, prompt, len(text.split()), 5.0)
