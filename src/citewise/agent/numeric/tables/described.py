"""What a table shows: its caption, else the sentence that introduces it ("The following
table summarizes ...", "X consisted of the following:"), quoted from its block. The answer
a reader gives to "what does the table show?" when a report prints no caption."""

from __future__ import annotations

import re

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.numeric.cells import TableView
from citewise.agent.numeric.quoted import Quoted
from citewise.agent.numeric.tables.candidate import Candidate
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

# A sentence pointing at a table ("the following table", "the table below", "as follows")
# or ending in a colon or "the following": it says what comes after it.
_POINTS = re.compile(
    r"\b(?:following|below|above)\s+tables?\b|\btables?\s+(?:below|above)\b|\bas follows\b|"
    r"\bthe following\s*:?\s*$|:\s*$",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
NEAR = 4  # blocks between a table and the sentence introducing it
_NUMBERED = re.compile(r"^\s*(?:table\s+)?\d+[.:]?\s*$", re.I)  # "Table 3" alone says nothing


def _introductions(blocks: list[StoredBlock]) -> list[tuple[StoredBlock, str]]:
    out = []
    for block in blocks:
        if block.kind not in ("paragraph", "heading", "caption", "list"):
            continue
        for sentence in _SENTENCE.split(block.text.strip()):
            if _POINTS.search(sentence.strip()) and len(sentence.split()) >= 2:
                out.append((block, sentence.strip()))
    return out


def described(table: StoredBlock, view: TableView, store: Store, tables: int) -> Candidate | None:
    """The table's caption (when it says more than its number), else the introducing
    sentence nearest to it in reading order. `tables`: how many tables the question could
    mean (one: no doubt which)."""
    caption = view.caption.strip()
    if caption and not _NUMBERED.match(caption):
        sentence = AnswerSentence(f"{caption}.", [table.id], 0.0, "caption")
        quote = Quoted(table, caption)
        return Candidate([(sentence, [quote])], caption, _features(0, tables))
    blocks = store.blocks(table.document_id)
    found = _introductions(blocks)
    if not found:
        return None
    order = {b.id: i for i, b in enumerate(blocks)}
    at = order.get(table.id, 0)
    block, said = min(found, key=lambda f: (abs(order.get(f[0].id, 0) - at), order.get(f[0].id, 0)))
    distance = abs(order.get(block.id, 0) - at)
    sentence = AnswerSentence(said, [block.id], 0.0, "quote")
    return Candidate([(sentence, [Quoted(block, said)])], said, _features(distance, tables))


def introduction(table: StoredBlock, blocks: list[StoredBlock]) -> str:
    """The sentence introducing the table: the nearest one pointing at a table, at most
    `NEAR` blocks from it with no other table between; "" when none is."""
    order = {b.id: i for i, b in enumerate(blocks)}
    at = order.get(table.id)
    if at is None:
        return ""
    tables = [order[b.id] for b in blocks if b.kind == "table" and b.id != table.id]
    near = [
        (abs(order[b.id] - at), order[b.id], said)
        for b, said in _introductions(blocks)
        if abs(order[b.id] - at) <= NEAR
        and not any(min(at, order[b.id]) < t < max(at, order[b.id]) for t in tables)
    ]
    return min(near)[2] if near else ""


def _features(distance: int, tables: int) -> dict[str, float]:
    """describes: the kind; margin: 1 when one table is meant; row: 1 for the caption,
    falling with the blocks between the table and the sentence introducing it."""
    return {
        "describes": 1.0,
        "row": 1.0 / (1 + distance),
        "margin": 1.0 / max(1, tables),
        "columns": 1.0,
    }
