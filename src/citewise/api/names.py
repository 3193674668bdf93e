"""The plain constants a face shows before any work starts (option help, defaults, limits):
the matrix's default columns, the scholarly sources' names and the `--all` cap.

Light on purpose: `citewise matrix --help` and `citewise search --help` import this and
nothing of the extraction stack, the HTTP client or the settings model."""

from __future__ import annotations

from citewise.agent.comparison.matrix_columns import DEFAULT_COLUMNS
from citewise.sources.names import ALL_CAP, SOURCE_NAMES

__all__ = ["ALL_CAP", "DEFAULT_COLUMNS", "SOURCE_NAMES"]
