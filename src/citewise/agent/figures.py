"""Questions whose answer is drawn in a figure: refuse with that reason, citing the caption.

Text answers a figure question only when a caption or a sentence states the answer; what
only the image shows (colours, drawn items, curve positions) cannot be read, and saying so
with the caption is more useful than an unrelated sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from citewise.agent.question import Question
from citewise.store.library import StoredBlock
from citewise.store.protocols import Store

_VISUAL_WORD = re.compile(
    r"\b(colou?rs?|red|green|blue|yellow|grey|gray|black|white|purple|orange|pink|italic|"
    r"background|shaded|arrows?|icons?|stamp|curves?)\b"
    # where on the page or in the figure something is drawn: layout only the image shows
    r"|\b(top|bottom|left|right|upper|lower)\b(?= (?:part )?of (?:the )?(?:page|figure|image))",
    re.IGNORECASE,
)
# ("graph" is left out: papers build knowledge and citation graphs)
_FIGURE_WORDS = re.compile(r"\b(figures?|fig\.|charts?|plots?|diagrams?|images?)\b", re.I)


def asks_about_figure(question: Question) -> bool:
    return bool(question.figure_labels or question.is_visual or _FIGURE_WORDS.search(question.text))


def visual_words(question: Question) -> set[str]:
    """The visual properties a question asks about ("green", "background")."""
    return {m.group(0).lower() for m in _VISUAL_WORD.finditer(question.text)}


def _captions(store: Store, documents: Iterable[str]) -> list[StoredBlock]:
    return [
        b
        for doc in documents
        for b in store.blocks(doc)
        if b.kind == "caption" and (b.label or "").startswith("Figure")
    ]


def figure_refusal(
    question: Question, store: Store, retrieved: Iterable[StoredBlock]
) -> StoredBlock | None:
    """The caption to cite when refusing a figure question (None: not a figure question,
    or no caption to cite)."""
    if not asks_about_figure(question):
        return None
    retrieved = list(retrieved)
    if question.figure_labels:
        docs = question.scope or tuple(dict.fromkeys(b.document_id for b in retrieved))
        wanted = set(question.figure_labels)
        for caption in _captions(store, docs):
            if caption.label in wanted:
                return caption
        return None
    page = page_named(question.text)
    if page is not None:  # "the stamp on the 6th page": a caption on that page, if any
        docs = question.scope or tuple(dict.fromkeys(b.document_id for b in retrieved))
        on_page = [c for c in _captions(store, docs) if c.page == page]
        if on_page:
            return on_page[0]
    return next((b for b in retrieved if b.kind == "caption" and b.label), None)


_PAGE = re.compile(r"\bpage\s+(\d+)\b|\b(\d+)(?:st|nd|rd|th)\s+page\b", re.IGNORECASE)


def page_named(text: str) -> int | None:
    """The page a question points at ("page 6", "the 6th page"), if it names one."""
    match = _PAGE.search(text)
    return int(match.group(1) or match.group(2)) if match else None


def missing_labels(question: Question, store: Store) -> list[str]:
    """Labels the question names ("Figure 7") that none of its scoped papers has, when those
    papers do label that kind of thing (so a parser miss does not look like absence)."""
    if not question.scope or not question.labels:
        return []
    labels = {b.label for doc in question.scope for b in store.blocks(doc) if b.label}
    missing = []
    for label in question.labels:
        family = label.split()[0]
        has_family = any(lab.startswith(family) for lab in labels if lab)
        if has_family and label not in labels:
            missing.append(label)
    return missing
