"""Size bounds on blocks: a block is something a person reads and an answer quotes, so an
overly long one (a 50 MB one-line Markdown file) is split into bounded blocks at sentence,
line or word boundaries. Real paragraphs and tables are far below the bound."""

from __future__ import annotations

import dataclasses
import re

from citewise.documents.model import Block, Document

MAX_BLOCK_CHARS = 16_000  # the longest block among the shared papers has ~8,000
SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s+")
LINES = ("code", "table")  # kinds whose line breaks carry meaning


def split_text(text: str, limit: int = MAX_BLOCK_CHARS, lines: bool = False) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut after the last sentence end (or
    line break when `lines`) in the second half of each piece, else at a space, else hard."""
    pieces: list[str] = []
    while len(text) > limit:
        window = text[:limit]
        if lines:
            cut = window.rfind("\n", limit // 2) + 1
        else:
            cut = max((m.end() for m in SENTENCE_END.finditer(window, limit // 2)), default=0)
        cut = cut or max(window.rfind(" ", limit // 2), window.rfind("\n", limit // 2)) + 1
        cut = cut or limit
        pieces.append(text[:cut].rstrip())
        text = text[cut:] if lines else text[cut:].lstrip()
    pieces.append(text.rstrip())
    return [p for p in pieces if p.strip()]


def _pieces(block: Block, limit: int) -> list[Block]:
    texts = split_text(block.text, limit, block.kind in LINES)
    first = dataclasses.replace(block, text=texts[0])
    # a table's cells stay with its first piece; the rest is its text, searchable as prose
    kind, label, data = (
        ("paragraph", None, None)
        if block.kind == "table"
        else (block.kind, block.label, block.data)
    )
    rest = [
        dataclasses.replace(block, text=t, kind=kind, label=label, data=data) for t in texts[1:]
    ]
    return [first, *rest]


def bound_blocks(doc: Document, limit: int = MAX_BLOCK_CHARS) -> None:
    """Split every block longer than `limit` characters; ordinals, references and
    citations follow the blocks they pointed at. A no-op when every block fits."""
    if all(len(b.text) <= limit for b in doc.blocks):
        return
    blocks: list[Block] = []
    moved: dict[int, list[int]] = {}  # old ordinal -> new ordinals of its pieces
    for block in doc.blocks:
        pieces = _pieces(block, limit) if len(block.text) > limit else [block]
        moved[block.ordinal] = list(range(len(blocks), len(blocks) + len(pieces)))
        blocks.extend(pieces)
    for ordinal, block in enumerate(blocks):
        block.ordinal = ordinal
    for ref in doc.references:
        if ref.block is not None and ref.block in moved:
            ref.block = moved[ref.block][0]
    for citation in doc.citations:
        new = moved.get(citation.block, [citation.block])
        citation.block = next((n for n in new if citation.marker in blocks[n].text), new[0])
    doc.blocks = blocks
