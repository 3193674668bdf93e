"""Search: find candidate papers for each sub-question (screening.py decides which to read).

Search runs every query variant against the local library (hybrid retrieval), each facet of
the topic alone and by its other names, adds the documents closest to a facet in meaning
(meaning.py), and, when asked, searches remote scholarly sources (`citewise.sources`,
imported lazily).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from citewise.agent.research.context import StageContext
from citewise.agent.research.model import Paper
from citewise.agent.research.reading.meaning import closest_documents
from citewise.agent.research.reading.vocabulary import other_names
from citewise.agent.research.remote_query import search_remote
from citewise.agent.research.stage import (
    SearchInput,
    SearchOutput,
    round_queries,
)
from citewise.agent.research.stages.plan import topic_facets
from citewise.store.protocols import AuditLog
from citewise.store.sqlite.library import StoredDocument

log = logging.getLogger(__name__)
HITS_PER_QUERY = 8
TOP_RANKS = 3
REMOTE_LIMIT = 10
LEAD_CHARS = 1500
MAX_HEADINGS = 80
FACET_HITS = 40
OTHER_NAMES_SEARCHED = 6  # a facet's other names searched (vocabulary.other_names)


def document_csl(doc: StoredDocument) -> dict[str, Any]:
    """A CSL-JSON item for a library document (what the store knows about it)."""
    item: dict[str, Any] = {"id": doc.id, "type": "article-journal", "title": doc.title or doc.id}
    authors = []
    for name in doc.authors:
        parts = name.split()
        if parts:
            authors.append({"family": parts[-1], "given": " ".join(parts[:-1])})
    if authors:
        item["author"] = authors
    if doc.year:
        item["issued"] = {"date-parts": [[doc.year]]}
    if doc.doi:
        item["DOI"] = doc.doi
    item["URL"] = Path(doc.path).as_uri()
    return item


def citation_key(key: str) -> str:
    """A Pandoc-safe citation key (letters, digits and inner -_:.)."""
    cleaned = re.sub(r"[^A-Za-z0-9_:.\-]+", "-", key).strip("-_:.")
    return cleaned if cleaned and cleaned[0].isalnum() else f"ref-{cleaned or 'x'}"


def record_paper(record: Any, round_: int) -> Paper:
    """A remote search record (citewise.sources.SearchRecord) as a candidate paper."""
    key = citation_key(str(record.key))
    csl = dict(record.csl or {})
    csl["id"] = key
    link = record.pdf_url or (f"https://doi.org/{record.doi}" if record.doi else "")
    link = link or str(csl.get("URL", ""))
    return Paper(
        key=key,
        title=record.title or "",
        abstract=record.abstract or "",
        year=record.year,
        authors=list(record.authors or []),
        origin=",".join(record.sources) or "remote",
        link=link,
        csl=csl,
        round=round_,
        lead=record.abstract or "",
        pdf_url=(record.pdf_url or "") if record.open_access else "",
    )


def remote_search(
    query: str,
    sources: list[str],
    limit: int,
    audit: AuditLog | None = None,
    config_path: str | None = None,
    environ: dict[str, str] | None = None,
) -> tuple[list[Any], list[str]]:
    """Search remote sources through citewise.sources (requests logged and cached in
    `audit`); keys and contact address from `environ` (the face's snapshot)."""
    from citewise.sources import search_sources
    from citewise.sources.config import SourcesConfig

    config = SourcesConfig.load(config_path, environ or {})
    result = search_sources(query, sources, audit=audit, limit=limit, config=config)
    return list(result.records), [str(w) for w in result.warnings]


class SearchStage:
    """Queries -> candidate papers with the blocks each sub-question retrieved."""

    name = "search"
    state = "searching"
    per_round = True

    def inputs(self, ctx: StageContext) -> SearchInput:
        plan = ctx.plan()
        return SearchInput(plan, round_queries(ctx, plan, ctx.task.round), ctx.task.round)

    def following(self, ctx: StageContext, output: SearchOutput) -> tuple[str, int]:
        return "screening", ctx.task.round

    def run(self, ctx: StageContext, inputs: SearchInput) -> SearchOutput:
        queries, round_ = inputs.queries, inputs.round
        papers: dict[str, Paper] = {}
        best_hits: dict[str, dict[str, float]] = {}
        total = sum(len(q) for q in queries.values())
        done = 0
        # PDFs this task fetched for remote records are those records, not new papers.
        acquired = {e.data.get("document") for e in ctx.tasks.events(ctx.task.id, "acquired")}
        for sq_id, variants in queries.items():
            for query in variants:
                hits = ctx.retriever.search(query, k=HITS_PER_QUERY, neighbours=0)
                for rank, hit in enumerate(hits):
                    doc_id = hit.block.document_id
                    if doc_id in acquired:
                        continue
                    if doc_id not in papers:
                        doc = ctx.store.document(doc_id)
                        if doc is None:
                            continue
                        papers[doc_id] = self._local_paper(ctx, doc, round_)
                    blocks = papers[doc_id].hits.setdefault(sq_id, [])
                    if hit.block.id not in blocks:
                        blocks.append(hit.block.id)
                    # Breadth counts sub-questions where the paper ranks near the top: every
                    # paper shows up somewhere in a small library's top 8.
                    per_sq = best_hits.setdefault(doc_id, {})
                    strong = 1.0 if rank < TOP_RANKS else 0.0
                    per_sq[sq_id] = max(per_sq.get(sq_id, 0.0), strong)
                done += 1
                ctx.checkpoint(self.state, done, total)
        # Each facet of the topic searched alone, deeper, and by its other names: the papers
        # on one facet that the whole-topic queries rank below papers matching many of its
        # words; then the documents closest to a facet in meaning (title and abstract).
        facets = topic_facets(inputs.plan.key_phrases)
        found: list[str] = []
        for facet in facets:
            for name in [facet, *other_names(facet)[:OTHER_NAMES_SEARCHED]]:
                found += [
                    h.block.document_id
                    for h in ctx.retriever.search(name, k=FACET_HITS, neighbours=0)
                ]
        found += closest_documents(ctx.store.documents(), ctx.retriever.embedder, facets)
        for doc_id in dict.fromkeys(found):
            if doc_id not in papers and doc_id not in acquired:
                doc = ctx.store.document(doc_id)
                if doc is not None:
                    papers[doc_id] = self._local_paper(ctx, doc, round_)
        warnings: list[str] = []
        if ctx.options.remote_sources and ctx.remote_search is not None:
            warnings = self._remote_papers(ctx, inputs, papers, best_hits)
        for key, paper in papers.items():
            # Breadth: how many sub-questions found this paper, weighted by rank strength.
            paper.retrieval = round(sum(best_hits.get(key, {}).values()) / len(queries), 4)
        ordered = sorted(papers.values(), key=lambda p: (-p.retrieval, p.key))
        for warning in warnings:
            ctx.tasks.event(ctx.task.id, self.name, "warning", {"message": warning})
        return SearchOutput(ordered, warnings)

    def _remote_papers(
        self,
        ctx: StageContext,
        inputs: SearchInput,
        papers: dict[str, Paper],
        best_hits: dict[str, dict[str, float]],
    ) -> list[str]:
        """Add the remote sources' records for the round's queries to `papers` (each query
        logged as a remote-query event); returns the sources' warnings."""
        remote = ctx.remote_search
        assert remote is not None
        plan, round_ = inputs.plan, inputs.round
        _, freqs = ctx.retriever.document_frequencies(plan.topic_terms)
        sent_found = search_remote(
            plan,
            inputs.queries,
            round_,
            lambda text: remote(text, ctx.options, REMOTE_LIMIT),
            # Rarer in the library, rarer in the databases: the term broadening drops.
            rarity=lambda term: 1.0 / (1.0 + freqs.get(term, 0)) + len(term) / 1000,
        )
        warnings = list(dict.fromkeys(sent_found.warnings))
        for sent in sent_found.log:
            log.info(
                "remote query for %s: %s (%s): %d records",
                sent["sub_question"],
                sent["query"],
                sent["why"],
                sent["records"],
            )
            ctx.tasks.event(ctx.task.id, self.name, "remote-query", sent)
        for sq_id, records in sent_found.records.items():
            for record in records:
                paper = record_paper(record, round_)
                found = papers.setdefault(paper.key, paper)
                found.hits.setdefault(sq_id, [])
                best_hits.setdefault(paper.key, {})[sq_id] = 0.5
        return warnings

    @staticmethod
    def _local_paper(ctx: StageContext, doc: StoredDocument, round_: int) -> Paper:
        lead = doc.abstract
        blocks = ctx.store.blocks(doc.id)
        if not lead:
            paragraphs = [b.text for b in blocks[:40] if b.kind == "paragraph"]
            lead = " ".join(paragraphs)[:LEAD_CHARS]
        paths = dict.fromkeys(b.section_path for b in blocks if b.section_path)
        headings = list(dict.fromkeys(part for path in paths for part in path.split(" > ")))
        return Paper(
            key=doc.id,
            title=doc.title,
            abstract=doc.abstract,
            year=doc.year,
            authors=doc.authors,
            origin="local",
            link=Path(doc.path).as_uri(),
            csl=document_csl(doc),
            round=round_,
            lead=lead,
            headings=headings[:MAX_HEADINGS],
        )
