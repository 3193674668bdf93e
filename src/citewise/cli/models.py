"""Model commands (usage, doctor, chat)."""

from __future__ import annotations

from citewise.cli.app import app  # noqa: F401  (commands register on it)
