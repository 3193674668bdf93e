"""The eight sources by name: the names `--sources` takes and sources.yaml uses."""

from __future__ import annotations

from citewise.errors import CitewiseError, Kind
from citewise.sources.base import Source
from citewise.sources.config import SOURCE_NAMES, SourcesConfig
from citewise.sources.databases.arxiv import ArxivSource
from citewise.sources.databases.core import CoreSource
from citewise.sources.databases.crossref import CrossrefSource
from citewise.sources.databases.doaj import DoajSource
from citewise.sources.databases.europepmc import EuropePmcSource
from citewise.sources.databases.openalex import OpenAlexSource
from citewise.sources.databases.pubmed import PubmedSource
from citewise.sources.databases.semantic_scholar import SemanticScholarSource

SOURCE_CLASSES: dict[str, type[Source]] = {
    cls.name: cls
    for cls in (
        ArxivSource,
        PubmedSource,
        SemanticScholarSource,
        OpenAlexSource,
        CrossrefSource,
        CoreSource,
        DoajSource,
        EuropePmcSource,
    )
}
assert tuple(SOURCE_CLASSES) == SOURCE_NAMES


class UnknownSourceError(CitewiseError):
    code = "UNKNOWN_SOURCE"
    kind: Kind = "invalid"


def check_names(names: list[str]) -> list[str]:
    """The names, de-duplicated in order, or an error listing the valid ones."""
    chosen: list[str] = []
    for name in names:
        name = name.strip().lower().replace("-", "_")
        if name not in SOURCE_CLASSES:
            raise UnknownSourceError(
                f"unknown source '{name}'", hint=f"valid sources: {', '.join(SOURCE_NAMES)}"
            )
        if name not in chosen:
            chosen.append(name)
    return chosen


def build(name: str, config: SourcesConfig) -> Source:
    return SOURCE_CLASSES[name](config.settings(name))
