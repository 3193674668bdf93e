"""Configuration, read once by the face: where the library lives (--library DIR, else
$CITEWISE_LIBRARY, else a per-user default), citewise.toml and the CITEWISE_* environment.

`Settings.load()` is the one place that reads the process environment and parses
citewise.toml; the CLI and the server build one `Settings` and pass it down (to `Library`,
the model registry, the embedder, the literature sources). Nothing below the faces reads
`os.environ`: the few process-wide paths (model cache, offline flags for the model
libraries) are functions here, so the rule has one exception, and it is this file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from citewise.errors import CitewiseError

T = TypeVar("T")


def default_library_dir(environ: Mapping[str, str] | None = None) -> Path:
    """~/.local/share/citewise/default (honouring $XDG_DATA_HOME)."""
    env = os.environ if environ is None else environ
    data_home = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "citewise" / "default"


def library_dir(option: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The library directory chosen by option, environment or default, in that order.

    A path that exists but is not a directory is refused here, before anything opens it.
    """
    env = os.environ if environ is None else environ
    chosen = option or env.get("CITEWISE_LIBRARY")
    path = Path(chosen).expanduser() if chosen else default_library_dir(env)
    if path.exists() and not path.is_dir():
        raise CitewiseError(
            f"library path '{path}' is a file, not a directory",
            hint="pass --library DIR (a folder; citewise creates it if missing)",
            code="LIBRARY_NOT_A_DIRECTORY",
        )
    return path


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(location: str | Path | None) -> bool:
    """Whether a library location names a PostgreSQL database rather than a folder."""
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """citewise's folder in this user's cache: $XDG_CACHE_HOME/citewise, else
    ~/.cache/citewise."""
    env = os.environ if environ is None else environ
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "citewise"


def database_cache_dir(url: str, environ: Mapping[str, str] | None = None) -> Path:
    """This machine's folder for what it derives from a PostgreSQL library (keyword
    postings, downloaded papers, reports): one per database and schema, under the XDG cache.
    The password is left out of the name, so a changed password keeps the folder."""
    import hashlib

    unsecret = re.sub(r"(//[^/:@]*):[^@/]*@", r"\1@", url)
    digest = hashlib.sha256(unsecret.encode()).hexdigest()[:16]
    return cache_dir(environ) / "postgres" / digest


# --- Models: citewise.toml maps roles to backends -------------------------------------------

ROLES = ("screen", "extract", "reason", "write", "judge")


def validated(kind: type[T], values: Mapping[str, Any]) -> T:
    """`kind(**values)` (a dataclass) with each field's type checked and coerced as pydantic
    does (`"4"` -> 4, a table -> BackendSettings, unknown keys ignored); pydantic's
    ValidationError, a ValueError, when one does not fit. Pydantic is imported only here:
    a command with no citewise.toml to read goes without it (~0.2 s of start-up)."""
    from pydantic import TypeAdapter

    return TypeAdapter(kind).validate_python(dict(values))


@dataclass
class BackendSettings:
    """Per-backend options: `[backends.ollama] url = "http://host:11434/v1"`."""

    url: str | None = None
    n_ctx: int | None = None
    timeout: float | None = None
    api_key_env: str | None = None  # name of the variable holding the key, never the key


@dataclass
class ModelSettings:
    """The `[roles]`, `[backends.*]` and `[cascade]` tables of citewise.toml (read through
    `validated`).

    A role names one `BACKEND:MODEL` or a list of two (a cascade: the second is called only
    when the first's confidence is below `cascade.threshold`).
    """

    roles: dict[str, list[str]] = field(default_factory=dict)
    backends: dict[str, BackendSettings] = field(default_factory=dict)
    cascade_threshold: float = 0.5
    source: str | None = None  # the file these came from
    # Where `api_key_env` names are looked up (the face's snapshot of the environment).
    environ: dict[str, str] = field(default_factory=dict, repr=False)

    def secret(self, variable: str | None) -> str | None:
        return self.environ.get(variable) if variable else None

    def role(self, name: str) -> list[str]:
        return self.roles.get(name, [])


