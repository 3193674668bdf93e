"""Free-phrase columns: `--columns "study design,loss function"` beside the presets.

A phrase of two or more words that names no preset aspect is asked of each paper like
"What is the <phrase>?": a sentence that mentions the phrase (its content words, at most
two words apart) is a candidate, and what the sentence says the phrase is ("the loss
function is a focal loss") is the value; where it says no "is", the sentence itself
(shortened) is. A paper with no such sentence leaves the cell "not stated".
"""

from __future__ import annotations

import re

from citewise.agent.extraction import Finding, Unit
from citewise.agent.matrix_cells import clause_end, shorten, word_list

MAX_PHRASE_WORDS = 6
# what links a phrase to its value: "X is/was/are ...", "X: ...", "X = ...", "X consists of ..."
_LINK = r"\s*(?:\([^)]{0,40}\)\s*)?(?:is|was|are|were|:|=|consist(?:s|ed)? of|include[sd]?)\s+"


def is_free_phrase(key: str) -> bool:
    """Two to six words with letters: a column the user wrote rather than a preset."""
    words = key.split()
    return 2 <= len(words) <= MAX_PHRASE_WORDS and bool(re.search(r"[a-z]", key))


def content_words(phrase: str) -> list[str]:
    """The phrase's words that carry meaning, singular ("losses" -> "loss" stem)."""
    skip = word_list("dangling")
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9-]*", phrase.lower()) if w not in skip]
    return [w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w
            for w in words]  # fmt: skip


def phrase_findings(phrase: str, paper_units: list[Unit]) -> list[Finding]:
    """Sentences mentioning every content word of the phrase, the value being what the
    sentence says the phrase is, else the sentence; scored by that link and by position."""
    words = content_words(phrase)
    if not words:
        return []
    each = [re.compile(rf"\b{re.escape(w)}\w*", re.I) for w in words]
    mention = r"\W+(?:\w+\W+){0,2}?".join(rf"{re.escape(w)}\w*" for w in words)
    linked = re.compile(rf"\b{mention}{_LINK}(?P<v>\S)", re.I)
    near = re.compile(rf"\b{mention}", re.I)
    share = max(len(paper_units), 1)
    found = []
    for n, unit in enumerate(paper_units):
        text = unit.text
        if not all(p.search(text) for p in each):
            continue
        m = linked.search(text)
        if m:
            start = m.start("v")
            value, was_cut = shorten(text[start : clause_end(text, start)].strip(" ,"))
            score = 2.0
        elif near.search(text):  # the phrase itself, its words at most two apart
            value, was_cut = shorten(text.rstrip(" ."))
            score = 1.0
        else:
            continue
        if len(value.split()) < 1 or value not in text:
            continue
        score += 0.3 * (1.0 - n / share) + (0.2 if unit.kind != "table" else 0.0)
        found.append(
            Finding(phrase, value, text, unit.page, unit.block_id, unit.section, score, was_cut)
        )
    return found
