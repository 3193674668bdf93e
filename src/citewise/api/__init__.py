"""The one Python API that the CLI, the server and the MCP server share.

`library` opens a library, ingests and answers; `literature` searches, fetches, watches,
exports and walks citation graphs; `research` runs research tasks. Faces only parse, call
these and render the typed results (each with `to_dict()`, the JSON every face prints).
"""

from __future__ import annotations

from citewise.api.library import EMBEDDINGS_UNAVAILABLE, Library, storage_error

__all__ = ["EMBEDDINGS_UNAVAILABLE", "Library", "storage_error"]
