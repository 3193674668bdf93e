"""The scholarly sources as the faces name them: their names as settings know them, the
settings of a sources file (`SourcesConfig`), and the progress a search reports per source.

Importing this reads the settings model (pydantic, PyYAML): a face that must work without
them catches the ImportError, as research's `--sources` check does."""

from __future__ import annotations

from citewise.sources.config import SOURCE_NAMES, SourcesConfig
from citewise.sources.search.progress import SourceProgress

__all__ = ["SOURCE_NAMES", "SourceProgress", "SourcesConfig"]
