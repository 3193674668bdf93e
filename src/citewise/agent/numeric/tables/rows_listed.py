"""The rows a question asks to be named: "what are the regions ..." of a table laid out by
region ("... by geographic region was:") is answered by its row labels, totals left out,
each quoted from its row. The table says what its rows are of: the sentence introducing it
("by segment") or the question pointing at it ("the regions in the table")."""

from __future__ import annotations

import re

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.ask.table_reading import Ask
from citewise.agent.numeric.quoted import Quoted, row_quote
from citewise.agent.numeric.tables.candidate import Candidate
from citewise.agent.numeric.tables.frame import Frame
from citewise.retrieval.terms import stem

_TOTAL = re.compile(r"\b(?:sub)?totals?\b", re.I)
MIN_ROWS = 2


def _laid_out_by(frame: Frame, noun: str) -> bool:
    """The introduction says the table is by that noun ("by geographic region")."""
    for m in re.finditer(r"\bby((?:\s+[a-z-]+){1,3})", frame.context, re.I):
        if noun in {stem(w.lower()) for w in m.group(1).split()}:
            return True
    return False


def rows_listed(ask: Ask, frame: Frame) -> Candidate | None:
    """The table's row labels (totals left out, one section), when the question asks for
    the things the table is laid out by; None otherwise."""
    noun = ask.rows_noun
    if noun is None or frame.transposed or not (_laid_out_by(frame, noun) or ask.in_table):
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
