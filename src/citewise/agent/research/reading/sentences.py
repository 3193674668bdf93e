"""A paper's quotable sentences, with where each comes from: a library document's trusted
prose blocks (its own claims only) or a remote record's abstract. Pure functions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.research.reading.claims import is_own_claim
from citewise.agent.sentences.extractive import split_sentences
from citewise.store.sqlite.library import StoredBlock

_PROSE_KINDS = ("paragraph", "list", "caption")


@dataclass(frozen=True)
class Sentence:
    """A sentence of a paper with where it came from."""

    text: str
    block_id: str | None
    page: int | None
    bbox: list[float]
    section: str
    ordinal: int  # position in the paper (block ordinal, or sentence number in an abstract)
    share: float  # 0..1, how far into the paper


_STARTS = re.compile(r"^[\"“‘'(\[]?[A-Z0-9]")
_ENDS = re.compile(r"[.!?][\"”’')\]]*(?:\[[\d,\s–-]+\])?$|[.!?]\s*\[[\d,\s–-]+\]\.?$")


def is_quotable(text: str) -> bool:
    """A sentence a reader can use: a whole sentence (capital first, full stop last) of
    6-70 words, mostly words, not a reference entry. Column and page breaks leave fragments
    ("tecting inline citations ...") that must not be quoted as claims."""
    words = text.split()
    if not 6 <= len(words) <= 70 or not _STARTS.match(text) or not _ENDS.search(text):
        return False
    alphabetic = sum(1 for w in words if re.search(r"[A-Za-z]{2,}", w))
    if alphabetic / len(words) < 0.7:
        return False
    return not re.match(r"^\[?\d+\]?\s+[A-Z][a-z]+,?\s+[A-Z]\.", text)


def block_sentences(blocks: list[StoredBlock]) -> list[Sentence]:
    """Quotable sentences of a library document's trusted prose blocks."""
    last = max((b.ordinal for b in blocks), default=1) or 1
    found = []
    for block in blocks:
        if not block.trusted or block.kind not in _PROSE_KINDS:
            continue
        for text in split_sentences(block.text, "paragraph"):
            if is_quotable(text):
                found.append(
                    Sentence(
                        text,
                        block.id,
                        block.page,
                        [round(v, 1) for v in block.bbox],
                        block.section_path,
                        block.ordinal,
                        block.ordinal / last,
                    )
                )
    return found


def own_sentences(blocks: list[StoredBlock]) -> list[Sentence]:
    """The quotable sentences that state the paper's own claims, not what it reports of other
    work (claims.is_own_claim)."""
    return [s for s in block_sentences(blocks) if is_own_claim(s.text, s.section)]


def abstract_sentences(abstract: str) -> list[Sentence]:
    """Quotable sentences of a remote record's abstract (no block, no page)."""
    pieces = [s for s in split_sentences(abstract) if is_quotable(s)]
    return [
        Sentence(text, None, None, [], "Abstract", n, n / max(len(pieces), 1))
        for n, text in enumerate(pieces)
    ]
