"""sources.yaml: per-source base URL, parameters, headers, rate limit and priority.

The shipped defaults live beside this module; a user file overrides them field by field."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field, ValidationError

from citewise.errors import CitewiseError
from citewise.sources.names import SOURCE_NAMES as SOURCE_NAMES


class SourcesConfigError(CitewiseError):
    code = "BAD_SOURCES_CONFIG"


class RateLimit(BaseModel):
    requests_per_second: float = Field(gt=0)
    burst: int = Field(default=1, ge=1)


class SourceSettings(BaseModel):
    """How to reach one source, and how politely."""

    base_url: str
    params: dict[str, str] = Field(default_factory=dict)
    headers: dict[str, str] = Field(default_factory=dict)
    rate_limit: RateLimit
    priority: int = 5
    # arXiv: title words that mark a survey, asked for when a search wants reviews only
    review_title_words: list[str] = Field(default_factory=list)
    max_concurrency: int = Field(default=1, ge=1)
    timeout: float = Field(default=20.0, gt=0)  # seconds per connect or read
    # Seconds for a whole exchange, redirects and body included (a trickling reply stops).
    deadline: float = Field(default=60.0, gt=0)
    # Decoded bytes one reply may have; past it the read stops (RESPONSE_TOO_LARGE).
    max_response_bytes: int = Field(default=20_000_000, ge=1)
    # Hosts (and their subdomains) this source's PDF links may be downloaded from, besides
    # the host of base_url; a link elsewhere is fetched only when the user names it.
    pdf_hosts: list[str] = Field(default_factory=list)
    max_retries: int = Field(default=3, ge=0)
    cache_ttl: float = Field(default=86400.0, ge=0)
    # Failures in a row before the source is skipped for `breaker_cooldown` seconds.
    breaker_threshold: int = Field(default=3, ge=1)
    breaker_cooldown: float = Field(default=60.0, ge=0)
    # Longest Retry-After we are willing to wait; longer means "give up on this source".
    max_retry_after: float = Field(default=30.0, ge=0)
    api_key: str | None = None
    mailto: str | None = None
    enabled: bool = True


class SourcesConfig(BaseModel):
    sources: dict[str, SourceSettings]

    def settings(self, name: str) -> SourceSettings:
        return self.sources[name]

    @classmethod
    def load(
        cls, path: str | Path | None = None, env: Mapping[str, str] | None = None
    ) -> SourcesConfig:
        """Shipped defaults, overridden by `path` (or $CITEWISE_SOURCES_CONFIG), then by
        keys and contact address from `env` (the face's snapshot of the environment)."""
        env = env or {}
        data = default_data()
        chosen = path or env.get("CITEWISE_SOURCES_CONFIG")
        if chosen:
            data = merge(data, read_file(Path(chosen)))
        for name in SOURCE_NAMES:
            entry = data.setdefault(name, {})
            key = env.get(f"CITEWISE_{name.upper()}_API_KEY")
            if key and not entry.get("api_key"):
                entry["api_key"] = key
            if env.get("CITEWISE_MAILTO") and not entry.get("mailto"):
                entry["mailto"] = env["CITEWISE_MAILTO"]
        return cls(sources={name: _settings(name, data[name]) for name in SOURCE_NAMES})

    def with_overrides(self, overrides: dict[str, dict[str, Any]]) -> SourcesConfig:
        """A copy with some fields of some sources replaced (e.g. base URLs in tests)."""
        data = {name: s.model_dump() for name, s in self.sources.items()}
        merged = merge(data, overrides)
        return SourcesConfig(sources={n: SourceSettings(**merged[n]) for n in data})


def _settings(name: str, entry: dict[str, Any]) -> SourceSettings:
    try:
        return SourceSettings(**entry)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in (name, *first["loc"]))
        raise SourcesConfigError(
            f"invalid sources configuration: {where}: {first['msg']}",
            hint="see the shipped src/citewise/sources/sources.yaml for the format",
        ) from exc


def default_data() -> dict[str, dict[str, Any]]:
    text = resources.files("citewise.sources").joinpath("sources.yaml").read_text("utf-8")
    data: dict[str, dict[str, Any]] = yaml.safe_load(text)
    return data


def read_file(path: Path) -> dict[str, dict[str, Any]]:
    try:
        data = yaml.safe_load(path.read_text("utf-8")) or {}
    except OSError as exc:
        raise SourcesConfigError(f"cannot read {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise SourcesConfigError(f"{path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise SourcesConfigError(f"{path}: expected a mapping of source names to settings")
    unknown = [k for k in data if k not in SOURCE_NAMES]
    if unknown:
        raise SourcesConfigError(
            f"{path}: unknown source '{unknown[0]}'", hint=f"valid: {', '.join(SOURCE_NAMES)}"
        )
    return data


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """`base` with `override` laid over it, mappings merged key by key."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out
