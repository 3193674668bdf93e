"""The one Python API that the CLI, the server and the MCP server share.

`library` opens a library, ingests and answers; `literature` searches, fetches, watches,
exports and walks citation graphs; `research` runs research tasks. Faces only parse, call
these and render the typed results (each with `to_dict()`, the JSON every face prints).

`Library` is imported on first use: a process that needs only another part of the API
(`citewise worker` importing `api.queue`) does not pay for the answering machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citewise.api.library import EMBEDDINGS_UNAVAILABLE, Library, storage_error

__all__ = ["EMBEDDINGS_UNAVAILABLE", "Library", "storage_error"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from citewise.api import library

        return getattr(library, name)
    raise AttributeError(f"module 'citewise.api' has no attribute {name!r}")
