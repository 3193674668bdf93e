"""What the faces show before any source is loaded: the sources' names and the `--all` cap
(plain constants, so `citewise search --help` imports no HTTP client or settings model)."""

from __future__ import annotations

SOURCE_NAMES = (
    "arxiv",
    "pubmed",
    "semantic_scholar",
    "openalex",
    "crossref",
    "core",
    "doaj",
    "europepmc",
)
# The most records `--all` asks one source for.
ALL_CAP = 1000
