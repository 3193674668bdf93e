"""What a search may be restricted to, as data (the store turns it into its own query)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BlockFilter:
    """Restricts a search: to documents, pages, block kinds; untrusted blocks never match."""

    documents: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    kinds: tuple[str, ...] = ()
