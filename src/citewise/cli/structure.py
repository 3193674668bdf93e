"""Paper-structure commands (table, formula)."""

from __future__ import annotations

from citewise.cli.app import app  # noqa: F401  (commands register on it)
