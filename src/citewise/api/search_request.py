"""A literature search request read from a person's words, for the faces: a Chinese request
in English words (with a note per reading), then the filters its words and the options state
(years, types, fields, languages, authors, MeSH descriptors), and how it is described back."""

from __future__ import annotations

from typing import Any

from citewise.sources.intent import Intent, describe, parse_intent, summary
from citewise.sources.zh_query import english_request

__all__ = ["Intent", "describe", "english_request", "read_intent", "summary"]


def read_intent(text: str, **options: Any) -> Intent:
    """`text` read as a search request, its MeSH descriptors from the shipped vocabulary;
    `options` (the face's own: field, authors, mesh, languages, years, types, open access,
    citations, limit) win over what the text says."""
    from citewise.sources.mesh import load

    return parse_intent(text, vocabulary=load(), **options)
