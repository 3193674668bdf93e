"""Citation networks: online from OpenAlex (`referenced_works` and `cites:`), offline from the
library's parsed reference lists; written as GEXF or GraphML."""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx

from citewise.errors import CitewiseError
from citewise.sources.base import Fetcher, SourceError, load_json
from citewise.sources.config import SourcesConfig
from citewise.sources.net.http import HttpLayer
from citewise.sources.record import normalize_doi
from citewise.store.protocols import AuditLog, DocumentRepository, ReferenceRepository

SELECT = "id,doi,display_name,publication_year,referenced_works"
BATCH = 50  # OpenAlex accepts up to 50 IDs in one openalex:A|B|... filter
GRAPH_FORMATS = {".gexf": "gexf", ".graphml": "graphml"}


class GraphError(CitewiseError):
    code = "GRAPH_FAILED"


@dataclass
class Node:
    id: str
    label: str = ""
    year: int | None = None
    doi: str | None = None
    role: str = "reference"  # seed, reference, citing, library


@dataclass
class CitationGraph:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: set[tuple[str, str]] = field(default_factory=set)  # (citing, cited)

    def add(self, node: Node) -> Node:
        existing = self.nodes.get(node.id)
        if existing is None:
            self.nodes[node.id] = node
            return node
        existing.label = existing.label or node.label
        existing.year = existing.year or node.year
        existing.doi = existing.doi or node.doi
        return existing


# ---------------------------------------------------------------- online (OpenAlex)


def _short(openalex_id: str) -> str:
    return openalex_id.rsplit("/", 1)[-1].upper()


def _node(work: dict[str, Any], role: str) -> Node:
    return Node(
        id=_short(work.get("id") or ""),
        label=work.get("display_name") or work.get("title") or "",
        year=work.get("publication_year"),
        doi=normalize_doi(work.get("doi")),
        role=role,
    )


async def _works(fetch: Fetcher, base: str, params: dict[str, str]) -> list[dict[str, Any]]:
    response = await fetch.get(f"{base}/works", {"select": SELECT, **params})
    data = load_json("openalex", response.body)
    return [w for w in data.get("results") or [] if isinstance(w, dict)]


async def openalex_graph(
    seed: str,
    depth: int = 1,
    *,
    config: SourcesConfig | None = None,
    audit: AuditLog | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    max_nodes: int = 500,
) -> CitationGraph:
    """The seed work, what it cites and what cites it; with depth 2, also what its
    references cite. `seed` is a DOI or an OpenAlex work ID (W...)."""
    config = config or SourcesConfig.load()
    settings = config.settings("openalex")
    base = settings.base_url.rstrip("/")
    extra = {"api_key": settings.api_key} if settings.api_key else {}
    doi = normalize_doi(seed)
    path = f"doi:{doi}" if doi else _short(seed)
    graph = CitationGraph()
    async with HttpLayer(config, audit, transport) as http:
        fetch = http.fetcher("openalex")
        work = await _seed_work(fetch, base, path, extra, seed)
        root = graph.add(_node(work, "seed"))
        frontier = {root.id: [_short(r) for r in work.get("referenced_works") or []]}
        next_frontier: dict[str, list[str]] = {}
        citing = await _works(
            fetch, base, {"filter": f"cites:{root.id}", "per-page": "50", **extra}
        )
        for item in citing:
            node = graph.add(_node(item, "citing"))
            graph.edges.add((node.id, root.id))
        for level in range(depth):
            wanted = sorted({r for refs in frontier.values() for r in refs} - set(graph.nodes))
            wanted = wanted[: max(0, max_nodes - len(graph.nodes))]
            next_frontier = {}
            for item in await _works_by_id(fetch, base, wanted, extra):
                node = graph.add(_node(item, "reference"))
                next_frontier[node.id] = [_short(r) for r in item.get("referenced_works") or []]
            for citing_id, refs in frontier.items():
                for ref in refs:
                    graph.add(Node(id=ref))
                    graph.edges.add((citing_id, ref))
            frontier = next_frontier if level + 1 < depth else {}
        # Edges among the works already in the graph (no new nodes).
        for citing_id, refs in next_frontier.items():
            for ref in refs:
                if ref in graph.nodes:
                    graph.edges.add((citing_id, ref))
    return graph


async def _seed_work(
    fetch: Fetcher, base: str, path: str, extra: dict[str, str], seed: str
) -> dict[str, Any]:
    """The seed work's record; GraphError when OpenAlex has none."""
    try:
        response = await fetch.get(f"{base}/works/{path}", {"select": SELECT, **extra})
    except SourceError as exc:
        if "HTTP 404" in exc.message:
            raise GraphError(f"OpenAlex has no work for '{seed}'") from exc
        raise
    work = load_json("openalex", response.body)
    if not isinstance(work, dict) or not work.get("id"):
        raise GraphError(f"OpenAlex has no work for '{seed}'")
    return work


