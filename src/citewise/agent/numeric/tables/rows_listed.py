"""The rows a question asks to be named: "what are the regions ..." of a table laid out by
region ("... by geographic region was:") is answered by its row labels, totals left out,
each quoted from its row. The table says what its rows are of: the sentence introducing it
("by segment") or the question pointing at it ("the regions in the table")."""

from __future__ import annotations

import re

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.numeric.quoted import Quoted, row_quote
from citewise.agent.numeric.tables.candidate import Candidate
from citewise.agent.numeric.tables.frame import Frame
from citewise.retrieval.terms import stem

# "What are the (geographic) regions ...", "Which segments ...": the plural the question
# asks to be listed, among its first words
_ASKS_ROWS = re.compile(
    r"^\s*(?:what|which)\s+(?:are|were)\s+the\s+((?:[a-z-]+\s+){0,2}?[a-z-]+s)\b"
    r"|^\s*which\s+((?:[a-z-]+\s+){0,2}?[a-z-]+s)\s+(?:are|were)\b",
    re.I,
)
_IN_TABLE = re.compile(r"\b(?:in|of|from)\s+the\s+table\b", re.I)
_TOTAL = re.compile(r"\b(?:sub)?totals?\b", re.I)
MIN_ROWS = 2


def asks_rows(question: str) -> bool:
    """The question opens by asking for some things by a plural noun."""
    return _noun(question) is not None


def _noun(question: str) -> str | None:
    m = _ASKS_ROWS.search(question)
    if m is None:
        return None
    return stem((m.group(1) or m.group(2)).split()[-1].lower())


def _laid_out_by(frame: Frame, noun: str) -> bool:
    """The introduction says the table is by that noun ("by geographic region")."""
    for m in re.finditer(r"\bby((?:\s+[a-z-]+){1,3})", frame.context, re.I):
        if noun in {stem(w.lower()) for w in m.group(1).split()}:
            return True
    return False


def rows_listed(question: str, frame: Frame) -> Candidate | None:
    """The table's row labels (totals left out, one section), when the question asks for
    the things the table is laid out by; None otherwise."""
    noun = _noun(question)
    if (
        noun is None
        or frame.transposed
        or not (_laid_out_by(frame, noun) or _IN_TABLE.search(question))
    ):
        return None
    rows = [r for r in frame.rows if r.label and not _TOTAL.search(r.label) and r.figures]
    if len({r.parent for r in rows}) != 1 or len(rows) < MIN_ROWS:
        return None
    names = [r.label.strip() for r in rows]
    text = f"{'; '.join(names)} (the rows of {frame.view.label or 'the table'})."
    quotes = [Quoted(frame.block, row_quote(frame.block, frame.view.rows[r.index])) for r in rows]
    sentence = AnswerSentence(text, [frame.block.id], 0.0, "list")
    features = {"rows_listed": 1.0, "row": 1.0, "margin": 1.0, "columns": 1.0}
    return Candidate([(sentence, quotes)], " ".join(names), features)
