"""The `citewise` command run as a user runs it: a fresh interpreter on one library."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def citewise(library: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`citewise ARGS` in a new process on `library` (CITEWISE_LIBRARY), models offline;
    `env` adds or overrides environment variables."""
    environ = {**os.environ, "CITEWISE_LIBRARY": str(library), "HF_HUB_OFFLINE": "1", **env}
    return subprocess.run(
        [sys.executable, "-m", "citewise", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
    )
