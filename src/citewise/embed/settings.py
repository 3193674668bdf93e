"""Which embedding model a library uses: `--embed` / `$CITEWISE_EMBED`, else the `[embed]`
table of citewise.toml, else the bundled default.

```toml
[embed]
model = "ollama:nomic-embed-text"   # or "openai:MODEL", or a bundled model name
url = "http://127.0.0.1:11434"      # optional; --embed-url / $CITEWISE_EMBED_URL
dimensions = 768                    # optional; checked against every reply
```

Changing the model re-embeds the library (its vectors are stored per model name), and
search only reads the configured model's vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from citewise.config import Settings, validated
from citewise.embed.base import MINILM, Embedder, load_default_embedder, load_embedder
from citewise.embed.remote import (
    BATCH_SIZE,
    EMBED_BACKENDS,
    MAX_CHARS,
    EmbeddingError,
    HttpEmbedder,
)
from citewise.embed.static import STATIC_MODEL
from citewise.errors import CitewiseError

BUNDLED = {
    "default": None,
    "bundled": None,
    "static": STATIC_MODEL,
    STATIC_MODEL: STATIC_MODEL,
    "minilm": MINILM,
    MINILM: MINILM,
}


@dataclass
class EmbedSettings:
    """The `[embed]` table of citewise.toml (read through `validated`), with --embed /
    --embed-url laid over it."""

    model: str | None = None  # None: the bundled default
    url: str | None = None
    dimensions: int | None = None
    timeout: float = 60.0
    batch_size: int = BATCH_SIZE
    max_chars: int = MAX_CHARS
    api_key_env: str | None = None  # name of the variable holding the key, never the key
    source: str | None = None  # where `model` was chosen

    @property
    def label(self) -> str:
        return self.model or "default"


def embed_settings(settings: Settings) -> EmbedSettings:
    """The `[embed]` table of citewise.toml, overridden by --embed / --embed-url (or
    $CITEWISE_EMBED / $CITEWISE_EMBED_URL, which the face read into `settings`)."""
    path = settings.config_path
    table: dict[str, Any] = {}
    if path is not None:
        try:
            table = settings.toml.get("embed") or {}
            given = dict(**table, source=str(path) if table.get("model") else None)
            chosen = validated(EmbedSettings, given)
        except (ValueError, TypeError) as exc:  # (pydantic's ValidationError is a ValueError)
            raise CitewiseError(
                f"cannot read the [embed] table of {path}: {exc}",
                hint='e.g. [embed] model = "ollama:nomic-embed-text"',
                code="BAD_CONFIG",
            ) from exc
    else:
        chosen = EmbedSettings()
    if settings.embed:
        chosen = replace(chosen, model=settings.embed, source="--embed / $CITEWISE_EMBED")
        if settings.embed != table.get("model"):
            chosen = replace(chosen, dimensions=None)  # another model
    if settings.embed_url:
        chosen = replace(chosen, url=settings.embed_url)
    return chosen


def load_embed_settings(library: Path | None = None) -> EmbedSettings:
    """`embed_settings` for a library directory, reading the configuration now."""
    return embed_settings(Settings.load(library))


def open_embedder(
    settings: EmbedSettings,
    stored_dimensions: Callable[[str], int | None] | None = None,
    transport: Any = None,
    environ: Mapping[str, str] | None = None,
) -> Embedder | None:
    """The configured embedder; None (keyword search only) when a bundled model is not
    installed. `stored_dimensions(name)` gives the width the library already holds for a
    model, so a server that changed what it serves under that name is caught."""
    spec = (settings.model or "default").strip()
    if spec in BUNDLED:
        name = BUNDLED[spec]
        return load_embedder(name) if name else load_default_embedder()
    backend, _, model = spec.partition(":")
    if backend not in EMBED_BACKENDS or not model:
        raise EmbeddingError(
            f"unknown embedding model '{spec}'",
            hint="use --embed ollama:MODEL, --embed openai:MODEL, or one of " + ", ".join(BUNDLED),
            code="BAD_EMBED_SPEC",
        )
    known = stored_dimensions(f"{backend}:{model}") if stored_dimensions else None
    env = environ or {}
    key = env.get(settings.api_key_env) if settings.api_key_env else None
    key = key or env.get("CITEWISE_EMBED_API_KEY")
    return HttpEmbedder(
        backend,
        model,
        url=settings.url,
        dimensions=settings.dimensions or known,
        api_key=key,
        timeout=settings.timeout,
        batch_size=settings.batch_size,
        max_chars=settings.max_chars,
        transport=transport,
    )
