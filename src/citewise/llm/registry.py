"""From a spec (`--llm` or a role in citewise.toml) to a backend, and roles to clients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citewise.config import BackendSettings, ModelSettings
from citewise.llm.base import LanguageModel, ModelSpec, parse_spec

if TYPE_CHECKING:  # a role served by plain code (the extractive `ask`) loads no client
    from citewise.llm.client import ModelClient
    from citewise.store.protocols import AuditLog


def open_model(
    spec: ModelSpec, settings: ModelSettings | None = None, transport: Any = None
) -> LanguageModel:
    """The backend a spec names; per-backend options come from citewise.toml."""
    options = (settings or ModelSettings()).backends.get(spec.backend, BackendSettings())
    if spec.backend == "extractive":
        from citewise.llm.nomodel import ExtractiveModel

        return ExtractiveModel()
    if spec.backend == "llamacpp":
        from citewise.llm.llamacpp import DEFAULT_N_CTX, LlamaCppModel

        return LlamaCppModel(spec.model, n_ctx=options.n_ctx or DEFAULT_N_CTX)
    from citewise.llm.openai_compat import DEFAULT_N_CTX as HTTP_N_CTX
    from citewise.llm.openai_compat import OpenAICompatModel

    env = (settings or ModelSettings()).environ
    api_key = env.get(options.api_key_env) if options.api_key_env else None
    # the conventional variables, when citewise.toml names none (or it is unset)
    api_key = api_key or env.get("CITEWISE_LLM_API_KEY") or env.get("OPENAI_API_KEY")
    return OpenAICompatModel(
        spec.model,
        url=spec.url or options.url,
        backend=spec.backend,
        api_key=api_key,
        timeout=options.timeout or 120.0,
        n_ctx=options.n_ctx or HTTP_N_CTX,
        transport=transport,
    )


def role_clients(
    role: str,
    settings: ModelSettings,
    audit: AuditLog | None,
    override: ModelSpec | None = None,
    use_cache: bool = True,
    task: str | None = None,
) -> list[ModelClient]:
    """The client(s) serving a role: `override` (from --llm) if given, else the role's
    cascade from citewise.toml (the first client escalates to the second when unsure);
    empty when the role is not configured."""
    specs = [override] if override else [parse_spec(s) for s in settings.role(role)]
    if not specs:
        return []
    from citewise.llm.cascade import chain
    from citewise.llm.client import ModelClient

    clients = [
        ModelClient(open_model(spec, settings), audit, role=role, task=task, use_cache=use_cache)
        for spec in specs
    ]
    # A cascade: the first client escalates to the second when unsure.
    return chain(clients, settings.cascade_threshold)
