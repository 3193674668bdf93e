"""Size bounds: on PDF pages, text operators checked before layout builds them; on blocks,
something a person reads and an answer quotes, so an overly long one (a 50 MB one-line
Markdown file) is split at sentence, line or word boundaries. Real papers are far below both."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pymupdf

from citewise.documents.model import Block, Document
from citewise.documents.options import TEXT_OPS_VARIABLE
from citewise.errors import TooComplexError

MAX_BLOCK_CHARS = 16_000  # the longest block among the shared papers has ~8,000
SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s+")
LINES = ("code", "table")  # kinds whose line breaks carry meaning

TEXT_OPERATORS = (b"Tj", b"TJ", b"'", b'"')  # the budget: ParseBudget.text_ops_per_page
_FOLD = bytes.maketrans(b'J"', b"j'")  # the four operators counted as two


def check_text_operators(pages: list[pymupdf.Page], budget: int) -> None:
    """Refuse a page whose content stream shows more text than layout can afford, before
    get_text builds it. A byte count, not a parse: quotes inside strings count too, so it
    errs high, and text in form XObjects escapes it (the worker's memory budget does not)."""
    for page in pages:
        content = page.read_contents()
        if len(content) < budget:  # every operator takes at least one byte
            continue
        # TJ read as Tj and " as ': two counts over one copy instead of four over the page,
        # and the T's first (a bound: one-byte counts are the quicker ones)
        folded = content.translate(_FOLD)
        quotes = folded.count(b"'")
        if quotes + folded.count(b"T") <= budget:
            continue
        ops = folded.count(b"Tj") + quotes
        if ops > budget:
            raise TooComplexError(
                f"page {page.number + 1} has {ops:,} text operators (budget {budget:,} a page)",
                f"re-export the file; set {TEXT_OPS_VARIABLE} higher to try anyway",
            )


def split_text(text: str, limit: int = MAX_BLOCK_CHARS, lines: bool = False) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut after the last sentence end (or
    line break when `lines`) in the second half of each piece, else at a space, else hard."""
    pieces: list[str] = []
    at = 0  # start of the rest (an index: slicing the rest off each time is quadratic)
    while len(text) - at > limit:
        window = text[at : at + limit]
        if lines:
            cut = window.rfind("\n", limit // 2) + 1
        else:
            cut = max((m.end() for m in SENTENCE_END.finditer(window, limit // 2)), default=0)
        cut = cut or max(window.rfind(" ", limit // 2), window.rfind("\n", limit // 2)) + 1
        cut = cut or limit
        pieces.append(window[:cut].rstrip())
        at += cut
        while not lines and at < len(text) and text[at].isspace():
            at += 1
    pieces.append(text[at:].rstrip())
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
