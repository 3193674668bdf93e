"""What an ingest is given, for the faces: which of a folder's files it takes
(`FileFilter`: --include / --exclude patterns) and the entries a manifest or a Zotero
library adds to a batch (`Sources`)."""

from __future__ import annotations

from citewise.inputs import FileFilter, Sources

__all__ = ["FileFilter", "Sources"]
