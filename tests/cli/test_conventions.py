"""CLI conventions a user expects of any well-made tool: --version, flags shown as flags,
one error line for a bad library path."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citewise", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})},
        timeout=120,
    )


def test_version_prints_the_installed_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"citewise {version('citewise')}"


def test_help_shows_flags_as_flags_and_keeps_bracketed_text() -> None:
    top = run("--help").stdout
    assert "<bool>" not in top and "<str>" not in top
    assert "--library DIR" in top
    assert "[embed]" in top  # was eaten as Rich markup
    ask = run("ask", "--help").stdout
    assert "<bool>" not in ask and "<str>" not in ask  # arguments too: "QUESTION", no type
    compare = run("compare", "--help").stdout
    assert "<" not in compare and "--aspects ASPECTS" in compare and "DOCS..." in compare
    assert "--json" in ask and "QUESTION" in ask


def test_a_library_path_that_is_a_file_is_one_error_line(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "library.txt"
    not_a_folder.write_text("oops")
    result = run("--library", str(not_a_folder), "list")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: LIBRARY_NOT_A_DIRECTORY")
    assert "Traceback" not in result.stderr
