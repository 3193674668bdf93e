"""Counting questions answered from a document's own lists (issue 11, "how many X").

Two kinds, each read from the blocks of the paper the question is scoped to:

- "How many chapters are in this report?": the numbered entries ("1. Introduction ....25")
  under a contents heading that names the unit ("CHAPTERS", "Contents"); the answer is the
  count when the entries run 1..N without a gap.
- "How many chapter authors come from Columbia University?": the lines of the section whose
  heading names the people ("Chapter Authors") that name the organisation; the answer is
  their count, each line cited.

None means "not a counting question this module can read": the sentence picker answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.cells import label_score, words
from citewise.agent.question import Question
from citewise.regex import lazy
from citewise.retrieval.hybrid import Hit
from citewise.store.library import StoredBlock
from citewise.store.protocols import Store

_UNITS = {
    "chapters": "chapter",
    "sections": "section",
    "appendices": "appendix",
    "appendixes": "appendix",
    "parts": "part",
}
_PARTS_QUESTION = lazy(
    r"\bhow many (?P<unit>chapters|sections|appendices|appendixes|parts)\b"
    r"(?:(?!\b(?:mention|cite|discuss|use|have|contain)\w*\b).)*"
    r"\b(?:this|the) (?:report|paper|book|document|survey|thesis|article)\b",
    re.I,
)
_CONTENTS = lazy(r"\b(contents|outline)\b", re.I)
# "1. Introduction: Climate Change and Human Health ......25" (a contents entry)
_ENTRY = lazy(r"(?:^|(?<=\s))(\d{1,3})\.\s+[A-Z][^.\n]*?(?:\.\s?){3,}\s*\d+")
_MEMBERS_QUESTION = lazy(
    r"\b(?i:how many) (?P<who>[\w\s-]+?)(?: (?:of|in) (?:this|the) \w+)?"
    r" (?:come|came|are|were|is) (?:from|at|with|affiliated with)"
    r" (?:the )?(?P<org>[A-Z][\w.&'-]*(?: (?:of |at |the |for |and )*[A-Z][\w.&'-]*)*)"
)
# A listed member's line names the organisation after a comma ("Radley Horton, Columbia ...").
_MEMBER_LINE = r"[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)*, (?:the )?{org}\b"
MIN_PEOPLE_MATCH = 1.0


@dataclass
class Count:
    """A count and the quoted lines it was read from."""

    value: int
    sentence: str
    quotes: list[tuple[StoredBlock, str]]


def _documents(question: Question, hits: list[Hit]) -> list[str]:
    if question.scope:
        return list(question.scope)
    return [hits[0].block.document_id] if hits else []


def _heading(block: StoredBlock) -> str:
    return block.section_path.split(" > ")[-1] if block.section_path else ""


def count_parts(question: str, blocks: list[StoredBlock]) -> Count | None:
    """The numbered entries under the contents heading naming the unit, when they run 1..N."""
    found = _PARTS_QUESTION.search(question)
    if not found:
        return None
    unit = _UNITS[found.group("unit").lower()]
    numbers: set[int] = set()
    quotes: list[tuple[StoredBlock, str]] = []
    for block in blocks:
        heading = _heading(block)
        if block.kind == "heading" or not (unit in heading.lower() or _CONTENTS.search(heading)):
            continue
        entries = [(int(m.group(1)), m.group(0)) for m in _ENTRY.finditer(block.text)]
        if entries:
            numbers.update(n for n, _ in entries)
            quotes.append((block, entries[-1][1]))
    if not numbers or numbers != set(range(1, max(numbers) + 1)) or len(numbers) < 2:
        return None
    n = max(numbers)
    return Count(n, f"{n} {found.group('unit').lower()} (the contents list 1 to {n}).", quotes)


def count_members(question: str, blocks: list[StoredBlock]) -> Count | None:
    """Lines of the section the question's people name ("chapter authors") that name the
    organisation ("Columbia University")."""
    found = _MEMBERS_QUESTION.search(question)
    if not found:
        return None
    who, org = found.group("who"), found.group("org").rstrip(".")
    asked = set(words(who))
    headings = {_heading(b) for b in blocks if _heading(b)}
    # the heading names all of the people words, and the people words name it
    named = [
        h for h in headings if asked <= set(words(h)) and label_score(h, asked) >= MIN_PEOPLE_MATCH
    ]
    if len(named) != 1:
        return None  # no section, or several, name these people
    line = re.compile(_MEMBER_LINE.format(org=re.escape(org)))
    quotes = [
        (b, m.group(0))
        for b in blocks
        if _heading(b) == named[0] and b.kind != "heading"
        for m in line.finditer(b.text)
    ]
    if not quotes:
        return None
    n = len(quotes)
    listed = f"{n} of those listed under {named[0]!r} name {org}."
    return Count(n, listed, [(b, b.text) for b in dict.fromkeys(b for b, _ in quotes)])


_LABELS_QUESTION = lazy(
    r"\bhow many (?P<unit>figures|tables|equations)\b(?: \w+){0,3}? in (?:the |this )"
    r"(?:entire |whole )?(?:paper|document|article|report|survey|thesis)\b",
    re.I,
)


def count_labels(question: str, blocks: list[StoredBlock]) -> Count | None:
    """ "How many figures are in the entire document?": its numbered captions, when they
    run 1..N without a gap (a missed or unnumbered one leaves a gap, and no answer)."""
    found = _LABELS_QUESTION.search(question)
    if not found:
        return None
    family = found.group("unit").lower()[:-1].capitalize()  # "Figure"
    kind = "equation" if family == "Equation" else "caption"
    numbered: dict[int, StoredBlock] = {}
    for block in blocks:
        label = block.label or ""
        number = label.split(" ")[-1]
        if block.kind == kind and label.startswith(family) and number.isdigit():
            numbered.setdefault(int(number), block)
    if len(numbered) < 2 or set(numbered) != set(range(1, max(numbered) + 1)):
        return None
    n = max(numbered)
    first, last = numbered[1], numbered[n]
    sentence = f"{n} {found.group('unit').lower()} (numbered {family} 1 to {family} {n})."
    return Count(n, sentence, [(first, first.text), (last, last.text)])


def count_for(text: str, question: Question, hits: list[Hit], store: Store) -> Count | None:
    """The count a "how many" question asks for, read from its paper's lists, or None."""
    if not re.search(r"\bhow many\b", text, re.I):
        return None
    for doc in _documents(question, hits):
        blocks = store.blocks(doc)
        count = count_parts(text, blocks) or count_members(text, blocks)
        count = count or count_labels(text, blocks)
        if count is not None:
            return count
    return None
