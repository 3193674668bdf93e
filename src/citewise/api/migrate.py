"""Copying a library between stores (`citewise migrate SRC DST`), for the faces: they name
two locations (a library folder or a postgresql:// URL) and get the verified result."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from citewise.store.postgres.transfer import MigrationResult, copy_library

__all__ = ["MigrationResult", "migrate_library"]


def migrate_library(
    src: str | Path, dst: str | Path, progress: Callable[[str, int], None] | None = None
) -> MigrationResult:
    """Copy `src` into `dst` and compare counts and checksums table by table (rerunning an
    interrupted copy continues it; rows already there are kept)."""
    return copy_library(src, dst, progress)
