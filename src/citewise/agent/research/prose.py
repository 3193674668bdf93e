"""Section prose from the `write` model, through the same verified path answers take.

For each sub-question section the extractive writer filled, the model gets that section's
evidence numbered [E1..En] (quotes only: evidence IDs never reach the model; sentences addressed
to an assistant, agent/ask/injection.py, left out as generate does) and replies with
sentences citing E-numbers (`DraftAnswer`, the answer schema). Code maps E-numbers to evidence
IDs, drops citations it did not offer, and checks every sentence against the quotes it cites
with the answer `Verifier` (at the report's stricter threshold); unsupported sentences are
dropped, and the verify stage checks the survivors again like every other claim. A section
keeps its extractive prose when the model is absent, over budget, invalid, or nothing it
wrote survives.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from citewise.agent.ask.injection import without_instructions
from citewise.agent.generation.drafting import DraftAnswer, normalize_citation
from citewise.agent.generation.verify import Verifier
from citewise.agent.research.model import Claim, EvidenceItem, Paragraph, Report, Section
from citewise.agent.research.models import ResearchModels
from citewise.agent.research.stages.verify import KEEP
from citewise.agent.sentences.extractive import split_sentences
from citewise.llm.base import Message

WRITE_MAX_TOKENS = 240
MAX_EVIDENCE = 6
MAX_QUOTE_WORDS = 80

SYSTEM_PROMPT = """You write one paragraph of a literature review from numbered evidence.
Reply with a JSON object: {"sentences": [{"text": "...", "citations": ["E1"]}], "refused": false}.
Write two to four short sentences that answer the question. Every sentence cites the
passage(s) it comes from. Use only what the evidence says; copy numbers exactly.
If the evidence does not answer the question, reply {"sentences": [], "refused": true}."""

_MARKER = re.compile(r"\s*\[\s*(E\d+)\s*\]", re.IGNORECASE)


@dataclass
class ProseLog:
    """What happened to the model's drafts, summed over sections (stored with the report)."""

    sections: int = 0  # sections given to the model
    written: int = 0  # sections whose prose is the model's (verified) sentences
    sentences_kept: int = 0
    sentences_dropped: int = 0
    unknown_citations: int = 0
    fell_back: list[str] = field(default_factory=list)  # section keys kept extractive

    def as_dict(self) -> dict[str, object]:
        return {
            "model_sections": self.sections,
            "model_sections_written": self.written,
            "model_sentences_kept": self.sentences_kept,
            "model_sentences_dropped": self.sentences_dropped,
            "model_unknown_citations": self.unknown_citations,
        }


def numbered(section: Section, evidence: dict[str, EvidenceItem]) -> list[EvidenceItem]:
    """The evidence the extractive prose of a section cites, in order, at most MAX_EVIDENCE,
    as the model may see it: sentences addressed to an assistant (agent/ask/injection.py) left
    out of each quote, and a quote that is nothing else left out whole."""
    ids = list(dict.fromkeys(i for c in section.claims() for i in c.evidence if i in evidence))
    shown: list[EvidenceItem] = []
    for i in ids:
        kept, _ = without_instructions(evidence[i].quote)
        if kept.strip():
            shown.append(replace(evidence[i], quote=kept))
    return shown[:MAX_EVIDENCE]


def section_messages(question: str, items: list[EvidenceItem]) -> list[Message]:
    # Quotes only: a small model copies a "(title, p. 2)" prefix into its citations.
    shown = "\n\n".join(
        f"[E{n}] " + " ".join(item.quote.split()[:MAX_QUOTE_WORDS])
        for n, item in enumerate(items, start=1)
    )
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"Evidence:\n\n{shown}\n\nQuestion: {question}"},
    ]


def verified_claims(
    draft: DraftAnswer, items: list[EvidenceItem], verifier: Verifier, log: ProseLog
) -> list[Claim]:
    """The draft's sentences that cite offered evidence and that evidence supports."""
    by_number = {f"E{n}": item for n, item in enumerate(items, start=1)}
    claims: list[Claim] = []
    for sentence in draft.sentences:
        inline = [m.upper() for m in _MARKER.findall(sentence.text)]
        numbers = list(dict.fromkeys(normalize_citation(c) for c in [*sentence.citations, *inline]))
        log.unknown_citations += sum(1 for c in numbers if c not in by_number)
        cited = [by_number[c] for c in numbers if c in by_number]
        # A reply "sentence" may hold several: each stands or falls on its own.
        for text in split_sentences(" ".join(_MARKER.sub("", sentence.text).split())):
            verdict = verifier.check(text, [e.quote for e in cited])
            if verdict.supported and text not in {c.text for c in claims}:
                claims.append(Claim(text, [e.id for e in cited], verdict.support))
                log.sentences_kept += 1
            else:
                log.sentences_dropped += 1
    return claims


def model_prose(
    models: ResearchModels,
    report: Report,
    evidence: list[EvidenceItem],
    questions: dict[str, str],
    checkpoint: Callable[[int, int], None] = lambda done, total: None,
) -> tuple[Report, ProseLog]:
    """The report with each sub-question section's prose written by the `write` model where
    verified sentences survive; other sections unchanged."""
    log = ProseLog()
    if models.write is None:
        return report, log
    by_id = {e.id: e for e in evidence}
    # A report sentence needs the support the report's verify stage keeps unmarked, more
    # than an answer sentence needs (a chat answer is read beside its evidence).
    verifier = Verifier(threshold=KEEP)
    keys = [s.key for s in report.sections if s.key in questions]
    sections: list[Section] = []
    for section in report.sections:
        items = numbered(section, by_id) if section.key in questions else []
        if not items:
            sections.append(section)
            continue
        log.sections += 1
        messages = section_messages(questions[section.key], items)
        draft = models.ask(models.write, messages, DraftAnswer, WRITE_MAX_TOKENS)
        claims = verified_claims(draft, items, verifier, log) if draft else []
        if claims:
            log.written += 1
            sections.append(Section(section.key, section.title, [Paragraph(claims)]))
        else:
            log.fell_back.append(section.key)
            sections.append(section)
        checkpoint(keys.index(section.key) + 1, len(keys))
    rewritten = Report(
        report.topic,
        sections,
        report.references,  # the verify stage keeps those still cited
        report.disagreements,
        report.verification,
        report.screening,
        report.coverage,
    )
    return rewritten, log
