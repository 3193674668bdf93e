"""The project's own small fixtures served from a loopback ReplayServer, one path prefix per
source, and a sources configuration pointing every source at it."""

from __future__ import annotations

from pathlib import Path

from citewise.sources.config import SOURCE_NAMES, SourcesConfig
from tests.sources.replay import ReplayServer, Reply

DATA = Path(__file__).parent / "data"
JSON = {"content-type": "application/json"}
XML = {"content-type": "application/xml"}

# path under the source's base URL -> fixture file
ROUTES = {
    "arxiv": {"/query": "arxiv.xml"},
    "pubmed": {"/esearch.fcgi": "pubmed_esearch.xml", "/efetch.fcgi": "pubmed_efetch.xml"},
    "semantic_scholar": {"/paper/search": "semantic_scholar.json"},
    "openalex": {"/works": "openalex.json"},
    "crossref": {"/works": "crossref.json"},
    "core": {"/search/works": "core.json"},
    "doaj": {"/search/articles/": "doaj.json"},
    "europepmc": {"/search": "europepmc.json"},
}


def fixture_reply(name: str, delay: float = 0.0) -> Reply:
    body = (DATA / name).read_bytes()
    return Reply(200, body, XML if name.endswith(".xml") else JSON, delay)


def serve_fixtures(server: ReplayServer, delay: float = 0.0, only: list[str] | None = None) -> None:
    """Route every source (or `only` these) to its fixture, each reply `delay` seconds late."""
    for source, routes in ROUTES.items():
        if only and source not in only:
            continue
        for path, name in routes.items():
            server.add(f"/{source}{path}", fixture_reply(name, delay))


def loopback_config(server: ReplayServer, fast: bool = True, **extra: object) -> SourcesConfig:
    """Every source at `server`; with `fast`, generous rates and short timeouts for tests."""
    overrides: dict[str, dict[str, object]] = {}
    for name in SOURCE_NAMES:
        entry: dict[str, object] = {"base_url": f"{server.base_url}/{name}", **extra}
        if fast:
            entry.update(
                rate_limit={"requests_per_second": 100, "burst": 10},
                timeout=10.0,
                max_concurrency=4,
            )
        overrides[name] = entry
    overrides["core"]["api_key"] = "test-key"
    return SourcesConfig.load(env={}).with_overrides(overrides)
