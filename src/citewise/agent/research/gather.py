"""Search and screen: find candidate papers for each sub-question, then decide which to read.

Search runs every query variant against the local library (hybrid retrieval) and, when
asked, against remote scholarly sources (`citewise.sources`, imported lazily). Screening
scores each new paper's title and abstract against the topic and logs include/exclude
with a reason a user can read.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citewise.agent.research.context import StageContext
from citewise.agent.research.facets import (
    addressed_facets,
    facets_needed,
    in_summary,
    named_facets,
    places_text,
    substantive,
)
from citewise.agent.research.model import Paper, Plan, ScreeningDecision
from citewise.agent.research.models import model_screen
from citewise.agent.research.plan import related_terms, topic_facets
from citewise.agent.research.remote_query import search_remote
from citewise.agent.research.stage import (
    ScreenInput,
    ScreenOutput,
    SearchInput,
    SearchOutput,
    decisions_made,
    round_queries,
    stored,
)
from citewise.retrieval.terms import content_terms, stem
from citewise.store.library import StoredDocument
from citewise.store.protocols import AuditLog

log = logging.getLogger(__name__)
HITS_PER_QUERY = 8
TOP_RANKS = 3
RELATED_WEIGHT = 0.5  # a synonym in the abstract ("scientific" for "scholarly") counts half
REMOTE_LIMIT = 10
INCLUDE_THRESHOLD = 0.3
UNSURE_BELOW = 0.5  # a paper naming some topic terms but scoring below this: a model decides
LEAD_CHARS = 1500
MAX_HEADINGS = 80
FACET_HITS = 40
TOUCHED_SHARE = 0.5  # a facet named by its most specific word, not addressed, counts half


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
        # Each facet of the topic searched alone, deeper: the papers on one facet that the
        # whole-topic queries rank below papers matching many of its words.
        for facet in topic_facets(inputs.plan.key_phrases):
            for hit in ctx.retriever.search(facet, k=FACET_HITS, neighbours=0):
                doc_id = hit.block.document_id
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


@dataclass(frozen=True)
class Screen:
    """A paper's screening score, whether the score alone includes it, and why."""

    score: float
    eligible: bool
    reason: str
    answered: list[str]
    mentions: bool = False  # the title or abstract names at least one topic term (or synonym)

    @property
    def unsure(self) -> bool:
        """Whether the score cannot call it: some of the topic named, but not strongly."""
        return self.mentions and self.score < UNSURE_BELOW


def screen_paper(
    paper: Paper,
    plan: Plan,
    weight: Callable[[str], float],
) -> Screen:
    """Score a paper from its title + abstract and its search breadth.

    The score (for ordering) counts IDF-weighted topic terms in the title and abstract (or
    opening text), synonyms at half weight, and how many sub-questions rank it near the top.
    A paper is eligible when it addresses any facet of the topic (addressed_facets): search
    breadth alone (a long paper matches everything somewhere) never includes it.
    """
    retracted = re.search(r"^RETRACTED: (.+)$", str(paper.csl.get("note") or ""), re.M)
    if retracted:
        # Flagged by the sources (citewise.sources.flags): never read as evidence.
        return Screen(0.0, False, f"excluded: retracted ({retracted.group(1)})", [])
    text = {stem(t) for t in content_terms(f"{paper.title} {paper.lead or paper.abstract}")}
    weights = {t: weight(t) for t in plan.topic_terms}
    found = [t for t in plan.topic_terms if stem(t) in text]
    related = [
        t
        for t in plan.topic_terms
        if t not in found and any(stem(r) in text for r in related_terms([t]))
    ]
    covered = sum(weights[t] for t in found) + RELATED_WEIGHT * sum(weights[t] for t in related)
    coverage = covered / (sum(weights.values()) or 1.0)
    score = round(0.65 * coverage + 0.35 * min(1.0, paper.retrieval), 3)
    answered = [q for q, blocks in paper.hits.items() if blocks or not paper.local]
    facets = topic_facets(plan.key_phrases) or [plan.topic]
    addressed = addressed_facets(paper, facets)
    if not found and not related and not addressed:
        return Screen(
            score, False, "title and abstract mention none of the topic's terms", answered
        )
    mentions = ", ".join(found[:6] + [f"{t} (a synonym)" for t in related[:3]])
    touched = [f for f in named_facets(paper, facets, weight) if f not in addressed]
    where = "; ".join(f"“{f}” in its {places_text(places)}" for f, places in addressed.items())
    if addressed and len(facets) >= 3:
        # A long topic: its share of facets, one of them in the title or abstract (a facet
        # whose most specific word is named, not addressed, counts half), or one in the title.
        in_title = any("title" in places for places in addressed.values())
        summary = any(in_summary(places) for places in addressed.values())
        share = len(addressed) + TOUCHED_SHARE * len(touched)
        eligible = in_title or (summary and share >= facets_needed(len(facets)))
    else:
        # One facet of two, named once with no word of the other, is another field's use of
        # a common phrase ("full text" of tweets), not a paper on the topic.
        alone = any(substantive(places) for places in addressed.values())
        eligible = bool(addressed) and (len(facets) == 1 or len(addressed) > 1 or touched or alone)
    if eligible:
        reason = f"addresses {len(addressed)} of the topic's {len(facets)} facets: {where}"
        if touched:
            reason += f"; names {', '.join(f'“{f}”' for f in touched)}"
        return Screen(max(score, INCLUDE_THRESHOLD), True, reason, answered, mentions=True)
    if addressed and len(facets) >= 3:
        need = facets_needed(len(facets))
        reason = (
            f"addresses {len(addressed)} of the topic's {len(facets)} facets ({where}); "
            f"a paper on it addresses {need} (a facet only named counts half), one in its title "
            "or abstract, or one in its title"
        )
    elif addressed:
        reason = f"addresses only {where}, once, and names no other facet of the topic"
    else:
        reason = (
            f"title/abstract mention {mentions}, but no facet of the topic "
            f"({'; '.join(facets)}) is named in its title, one abstract sentence or a heading"
        )
    return Screen(min(score, INCLUDE_THRESHOLD - 0.01), False, reason, answered, mentions=True)


