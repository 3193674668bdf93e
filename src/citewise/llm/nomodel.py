"""The `extractive` backend: no language model at all (the default)."""

from __future__ import annotations

from citewise.llm.base import Completion, Message, Params, Schema


class ExtractiveModel:
    """The no-model backend. It writes nothing: structured calls go straight to their
    deterministic fallback, and answers come from `agent.qa` (verbatim, cited sentences)."""

    backend = "extractive"
    model = ""
    n_ctx = 1 << 20

    def complete(
        self, messages: list[Message], schema: Schema | None = None, params: Params = Params()
    ) -> Completion:
        return Completion(text="", backend=self.backend, model=self.model)

    def count_tokens(self, text: str) -> int:
        return len(text.split())
