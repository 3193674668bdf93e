"""The language-model protocol every backend implements, the `--llm` spec, and model errors.

A backend turns chat messages (and optionally a JSON schema the reply must follow) into a
`Completion`. Backends know nothing of caching, logging or roles: `llm.client` adds those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from citewise.errors import CitewiseError, Kind

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}
Schema = dict[str, Any]  # a JSON schema

BACKENDS = ("extractive", "llamacpp", "openai", "ollama")
OLLAMA_URL = "http://127.0.0.1:11434/v1"


class ModelError(CitewiseError):
    code = "MODEL_ERROR"


class BadModelSpecError(ModelError):
    code = "BAD_MODEL_SPEC"
    kind: Kind = "invalid"


class ModelUnreachableError(ModelError):
    code = "MODEL_UNREACHABLE"


class ModelTimeoutError(ModelError):
    code = "MODEL_TIMEOUT"


class UnknownModelError(ModelError):
    code = "UNKNOWN_MODEL"


class ContextOverflowError(ModelError):
    """The prompt did not fit; `limit` is the server's context size when it said so."""

    code = "CONTEXT_OVERFLOW"

    def __init__(self, message: str, hint: str = "", limit: int | None = None) -> None:
        super().__init__(message, hint)
        self.limit = limit


class MalformedOutputError(ModelError):
    code = "MALFORMED_MODEL_OUTPUT"


@dataclass
class Completion:
    """One model reply: its text and what it cost."""

    text: str
    backend: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cache_hit: bool = False
    finish_reason: str = "stop"


@dataclass(frozen=True)
class Params:
    """Sampling parameters; part of the cache key."""

    max_tokens: int = 256
    temperature: float = 0.0
    seed: int = 0


class LanguageModel(Protocol):
    """A backend: `complete(messages, schema=None) -> Completion`.

    `n_ctx` is the context window in tokens (callers trim evidence to fit it);
    `count_tokens` estimates how many tokens a text takes.
    """

    backend: str
    model: str
    n_ctx: int

    def complete(
        self, messages: list[Message], schema: Schema | None = None, params: Params = Params()
    ) -> Completion: ...

    def count_tokens(self, text: str) -> int: ...


@dataclass(frozen=True)
class ModelSpec:
    """What `--llm BACKEND:MODEL [--llm-url URL]` (or a role in citewise.toml) names."""

    backend: str
    model: str = ""
    url: str | None = None
    options: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def label(self) -> str:
        return f"{self.backend}:{self.model}" if self.model else self.backend


def parse_spec(text: str, url: str | None = None) -> ModelSpec:
    """`llamacpp:/path/m.gguf`, `ollama:qwen2.5:7b` (the model keeps its own colons),
    `openai:gpt-4o-mini`, `extractive`."""
    backend, _, model = text.strip().partition(":")
    backend = backend.lower()
    if backend not in BACKENDS:
        raise BadModelSpecError(
            f"unknown model backend '{backend}' in '{text}'",
            hint="use --llm BACKEND:MODEL with BACKEND one of " + ", ".join(BACKENDS),
        )
    if backend != "extractive" and not model:
        raise BadModelSpecError(
            f"'{text}' names no model",
            hint=f"e.g. --llm {backend}:"
            + {"llamacpp": "smollm2", "ollama": "qwen2.5:7b", "openai": "gpt-4o-mini"}[backend],
        )
    return ModelSpec(backend, model, url)


_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)


def clean_reply(text: str) -> str:
    """The reply without `<think>` blocks (closed or cut off) and without a code fence."""
    text = _THINK.sub("", text).strip()
    fenced = _FENCE.search(text)
    return fenced.group(1).strip() if fenced else text