class ScreenStage:
    """Candidate papers -> include/exclude decisions, each with a score and a reason."""

    name = "screen"
    state = "screening"
    per_round = True

    def inputs(self, ctx: StageContext) -> ScreenInput:
        r = ctx.task.round
        earlier = decisions_made(ctx, r - 1)
        seen = {d.key for d in earlier}
        searched = stored(ctx, SearchOutput, r)
        assert searched is not None, "the search stage runs first"
        found = [p for p in searched.papers if p.key not in seen]
        return ScreenInput(ctx.plan(), found, sum(1 for d in earlier if d.included))

    def following(self, ctx: StageContext, output: ScreenOutput) -> tuple[str, int]:
        return "extracting", ctx.task.round

    def run(self, ctx: StageContext, inputs: ScreenInput) -> ScreenOutput:
        plan, found, included_before = inputs.plan, inputs.found, inputs.included_before
        total, freqs = ctx.retriever.document_frequencies(plan.topic_terms)
        blocks = max(total, 1)

        def weight(term: str) -> float:
            # Rarer topic words say more about whether a paper is on topic.
            return 1.0 / (1.0 + 20.0 * freqs.get(term, 0) / blocks)

        scored: list[tuple[Paper, Screen]] = []
        for n, paper in enumerate(found, start=1):
            screen = screen_paper(paper, plan, weight)
            if ctx.models is not None and screen.unsure:
                # Only papers the score cannot call are worth a model's tokens.
                verdict = model_screen(ctx.models, plan.topic, paper.title, paper.lead)
                if verdict is not None:
                    judged = "relevant" if verdict.relevant else "not relevant"
                    reason = f"{screen.reason}; screen model: {judged} ({verdict.reason.strip()})"
                    screen = Screen(screen.score, verdict.relevant, reason, screen.answered, True)
            scored.append((paper, screen))
            ctx.checkpoint(self.state, n, len(found))
        scored.sort(key=lambda s: (-s[1].score, s[0].key))
        room = max(0, ctx.options.max_papers - included_before)
        decisions = []
        for paper, screen in scored:
            include, reason = screen.eligible, screen.reason
            if include and room == 0:
                include, reason = False, f"{reason}; beyond --max-papers {ctx.options.max_papers}"
            elif include:
                room -= 1
            decisions.append(
                ScreeningDecision(
                    paper.key,
                    paper.title,
                    paper.round,
                    screen.score,
                    include,
                    reason,
                    screen.answered,
                )
            )
        return ScreenOutput(decisions)
