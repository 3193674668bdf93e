"""The model settings of citewise.toml: which `BACKEND:MODEL` serves each role, and each
backend's options. Kept apart from config.py so that a command which never calls a model
(`list`, `ask` without --llm) does not import pydantic to read its configuration."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from citewise.errors import CitewiseError

ROLES = ("screen", "extract", "reason", "write", "judge")


class BackendSettings(BaseModel):
    """Per-backend options: `[backends.ollama] url = "http://host:11434/v1"`."""

    url: str | None = None
    n_ctx: int | None = None
    timeout: float | None = None
    api_key_env: str | None = None  # name of the variable holding the key, never the key


class ModelSettings(BaseModel):
    """The `[roles]`, `[backends.*]` and `[cascade]` tables of citewise.toml.

    A role names one `BACKEND:MODEL` or a list of two (a cascade: the second is called only
    when the first's confidence is below `cascade.threshold`).
    """

    roles: dict[str, list[str]] = Field(default_factory=dict)
    backends: dict[str, BackendSettings] = Field(default_factory=dict)
    cascade_threshold: float = 0.5
    source: str | None = None  # the file these came from
    # Where `api_key_env` names are looked up (the face's snapshot of the environment).
    environ: dict[str, str] = Field(default_factory=dict, exclude=True, repr=False)

    def secret(self, variable: str | None) -> str | None:
        return self.environ.get(variable) if variable else None

    def role(self, name: str) -> list[str]:
        return self.roles.get(name, [])


def model_settings_from(
    raw: dict[str, Any], path: Path | None, environ: Mapping[str, str]
) -> ModelSettings:
    """The `[roles]`, `[backends.*]` and `[cascade]` tables of a parsed citewise.toml."""
    if path is None:
        return ModelSettings(environ=dict(environ))
    try:
        roles = {
            name: [spec] if isinstance(spec, str) else list(spec)
            for name, spec in (raw.get("roles") or {}).items()
        }
        unknown = set(roles) - set(ROLES)
        if unknown:
            raise ValueError(f"unknown role(s) {sorted(unknown)}; roles are {', '.join(ROLES)}")
        return ModelSettings(
            roles=roles,
            backends=raw.get("backends") or {},
            cascade_threshold=(raw.get("cascade") or {}).get("threshold", 0.5),
            source=str(path),
            environ=dict(environ),
        )
    except ValueError as exc:
        raise CitewiseError(
            f"cannot read {path}: {exc}",
            hint='fix citewise.toml (see docs: [roles] write = "ollama:qwen2.5:7b")',
            code="BAD_CONFIG",
        ) from exc