async def _works_by_id(
    fetch: Fetcher, base: str, ids: list[str], extra: dict[str, str]
) -> list[dict[str, Any]]:
    """The works with these OpenAlex IDs, fetched in batches at once, in batch order."""
    batches = [ids[i : i + BATCH] for i in range(0, len(ids), BATCH)]
    found = await asyncio.gather(
        *(
            _works(fetch, base, {"filter": "openalex:" + "|".join(b), "per-page": "50", **extra})
            for b in batches
        )
    )
    return [w for batch in found for w in batch]


# ---------------------------------------------------------------- offline (the library)


def library_graph(store: LibraryGraphSource, document: str, depth: int = 1) -> CitationGraph:
    """A document's parsed references (resolved to library documents where ingest could),
    and with depth 2 the references of those library documents."""
    graph = CitationGraph()
    titles = {d.id: (d.title, d.year, d.doi) for d in store.documents()}
    if document not in titles:
        raise GraphError(
            f"no document '{document}'", hint="run 'citewise list' to see document IDs"
        )
    frontier = [document]
    title, year, doi = titles[document]
    graph.add(Node(document, title, year, normalize_doi(doi), "seed"))
    for _ in range(depth):
        next_frontier = []
        for doc_id in frontier:
            for ref in store.references(doc_id):
                resolved = ref.resolved_document
                if resolved and resolved in titles:
                    r_title, r_year, r_doi = titles[resolved]
                    node = graph.add(
                        Node(resolved, r_title, r_year, normalize_doi(r_doi), "library")
                    )
                    next_frontier.append(resolved)
                else:
                    clean = normalize_doi(ref.doi)
                    node_id = f"doi:{clean}" if clean else ref.id
                    label = ref.title or (ref.raw or "")[:120]
                    node = graph.add(Node(node_id, label, ref.year, clean))
                graph.edges.add((doc_id, node.id))
        frontier = next_frontier
    return graph


class LibraryGraphSource(DocumentRepository, ReferenceRepository, Protocol):
    """What the offline graph reads: documents and their parsed references."""


# ---------------------------------------------------------------- writers


def to_gexf(graph: CitationGraph) -> str:
    gexf = ET.Element("gexf", xmlns="http://gexf.net/1.3", version="1.3")
    g = ET.SubElement(gexf, "graph", defaultedgetype="directed", mode="static")
    attributes = ET.SubElement(g, "attributes", {"class": "node"})
    for index, (name, kind) in enumerate(
        (("year", "integer"), ("doi", "string"), ("role", "string"))
    ):
        ET.SubElement(attributes, "attribute", id=str(index), title=name, type=kind)
    nodes = ET.SubElement(g, "nodes")
    for node in graph.nodes.values():
        element = ET.SubElement(nodes, "node", id=node.id, label=node.label or node.id)
        values = ET.SubElement(element, "attvalues")
        for index, value in enumerate((node.year, node.doi, node.role)):
            if value is not None:
                ET.SubElement(values, "attvalue", {"for": str(index), "value": str(value)})
    edges = ET.SubElement(g, "edges")
    for number, (source, target) in enumerate(sorted(graph.edges)):
        ET.SubElement(edges, "edge", id=str(number), source=source, target=target)
    ET.indent(gexf)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(gexf, encoding="unicode") + "\n"


def to_graphml(graph: CitationGraph) -> str:
    root = ET.Element("graphml", xmlns="http://graphml.graphdrawing.org/xmlns")
    for key, kind in (("label", "string"), ("year", "int"), ("doi", "string"), ("role", "string")):
        ET.SubElement(root, "key", {"id": key, "for": "node", "attr.name": key, "attr.type": kind})
    g = ET.SubElement(root, "graph", id="citations", edgedefault="directed")
    for node in graph.nodes.values():
        element = ET.SubElement(g, "node", id=node.id)
        for key, value in (
            ("label", node.label),
            ("year", node.year),
            ("doi", node.doi),
            ("role", node.role),
        ):
            if value not in (None, ""):
                ET.SubElement(element, "data", key=key).text = str(value)
    for number, (source, target) in enumerate(sorted(graph.edges)):
        ET.SubElement(g, "edge", id=f"e{number}", source=source, target=target)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_graph(graph: CitationGraph, path: Path) -> None:
    fmt = GRAPH_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise GraphError(f"unknown graph format '{path.suffix}'", hint="use .gexf or .graphml")
    path.write_text(to_gexf(graph) if fmt == "gexf" else to_graphml(graph), "utf-8")


def graph_summary(graph: CitationGraph) -> dict[str, object]:
    roles: dict[str, int] = {}
    for node in graph.nodes.values():
        roles[node.role] = roles.get(node.role, 0) + 1
    return {"nodes": len(graph.nodes), "edges": len(graph.edges), "roles": roles}
