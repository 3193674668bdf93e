"""Drafting with a model: the answer schema, numbered evidence and the prompts around it.

Pure functions and constants shared by generated answers (agent/generation/generate.py) and research
prose (agent/research/prose.py): what the model is shown, in what shape it must reply, and
how evidence is trimmed to fit its context window.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from citewise.agent.ask.qa import Evidence
from citewise.llm.base import Message
from citewise.llm.client import ModelClient
from citewise.retrieval.terms import content_terms, stem

log = logging.getLogger(__name__)

MAX_EVIDENCE = 4
MAX_EVIDENCE_WORDS = 120
ANSWER_TOKENS = 200
UNSUPPORTED_MARK = " [unsupported]"

SYSTEM_PROMPT = """You answer a question using only the numbered evidence passages.
Reply with a JSON object: {"sentences": [{"text": "...", "citations": ["E1"]}], "refused": false}.
Write one to three short sentences. Every sentence cites the passage(s) it comes from.
Copy numbers exactly as the evidence writes them. If the evidence does not answer the
question, reply {"sentences": [], "refused": true}."""

REPAIR_PROMPT = """These sentences are not supported by the evidence they cite:
{problems}
Rewrite each one so that the passage it cites says it, or leave it out.
Reply with the same JSON object."""


class DraftSentence(BaseModel):
    text: str = Field(max_length=400)
    citations: list[str] = Field(max_length=4)


class DraftAnswer(BaseModel):
    sentences: list[DraftSentence] = Field(max_length=4)
    refused: bool


@dataclass
class NumberedEvidence:
    """Evidence as the model sees it: E-number, the excerpt shown, and where it comes from."""

    number: str  # "E1"
    evidence: Evidence  # quote = the excerpt shown to the model, verbatim from the block


CITATION_MARKER = re.compile(r"\s*\[\s*(E\d+)\s*\]", re.IGNORECASE)


def normalize_citation(raw: str) -> str:
    """ "E1", "[E1]", "e1", "1" -> "E1"; anything else unchanged (and so unknown)."""
    text = raw.strip().strip("[]()").strip().upper()
    return f"E{text}" if text.isdigit() else text


def excerpt(text: str, focus: str = "", limit: int = MAX_EVIDENCE_WORDS) -> str:
    """At most `limit` words of a block, around `focus` (the sentence that made it relevant)."""
    words = text.split()
    if len(words) <= limit:
        return " ".join(words)
    start = 0
    if focus:
        at = " ".join(words).find(focus.split("…")[0].strip()[:60])
        if at >= 0:
            start = max(0, len(" ".join(words)[:at].split()) - limit // 4)
    start = min(start, len(words) - limit)
    return " ".join(words[start : start + limit])


def question_coverage(question: str, sentences: list[str]) -> float:
    """Share of the question's content words (stemmed) that the sentences use."""
    wanted = {stem(t) for t in content_terms(question)}
    if not wanted:
        return 1.0
    said = {stem(t) for t in content_terms(" ".join(sentences))}
    return len(wanted & said) / len(wanted)


def render_evidence(items: list[NumberedEvidence]) -> str:
    return "\n\n".join(
        f"[{n.number}] ({n.evidence.title or n.evidence.document}, p. {n.evidence.page}) "
        f"{n.evidence.quote}"
        for n in items
    )


def answer_messages(question: str, items: list[NumberedEvidence]) -> list[Message]:
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {
            "role": "user",
            "content": f"Evidence:\n\n{render_evidence(items)}\n\nQuestion: {question}",
        },
    ]


def fit_to_context(
    question: str, items: list[NumberedEvidence], client: ModelClient, reply_tokens: int
) -> list[NumberedEvidence]:
    """Drop the last passages (then shorten the first) until the prompt fits n_ctx."""
    budget = client.n_ctx - reply_tokens - 64  # room for the chat template's own tokens

    def size(chosen: list[NumberedEvidence]) -> int:
        return sum(client.count_tokens(m["content"]) for m in answer_messages(question, chosen))

    kept = list(items)
    while len(kept) > 1 and size(kept) > budget:
        kept.pop()
    while kept and size(kept) > budget and len(kept[0].evidence.quote.split()) > 20:
        words = kept[0].evidence.quote.split()  # a shortened copy: the answer keeps the quote
        shorter = replace(kept[0].evidence, quote=" ".join(words[: len(words) * 3 // 4]))
        kept[0] = replace(kept[0], evidence=shorter)
    if len(kept) < len(items):
        log.info("trimmed evidence from %d to %d passages to fit n_ctx", len(items), len(kept))
    return kept
