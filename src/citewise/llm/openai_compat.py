"""Any OpenAI-compatible chat server: Ollama's /v1, llama.cpp server, vLLM, LM Studio, cloud.

The HTTP transport is injectable, so tests replay answers through the real client code.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from citewise.llm.base import (
    OLLAMA_URL,
    Completion,
    ContextOverflowError,
    MalformedOutputError,
    Message,
    ModelError,
    ModelTimeoutError,
    ModelUnreachableError,
    Params,
    Schema,
    UnknownModelError,
)

DEFAULT_URL = "http://127.0.0.1:8000/v1"  # python -m llama_cpp.server's default port
DEFAULT_N_CTX = 4096
_OVERFLOW_WORDS = (
    "context length", "context window", "maximum context", "too many tokens",
    "context_length_exceeded", "exceeds the available context", "exceed_context_size",
)  # fmt: skip
# "maximum context length is 512 tokens. However, you requested 981 tokens (931 in the
# messages, 50 in the completion)" (OpenAI, vLLM, llama_cpp.server); llama.cpp's own server
# sends {"n_prompt_tokens": 931, "n_ctx": 512}.
_LIMIT = re.compile(r"(?:maximum context length is|\"n_ctx\"\s*:)\s*(\d+)", re.IGNORECASE)
_PROMPT = re.compile(r"(\d+) in the messages|\"n_prompt_tokens\"\s*:\s*(\d+)", re.IGNORECASE)


def parse_overflow(detail: str) -> tuple[int | None, int | None]:
    """(context size, prompt tokens) as a server's context-overflow error states them."""
    limit = _LIMIT.search(detail)
    prompt = _PROMPT.search(detail)
    return (
        int(limit.group(1)) if limit else None,
        int(prompt.group(1) or prompt.group(2)) if prompt else None,
    )


def _rejects_json_schema(response: httpx.Response, style: str) -> bool:
    return (
        style == "json_schema"
        # llama_cpp.server answers 500 with the validation error; others 400 or 422.
        and response.status_code in (400, 422, 500)
        and "response_format" in response.text
    )


def start_hint(backend: str, url: str) -> str:
    if backend == "ollama":
        return "start it with 'ollama serve' (and 'ollama pull MODEL'), or pass --llm-url"
    return (
        f"start a server at {url}, e.g. 'python -m llama_cpp.server --model FILE.gguf "
        "--port 8000', or pass --llm-url"
    )


class OpenAICompatModel:
    """Chat completions over HTTP; `response_format` carries the JSON schema."""

    def __init__(
        self,
        model: str,
        url: str | None = None,
        backend: str = "openai",
        api_key: str | None = None,
        timeout: float = 120.0,
        n_ctx: int = DEFAULT_N_CTX,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.backend = backend
        self.model = model
        self.n_ctx = n_ctx
        default = OLLAMA_URL if backend == "ollama" else DEFAULT_URL
        self.url = (url or default).rstrip("/")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._schema_style = "json_schema"  # OpenAI's; switched once if the server rejects it
        self._chars_per_token = 3.0
        self._http = httpx.Client(
            base_url=self.url, headers=headers, timeout=timeout, transport=transport
        )

    def close(self) -> None:
        self._http.close()

    def count_tokens(self, text: str) -> int:
        # No tokenizer over HTTP: ~4 characters a token, estimated at 3 to stay on the safe
        # side, until a context-overflow reply tells how many tokens a prompt really took.
        return int(len(text) / self._chars_per_token) + 1

    def _learn_overflow(self, detail: str, messages: list[Message]) -> int | None:
        """Take the context size and the real prompt size from an overflow reply, so the
        caller's next `fit_to_context` trims to what the server can take."""
        limit, prompt = parse_overflow(detail)
        if limit:
            self.n_ctx = min(self.n_ctx, limit)
        if prompt:
            chars = sum(len(m["content"]) for m in messages)
            # 10% margin; never more optimistic than the estimate already was.
            self._chars_per_token = min(self._chars_per_token, 0.9 * chars / prompt)
        return limit

    def _post(self, payload: dict[str, Any]) -> httpx.Response:
        try:
            return self._http.post("/chat/completions", json=payload)
        except httpx.TimeoutException as exc:
            raise ModelTimeoutError(
                f"{self.url} did not answer within {self._http.timeout.read} s",
                hint="use a smaller model, or raise 'timeout' for this backend in citewise.toml",
            ) from exc
        except httpx.TransportError as exc:
            raise ModelUnreachableError(
                f"cannot reach the model server at {self.url} ({type(exc).__name__})",
                hint=start_hint(self.backend, self.url),
            ) from exc

    def complete(
        self, messages: list[Message], schema: Schema | None = None, params: Params = Params()
    ) -> Completion:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "seed": params.seed,
        }
        started = time.perf_counter()
        if schema is not None:
            payload["response_format"] = self._response_format(schema)
        response = self._post(payload)
        if schema is not None and _rejects_json_schema(response, self._schema_style):
            # llama.cpp's Python server only knows {"type": "json_object", "schema": ...}.
            self._schema_style = "json_object"
            payload["response_format"] = self._response_format(schema)
            response = self._post(payload)
        latency = (time.perf_counter() - started) * 1000
        if response.status_code >= 400:
            self._raise_for(response, messages)
        try:
            body = response.json()
            choice = body["choices"][0]
            text = choice["message"].get("content") or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise MalformedOutputError(
                f"{self.url} sent a reply that is not an OpenAI chat completion",
                hint="check that --llm-url points at an OpenAI-compatible /v1 endpoint",
            ) from exc
        usage = body.get("usage") or {}
        return Completion(
            text=text,
            backend=self.backend,
            model=self.model,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=latency,
            finish_reason=choice.get("finish_reason") or "stop",
        )

    def _response_format(self, schema: Schema) -> dict[str, Any]:
        if self._schema_style == "json_object":
            return {"type": "json_object", "schema": schema}
        return {
            "type": "json_schema",
            "json_schema": {"name": "reply", "schema": schema, "strict": True},
        }

    def _raise_for(self, response: httpx.Response, messages: list[Message]) -> None:
        detail = response.text[:300]
        lowered = detail.lower()
        if any(w in lowered for w in _OVERFLOW_WORDS):
            limit = self._learn_overflow(response.text[:2000], messages)
            raise ContextOverflowError(
                f"the prompt does not fit {self.model}'s context at {self.url} ({detail})",
                hint="ask about fewer documents, or set n_ctx for this backend in citewise.toml",
                limit=limit,
            )
        if response.status_code == 404 or ("model" in lowered and "not found" in lowered):
            raise UnknownModelError(
                f"{self.url} has no model '{self.model}' ({response.status_code}: {detail})",
                hint="'ollama pull MODEL' or check the model name the server lists at /v1/models",
            )
        if response.status_code in (401, 403):
            raise ModelError(
                f"{self.url} refused the request ({response.status_code})",
                hint="set CITEWISE_LLM_API_KEY (or OPENAI_API_KEY) for this server",
                code="MODEL_AUTH",
            )
        raise ModelError(f"{self.url} answered {response.status_code}: {detail}")
