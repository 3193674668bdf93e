"""Where the library lives: --library DIR, else $CITEWISE_LIBRARY, else a per-user default."""

from __future__ import annotations

import os
from pathlib import Path


def default_library_dir() -> Path:
    """~/.local/share/citewise/default (honouring $XDG_DATA_HOME)."""
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "citewise" / "default"


def library_dir(option: str | Path | None = None) -> Path:
    """The library directory chosen by option, environment or default, in that order."""
    chosen = option or os.environ.get("CITEWISE_LIBRARY")
    return Path(chosen).expanduser() if chosen else default_library_dir()
