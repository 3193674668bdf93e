"""The literature matrix's default columns (a plain constant: `citewise matrix --help` shows
it without loading the extraction stack)."""

from __future__ import annotations

DEFAULT_COLUMNS = ("task", "method", "datasets", "metrics", "limitations")
