"""Verify: every claim's evidence IDs must resolve; every claim must be supported by the
quotes it cites (its words and, strictly, its numbers). Unresolvable IDs are dropped,
unsupported claims removed, weakly supported ones kept but marked. Pure functions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from citewise.agent.numeric.numbers import unsupported
from citewise.agent.research.model import Claim, EvidenceItem, Paragraph, Report, Section
from citewise.agent.research.reading.disagree import REASON_WORDS
from citewise.retrieval.terms import content_terms, stem

KEEP = 0.75
MARK = 0.4
# Words the writer's own templates add around quoted names and numbers.
TEMPLATE_WORDS = REASON_WORDS | frozenset(
    """report reports whereas none effect likely reason quoted evidence show why differ
    unqualified et al write writes also both all about likewise""".split()
)


def claim_support(claim: Claim, quotes: list[str], allowed: set[str]) -> float:
    """1.0 for a verbatim quote; otherwise the share of the claim's words found in its quotes
    (names and template words aside), halved when it states a number no quote states."""
    if not quotes:
        return 0.0
    if any(claim.text == q or claim.text in q for q in quotes):
        return 1.0
    joined = " ".join(quotes)
    evidence_stems = {stem(t) for t in content_terms(joined)}
    terms = [
        t
        for t in content_terms(claim.text)
        if t not in TEMPLATE_WORDS and stem(t) not in allowed and not t.isdigit()
    ]
    share = sum(1 for t in terms if stem(t) in evidence_stems) / len(terms) if terms else 1.0
    # the one number rule (agent/numeric/numbers.py); years and names of the cited papers are
    # allowed
    if unsupported(claim.text, joined, " ".join(sorted(allowed))):
        share *= 0.5
    return round(share, 3)


def _allowed_words(items: list[EvidenceItem], names: dict[str, list[str]]) -> set[str]:
    """Author names and years of the cited papers may appear in a claim without a quote."""
    allowed: set[str] = set()
    for item in items:
        for word in names.get(item.paper, []):
            allowed.add(stem(word.lower()))
            allowed.add(word)
    return allowed


def verify_report(
    report: Report, evidence: list[EvidenceItem], names: dict[str, list[str]]
) -> Report:
    """The report with only claims that resolve and are supported, plus statistics.

    `names` maps a paper key to the words a sentence may use to name it (family names,
    year, title words).
    """
    by_id = {e.id: e for e in evidence}
    stats: dict[str, Any] = {
        "claims": 0,
        "notes": 0,
        "kept": 0,
        "marked": 0,
        "removed": 0,
        "ids_cited": 0,
        "ids_unresolved": 0,
    }
    supports: list[float] = []
    sections = []
    for section in report.sections:
        paragraphs = []
        for paragraph in section.paragraphs:
            claims = [
                checked
                for claim in paragraph.claims
                if (checked := _checked_claim(claim, by_id, names, stats, supports)) is not None
            ]
            if claims:
                paragraphs.append(Paragraph(claims, paragraph.lead))
        sections.append(Section(section.key, section.title, paragraphs))
    stats["mean_support"] = round(sum(supports) / len(supports), 3) if supports else 0.0
    return Report(
        report.topic,
        sections,
        _cited_references(report, sections, by_id),
        report.disagreements,
        verification=stats,
        screening=report.screening,
        coverage=report.coverage,
        lang=report.lang,
    )


def _checked_claim(
    claim: Claim,
    by_id: dict[str, EvidenceItem],
    names: dict[str, list[str]],
    stats: dict[str, Any],
    supports: list[float],
) -> Claim | None:
    """The claim citing only the IDs that resolve, flagged by its support; None when it is
    removed. Counts it in `stats` and its support in `supports`."""
    if claim.flag == "note" and not claim.evidence:
        stats["notes"] += 1
        return claim
    stats["claims"] += 1
    stats["ids_cited"] += len(claim.evidence)
    resolved = [i for i in claim.evidence if i in by_id]
    stats["ids_unresolved"] += len(claim.evidence) - len(resolved)
    cited = [by_id[i] for i in resolved]
    support = claim_support(claim, [e.quote for e in cited], _allowed_words(cited, names))
    if not resolved or support < MARK:
        stats["removed"] += 1
        return None
    supports.append(support)
    flag = claim.flag if support >= KEEP else "unverified"
    stats["marked" if flag == "unverified" else "kept"] += 1
    return replace(claim, evidence=resolved, support=support, flag=flag)


def _cited_references(
    report: Report, sections: list[Section], by_id: dict[str, EvidenceItem]
) -> list[dict[str, Any]]:
    """The report's references that a kept claim still cites, in order of first citation."""
    cited_papers = list(
        dict.fromkeys(
            by_id[i].paper for s in sections for c in s.claims() for i in c.evidence if i in by_id
        )
    )
    by_key = {str(ref.get("id")): ref for ref in report.references}
    return [by_key[k] for k in cited_papers if k in by_key]
