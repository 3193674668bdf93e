"""Counts of a research report, computed from the `Report` itself (its claims, screening,
references and evidence IDs), so every rendering and `research --json` show the same
numbers and none of them recounts rendered text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from citewise.agent.research.model import Claim, Report
from citewise.agent.sentences.extractive import split_sentences

SENTENCE_COUNTING = (
    "Sentences are counted in the report body, from the executive summary to the "
    "references; headings, bold leads and tables are not sentences. A quote of several "
    "sentences counts each, and only the last, which the citation follows, as citing "
    "evidence. Coverage notes (labelled 'Coverage note:') state what the screened evidence "
    "does not hold; they have nothing to cite and are counted apart, not as report sentences."
)


def is_note(claim: Claim) -> bool:
    """A coverage note: says what the evidence does not hold, and cites nothing."""
    return claim.flag == "note" and not claim.evidence


@dataclass(frozen=True)
class SentenceCount:
    sentences: int  # report sentences (claims), coverage notes aside
    cited: int  # of those, sentences carrying evidence IDs (the last of each claim)
    notes: int  # coverage-note sentences

    @property
    def share(self) -> float | None:
        """The share of report sentences carrying evidence IDs; None when there are none."""
        return round(self.cited / self.sentences, 4) if self.sentences else None

    @property
    def share_with_notes(self) -> float | None:
        counted = self.sentences + self.notes
        return round(self.cited / counted, 4) if counted else None


def count_sentences(report: Report, known: set[str]) -> SentenceCount:
    """Sentences of the report's claims as SENTENCE_COUNTING says; a claim cites evidence
    when at least one of its IDs is in `known` (the task's evidence)."""
    sentences = cited = notes = 0
    for claim in report.claims():
        found = len(split_sentences(" ".join(claim.text.split())))
        if is_note(claim):
            notes += found
            continue
        sentences += found
        if found and any(i in known for i in claim.evidence):
            cited += 1
    return SentenceCount(sentences, cited, notes)


@dataclass(frozen=True)
class ReportStatistics:
    """What `research --json` reports under `stats` (with the task's rounds and tokens
    added by the caller) and what the Markdown appendix prints."""

    sub_questions: int
    papers_screened: int
    papers_included: int
    papers_cited: int
    evidence_items: int
    evidence_cited: int
    unresolved_ids: int
    counted: SentenceCount
    disagreements: int
    verification: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "sub_questions": self.sub_questions,
            "papers_screened": self.papers_screened,
            "papers_included": self.papers_included,
            "papers_cited": self.papers_cited,
            "evidence_items": self.evidence_items,
            "evidence_cited": self.evidence_cited,
            "unresolved_ids": self.unresolved_ids,
            "sentences": self.counted.sentences,
            "sentences_with_evidence": self.counted.cited,
            "evidence_sentence_share": self.counted.share,
            "coverage_notes": self.counted.notes,
            "evidence_sentence_share_with_notes": self.counted.share_with_notes,
            "sentence_counting": SENTENCE_COUNTING,
            "disagreements": self.disagreements,
            "verification": self.verification,
        }


def report_statistics(report: Report, evidence_ids: Iterable[str]) -> ReportStatistics:
    """The report's counts; `evidence_ids` are the task's evidence (cited IDs outside it
    are unresolved)."""
    known = set(evidence_ids)
    cited = {i for c in report.claims() for i in c.evidence}
    return ReportStatistics(
        sub_questions=sum(1 for s in report.sections if s.key[1:].isdigit()),
        papers_screened=len(report.screening),
        papers_included=sum(1 for d in report.screening if d.included),
        papers_cited=len(report.references),
        evidence_items=len(known),
        evidence_cited=len(cited & known),
        unresolved_ids=len(cited - known),
        counted=count_sentences(report, known),
        disagreements=len(report.disagreements),
        verification=report.verification,
    )
