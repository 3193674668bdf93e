"""Where the library lives: --library DIR, else $CITEWISE_LIBRARY, else a per-user default."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, Field

from citewise.errors import CitewiseError


def default_library_dir() -> Path:
    """~/.local/share/citewise/default (honouring $XDG_DATA_HOME)."""
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "citewise" / "default"


def library_dir(option: str | Path | None = None) -> Path:
    """The library directory chosen by option, environment or default, in that order.

    A path that exists but is not a directory is refused here, before anything opens it.
    """
    chosen = option or os.environ.get("CITEWISE_LIBRARY")
    path = Path(chosen).expanduser() if chosen else default_library_dir()
    if path.exists() and not path.is_dir():
        raise CitewiseError(
            f"library path '{path}' is a file, not a directory",
            hint="pass --library DIR (a folder; citewise creates it if missing)",
            code="LIBRARY_NOT_A_DIRECTORY",
        )
    return path


# --- Models: citewise.toml maps roles to backends -------------------------------------------

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

    def role(self, name: str) -> list[str]:
        return self.roles.get(name, [])


def config_file(library: Path | None = None) -> Path | None:
    """$CITEWISE_CONFIG, else citewise.toml in the library directory, else
    ~/.config/citewise/citewise.toml (honouring $XDG_CONFIG_HOME); None if none exists."""
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    candidates = [
        os.environ.get("CITEWISE_CONFIG", ""),
        str(library / "citewise.toml") if library else "",
        str(Path(config_home) / "citewise" / "citewise.toml"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def load_model_settings(library: Path | None = None) -> ModelSettings:
    """Model settings from citewise.toml (empty settings when there is no file)."""
    path = config_file(library)
    if path is None:
        return ModelSettings()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
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
        )
    except (OSError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise CitewiseError(
            f"cannot read {path}: {exc}",
            hint='fix citewise.toml (see docs: [roles] write = "ollama:qwen2.5:7b")',
            code="BAD_CONFIG",
        ) from exc
