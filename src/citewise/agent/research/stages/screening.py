"""Screen: each candidate paper's title, abstract and headings against the topic's facets
(facets.py), included or excluded with a reason a user can read; a model decides only the
papers the score cannot call (when a `screen` model is configured)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from citewise.agent.research.context import StageContext
from citewise.agent.research.model import Paper, Plan, ScreeningDecision
from citewise.agent.research.models import model_screen
from citewise.agent.research.reading.facets import (
    addressed_facets,
    facets_needed,
    in_summary,
    named_facets,
    places_text,
    strength,
    substantive,
)
from citewise.agent.research.stage import (
    ScreenInput,
    ScreenOutput,
    SearchOutput,
    decisions_made,
    stored,
)
from citewise.agent.research.stages.plan import related_terms, topic_facets
from citewise.retrieval.terms import content_terms, stem

INCLUDE_THRESHOLD = 0.3
UNSURE_BELOW = 0.5  # a paper naming some topic terms but scoring below this: a model decides
RELATED_WEIGHT = 0.5  # a synonym in the abstract ("scientific" for "scholarly") counts half
TOUCHED_SHARE = 0.5  # a facet named by its most specific word, not addressed, counts half


@dataclass(frozen=True)
class Screen:
    """A paper's screening score, whether the score alone includes it, and why."""

    score: float
    eligible: bool
    reason: str
    answered: list[str]
    mentions: bool = False  # the title or abstract names at least one topic term (or synonym)
    # How much of the paper is about the topic (facets.strength): who is read first when
    # more papers are eligible than --max-papers allows.
    strength: float = 0.0

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
        # Flagged by the sources (citewise.sources.search.flags): never read as evidence.
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
    eligible, reason = facet_verdict(addressed, touched, facets, mentions)
    if eligible:
        return Screen(
            max(score, INCLUDE_THRESHOLD),
            True,
            reason,
            answered,
            mentions=True,
            strength=strength(addressed),
        )
    return Screen(min(score, INCLUDE_THRESHOLD - 0.01), False, reason, answered, mentions=True)


def facet_verdict(
    addressed: dict[str, list[str]], touched: list[str], facets: list[str], mentions: str
) -> tuple[bool, str]:
    """Whether the facets a paper addresses (and those it only names) make it a paper on the
    topic, and why, in words a user can read."""
    where = "; ".join(f"“{f}” in its {places_text(places)}" for f, places in addressed.items())
    if addressed and len(facets) >= 3:
        # A long topic: its share of facets, one of them in the title or abstract (a facet
        # whose most specific word is named, not addressed, counts half), or one in the title.
        in_title = any(p.startswith("title") for ps in addressed.values() for p in ps)
        summary = any(in_summary(places) for places in addressed.values())
        share = len(addressed) + TOUCHED_SHARE * len(touched)
        eligible = in_title or (summary and share >= facets_needed(len(facets)))
    else:
        # One facet of two, named once with no word of the other, is another field's use of
        # a common phrase ("full text" of tweets), not a paper on the topic.
        # A one-facet topic named once in an abstract is a mention ("applications like
        # sentiment analysis"), not the paper's subject.
        alone = any(substantive(places) for places in addressed.values())
        eligible = bool(addressed) and (len(addressed) > 1 or bool(touched) or alone)
    if eligible:
        reason = f"addresses {len(addressed)} of the topic's {len(facets)} facets: {where}"
        if touched:
            reason += f"; names {', '.join(f'“{f}”' for f in touched)}"
        return True, reason
    if addressed and len(facets) >= 3:
        need = facets_needed(len(facets))
        reason = (
            f"addresses {len(addressed)} of the topic's {len(facets)} facets ({where}); "
            f"a paper on it addresses {need} (a facet only named counts half), one in its title "
            "or abstract, or one in its title"
        )
    elif addressed and len(facets) == 1:
        reason = f"addresses the topic only in {where}, once: a mention, not its subject"
    elif addressed:
        reason = f"addresses only {where}, once, and names no other facet of the topic"
    else:
        reason = (
            f"title/abstract mention {mentions}, but no facet of the topic "
            f"({'; '.join(facets)}) is named in its title, one abstract sentence or a heading"
        )
    return False, reason


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
                    screen = Screen(
                        screen.score,
                        verdict.relevant,
                        reason,
                        screen.answered,
                        True,
                        screen.strength,
                    )
            scored.append((paper, screen))
            ctx.checkpoint(self.state, n, len(found))
        scored.sort(key=lambda s: (-s[1].strength, -s[1].score, s[0].key))
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