def config_file(
    library: Path | None = None, environ: Mapping[str, str] | None = None
) -> Path | None:
    """$CITEWISE_CONFIG, else citewise.toml in the library directory, else
    ~/.config/citewise/citewise.toml (honouring $XDG_CONFIG_HOME); None if none exists."""
    env = os.environ if environ is None else environ
    config_home = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    candidates = [
        env.get("CITEWISE_CONFIG", ""),
        str(library / "citewise.toml") if library else "",
        str(Path(config_home) / "citewise" / "citewise.toml"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def read_toml(path: Path | None) -> dict[str, Any]:
    """citewise.toml as a table (empty when there is no file)."""
    if path is None:
        return {}
    import tomllib  # (imported only when there is a file to read)

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CitewiseError(
            f"cannot read {path}: {exc}",
            hint='fix citewise.toml (see docs: [roles] write = "ollama:qwen2.5:7b")',
            code="BAD_CONFIG",
        ) from exc


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
        return validated(
            ModelSettings,
            {
                "roles": roles,
                "backends": raw.get("backends") or {},
                "cascade_threshold": (raw.get("cascade") or {}).get("threshold", 0.5),
                "source": str(path),
                "environ": dict(environ),
            },
        )
    except ValueError as exc:
        raise CitewiseError(
            f"cannot read {path}: {exc}",
            hint='fix citewise.toml (see docs: [roles] write = "ollama:qwen2.5:7b")',
            code="BAD_CONFIG",
        ) from exc


def load_model_settings(library: Path | None = None) -> ModelSettings:
    """Model settings from citewise.toml (empty settings when there is no file)."""
    return Settings.load(library).models


QUEUE_RETENTION_DAYS = 30  # finished jobs and outcomes of a PostgreSQL library's queue


@dataclass(frozen=True)
class Settings:
    """Everything configurable, read once: the library directory, citewise.toml (parsed
    once) and a snapshot of the environment; `embed` / `embed_url` are --embed / --embed-url
    (else $CITEWISE_EMBED / $CITEWISE_EMBED_URL)."""

    library: Path
    config_path: Path | None = None
    # The postgresql:// URL of a PostgreSQL library (then `library` is this machine's
    # folder for what it derives from it); None for a SQLite library folder.
    database: str | None = None
    toml: dict[str, Any] = field(default_factory=dict)
    environ: Mapping[str, str] = field(default_factory=dict)
    embed: str | None = None
    embed_url: str | None = None

    @classmethod
    def load(
        cls,
        library: str | Path | None = None,
        embed: str | None = None,
        embed_url: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> Settings:
        env = dict(os.environ if environ is None else environ)
        chosen = library or env.get("CITEWISE_LIBRARY")
        database = str(chosen) if is_database_url(chosen) else None
        directory = database_cache_dir(database, env) if database else library_dir(library, env)
        path = config_file(directory, env)
        return cls(
            library=directory,
            database=database,
            config_path=path,
            toml=read_toml(path),
            environ=env,
            embed=embed or env.get("CITEWISE_EMBED") or None,
            embed_url=embed_url or env.get("CITEWISE_EMBED_URL") or None,
        )

    def for_library(self, library: str | Path | None) -> Settings:
        """The same environment and options for another library directory (its own
        citewise.toml, when it has one)."""
        if library is None or library == self.database:
            return self
        if not is_database_url(library) and library_dir(library, self.environ) == self.library:
            return self  # this library's folder (for a database: its cache folder)
        return Settings.load(library, self.embed, self.embed_url, self.environ)

    @property
    def models(self) -> ModelSettings:
        return model_settings_from(self.toml, self.config_path, self.environ)

    @property
    def queue_retention_days(self) -> int:
        """Days a PostgreSQL library keeps finished jobs and their outcomes: `[queue]
        retention_days` of citewise.toml, else $CITEWISE_QUEUE_RETENTION_DAYS, else 30."""
        chosen = (self.toml.get("queue") or {}).get("retention_days")
        chosen = self.environ.get("CITEWISE_QUEUE_RETENTION_DAYS", "") if chosen is None else chosen
        try:
            days = int(chosen) if str(chosen).strip() else QUEUE_RETENTION_DAYS
        except (TypeError, ValueError):
            days = -1
        if days < 1:
            raise CitewiseError(
                f"the queue's retention must be a whole number of days, 1 or more: {chosen!r}",
                hint="e.g. [queue] retention_days = 30 in citewise.toml",
                code="BAD_CONFIG",
            )
        return days

    @property
    def disabled_proposers(self) -> tuple[str, ...]:
        """Answer shapes `ask` skips, by name (agent/ask/registry.py):
        $CITEWISE_DISABLE_PROPOSERS, comma-separated; to measure what a shape lifts."""
        chosen = self.environ.get("CITEWISE_DISABLE_PROPOSERS", "")
        return tuple(n.strip() for n in chosen.split(",") if n.strip())

    def value(self, name: str, default: str = "") -> str:
        """One environment value from the snapshot."""
        return self.environ.get(name, default)


# --- Process-wide paths and flags (the only environment reads outside Settings) --------


def model_cache_dir() -> Path:
    """Where distilled models are cached: $CITEWISE_MODEL_CACHE, else the XDG cache."""
    chosen = os.environ.get("CITEWISE_MODEL_CACHE")
    if chosen:
        return Path(chosen).expanduser()
    return cache_dir() / "models"


def child_environment(**extra: str) -> dict[str, str]:
    """The environment for a program citewise runs (tesseract): this process's, plus
    `extra`."""
    return {**os.environ, **extra}


def default_embed_model(fallback: str) -> str:
    """$CITEWISE_EMBED_MODEL (a known local model for the whole process), else `fallback`."""
    return os.environ.get("CITEWISE_EMBED_MODEL") or fallback


MODEL_LIBRARIES_OFFLINE = (
    ("HF_HUB_OFFLINE", "1"),
    ("TRANSFORMERS_OFFLINE", "1"),
    ("HF_HUB_DISABLE_PROGRESS_BARS", "1"),
    ("TRANSFORMERS_VERBOSITY", "error"),
    ("TOKENIZERS_PARALLELISM", "false"),
)


def keep_model_libraries_offline() -> None:
    """Never let transformers / huggingface_hub reach a hub (they read these variables)."""
    for key, value in MODEL_LIBRARIES_OFFLINE:
        os.environ.setdefault(key, value)
