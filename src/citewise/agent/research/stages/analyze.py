"""Analyze: per sub-question evidence and coverage, gaps and conflicts; gaps become new
queries for the next round. Pure functions of the plan and the evidence so far."""

from __future__ import annotations

from collections import Counter

from citewise.agent.research.model import EvidenceItem, Plan
from citewise.agent.research.reading.disagree import find_disagreements
from citewise.agent.research.stage import Added, Analysis
from citewise.agent.research.stages.plan import FACET_TEMPLATES, related_terms
from citewise.retrieval.terms import content_terms

MIN_PAPERS = 2  # a sub-question answered by one paper alone is a gap worth another round
MIN_EVIDENCE = 2
LEARNED_TERMS = 4


def coverage(plan: Plan, evidence: list[EvidenceItem]) -> dict[str, dict[str, int]]:
    """Per sub-question: evidence items and distinct papers."""
    table = {q.id: {"evidence": 0, "papers": 0} for q in plan.sub_questions}
    papers: dict[str, set[str]] = {q.id: set() for q in plan.sub_questions}
    for item in evidence:
        if item.sub_question in table:
            table[item.sub_question]["evidence"] += 1
            papers[item.sub_question].add(item.paper)
    for qid, found in papers.items():
        table[qid]["papers"] = len(found)
    return table


def gaps(table: dict[str, dict[str, int]]) -> list[str]:
    return [
        qid
        for qid, row in table.items()
        if row["papers"] < MIN_PAPERS or row["evidence"] < MIN_EVIDENCE
    ]


def learned_terms(plan: Plan, evidence: list[EvidenceItem]) -> list[str]:
    """Words the evidence uses across papers that the topic does not: the field's own terms."""
    per_paper: dict[str, set[str]] = {}
    for item in evidence:
        per_paper.setdefault(item.paper, set()).update(content_terms(item.quote))
    counts = Counter(t for terms in per_paper.values() for t in terms)
    known = set(plan.topic_terms)
    ranked = sorted(
        (t for t, n in counts.items() if n >= 2 and t not in known and not t.isdigit()),
        key=lambda t: (-counts[t], t),
    )
    return [t for t in ranked if len(t) > 3][:LEARNED_TERMS]


def gap_queries(
    plan: Plan, gap_ids: list[str], evidence: list[EvidenceItem], asked: set[str]
) -> dict[str, list[str]]:
    """New query variants for each gap, none asked before."""
    learned = learned_terms(plan, evidence)
    queries: dict[str, list[str]] = {}
    for question in plan.sub_questions:
        if question.id not in gap_ids:
            continue
        cues = list(FACET_TEMPLATES.get(question.facet, ("", ()))[1])
        related = related_terms(question.terms)
        candidates = [
            " ".join([*content_terms(question.text)[:4], *learned[:2]]),
            " ".join([*question.terms[:3], *related[:3], *cues[-2:]]),
            " ".join([*learned, *cues[:2]]),
        ]
        fresh = [q for q in dict.fromkeys(candidates) if q.strip() and q not in asked]
        if fresh:
            queries[question.id] = fresh[:2]
    return queries


def analyze(
    plan: Plan,
    evidence: list[EvidenceItem],
    round_: int,
    rounds: int,
    asked: set[str],
    new_papers: int,
    years: dict[str, int | None],
) -> Analysis:
    """The analyze stage's output: coverage, gaps, conflicts, next queries, whether to go on."""
    table = coverage(plan, evidence)
    missing = gaps(table)
    added = sum(1 for e in evidence if e.round == round_)
    queries = gap_queries(plan, missing, evidence, asked) if round_ < rounds else {}
    stop = ""
    if round_ >= rounds:
        stop = f"reached --rounds {rounds}"
    elif round_ > 1 and added == 0 and new_papers == 0:
        stop = f"round {round_} added no papers and no evidence"
    elif not missing:
        stop = "every sub-question has evidence from at least two papers"
    elif not queries:
        stop = "no new queries for the remaining gaps"
    conflicts = find_disagreements(evidence, years)
    return Analysis(
        coverage=table,
        covered=sum(1 for row in table.values() if row["evidence"] > 0),
        gaps=missing,
        new_queries={} if stop else queries,
        conflicts=conflicts,
        added=Added(papers=new_papers, evidence=added),
        stop=stop,
    )
