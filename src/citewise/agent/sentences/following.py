"""What the blocks after an answer's sentence add to it, read as papers are laid out.

- A list announced at the end of a paragraph ("existing work can be divided into three
  major categories.") is given in the blocks that follow it, one bullet or numbered item
  each ("• Training-time Correction. ..."). A "which three categories" question drafted
  from the announcing sentence is answered by it and the items' names.
- A sentence cut by the layout (a line break in a scanned page, a footnote continued
  below) ends without its full stop and goes on in the next block in lower case: the
  answer is the whole sentence.
"""

from __future__ import annotations

import re
from dataclasses import replace

from citewise.agent.ask.question import Question
from citewise.agent.sentences.draft import Draft
from citewise.agent.sentences.extractive import split_sentences
from citewise.agent.sentences.spans import NUMBER_WORDS, WHICH_N
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

# A bullet or numbered item's name: the words before its first full stop or colon.
_ITEM = re.compile(r"^\s*(?:[•·▪◦‣∙*–-]|\(?[ivx]{1,4}\)|\(?\d{1,2}[.)])\s*([^.:]{2,60}?)\s*[.:]\s")
MAX_ITEM_WORDS = 6
# A sentence the layout cut: no closing punctuation, continued in lower case.
ENDED = re.compile(r"[.!?:;)\]\"'”’]\s*$")
_GOES_ON = re.compile(r"^\s*[a-z]")
# The rest of a cut sentence is a few lines that end it; a "sentence" longer than this, or
# one that does not end, is text without sentence breaks (a dump), not a layout cut.
MAX_REST_CHARS = 400
MAX_CUT_CHARS = 1200


def announces(question: str, span: str) -> int:
    """How many items the span announces at its end for a "which N X" question (0: none)."""
    asked = WHICH_N.search(question)
    if not asked:
        return 0
    word = asked.group(1).lower()
    noun = asked.group(0).split()[-1].lower().rstrip("s")
    ending = rf"\b{word}\s+(?:[\w-]+\s+){{0,2}}{re.escape(noun)}\w*\s*[.:]\s*$"
    return NUMBER_WORDS[word] if re.search(ending, span, re.I) else 0


def listed_after(block: StoredBlock, blocks: list[StoredBlock], wanted: int) -> list[StoredBlock]:
    """The `wanted` item blocks that follow the block in its section, or [] when the
    section does not list that many before its next heading."""
    at = next((i for i, b in enumerate(blocks) if b.id == block.id), -1)
    items: list[StoredBlock] = []
    for later in blocks[at + 1 :] if at >= 0 else []:
        if later.kind == "heading" or later.section_path != block.section_path:
            break
        name = item_name(later.text)
        if name:
            items.append(later)
            if len(items) == wanted:
                return items
    return []


def item_name(text: str) -> str | None:
    """ "• Training-time Correction. The ideal ..." -> "Training-time Correction"."""
    found = _ITEM.match(text)
    if not found or len(found.group(1).split()) > MAX_ITEM_WORDS:
        return None
    return found.group(1).strip()


def continuation(span: str, block: StoredBlock, blocks: list[StoredBlock]) -> StoredBlock | None:
    """The next block, when the span is its block's last sentence, was cut without its full
    stop and the next block goes on in lower case."""
    sentences = split_sentences(block.text, block.kind)
    if not sentences or not sentences[-1].endswith(span.strip()) or ENDED.search(span):
        return None
    at = next((i for i, b in enumerate(blocks) if b.id == block.id), -1)
    nxt = blocks[at + 1] if 0 <= at < len(blocks) - 1 else None
    if nxt is None or nxt.kind in ("heading", "table", "caption") or not _GOES_ON.match(nxt.text):
        return None
    rest = first_sentence(nxt.text)
    if len(span) > MAX_CUT_CHARS or len(rest) > MAX_REST_CHARS or not ENDED.search(rest):
        return None
    return nxt


def first_sentence(text: str) -> str:
    pieces = split_sentences(" ".join(text.split()))
    return pieces[0] if pieces else ""


def completed(
    store: Store, question: Question, draft: Draft, blocks: dict[str, StoredBlock]
) -> Draft:
    """The first span with what the blocks after it add: the names of the list it
    announces, or the rest of a sentence the layout cut. Blocks
    added are put in `blocks`."""
    if not draft.spans:
        return draft
    first = draft.spans[0]
    block = blocks.get(first.candidate.block_id)
    wanted = announces(question.text, first.text)
    cut = not ENDED.search(first.text) and first.candidate.text.endswith(first.text)
    if block is None or not (wanted or cut):
        return draft
    siblings = store.blocks(block.document_id)
    if wanted:
        items = listed_after(block, siblings, wanted)
        names = [item_name(b.text) or "" for b in items]
        text = f"{first.text.rstrip(' .:')}: {', '.join(names)}"
    else:
        nxt = continuation(first.text, block, siblings)
        items = [nxt] if nxt is not None else []
        text = f"{first.text} {first_sentence(nxt.text)}" if nxt is not None else ""
    if not items:
        return draft
    blocks.update((b.id, b) for b in items)
    span = replace(first, text=text, also=tuple(b.id for b in items))
    return replace(draft, spans=[span, *draft.spans[1:]])
