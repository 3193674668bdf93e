"""Counted words, for every summary line a face or the API prints."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 document', '2 documents' (`many` for an irregular plural)."""
    return f"{count} {word if count == 1 else many or word + 's'}"
