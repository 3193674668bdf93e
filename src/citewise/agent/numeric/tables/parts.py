"""The parts of a row: "what are the components of X", "how many types of X are there".

A section row (a label with no figures, "Deferred tax liabilities:") has as parts the rows
printed under it; a total row ("Total revenue") the rows summed into it, those since the
previous total or section. Each part is quoted from its row.
"""

from __future__ import annotations

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.ask.table_reading import Ask
from citewise.agent.numeric.quoted import Quoted, row_quote
from citewise.agent.numeric.tables.candidate import Candidate
from citewise.agent.numeric.tables.frame import Frame, Row
from citewise.agent.numeric.tables.locate import row_score, terms

TOTAL = "total"


def _is_total(row: Row) -> bool:
    return row.label.lower().startswith(TOTAL)


def _sections(frame: Frame) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for r in frame.rows:
        if r.parent and r.label:
            out.setdefault(r.parent, []).append(r)
    return out


def _summed_into(frame: Frame, total: Row) -> list[Row]:
    """The rows above a total row, back to the previous total or section change."""
    before = [r for r in frame.rows if r.index < total.index and r.parent == total.parent]
    parts: list[Row] = []
    for r in reversed(before):
        if _is_total(r):
            break
        parts.insert(0, r)
    return parts


def parts_of(ask: Ask, frame: Frame) -> Candidate | None:
    """The rows that make up the row or section the question names, listed (or counted
    when it asks "how many")."""
    asked = set(terms(ask.phrase))
    if not asked:
        return None
    scored: list[tuple[float, str, list[Row]]] = []
    for section, rows in _sections(frame).items():
        scored.append((row_score(Row(-1, section, ""), asked), section, rows))
    for r in frame.rows:
        if _is_total(r):
            scored.append((row_score(Row(-1, r.label, ""), asked), r.label, _summed_into(frame, r)))
    scored = [s for s in scored if len([r for r in s[2] if not _is_total(r)]) >= 2 and s[0] > 0]
    if not scored:
        return None
    scored.sort(key=lambda s: -s[0])
    score, name, rows = scored[0]
    leaf = max((row_score(r, asked) for r in frame.rows if not _is_total(r)), default=0.0)
    if leaf >= score:
        return None  # a row of its own is named ("what does service revenue comprise"): prose
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    rows = [r for r in rows if not _is_total(r)]
    labels = list(dict.fromkeys(r.label for r in rows))  # a part printed twice is one part
    quotes = [Quoted(frame.block, row_quote(frame.block, frame.view.rows[r.index])) for r in rows]
    if ask.how_many:
        text = f"{len(labels)} ({name}: {'; '.join(labels)})."
        result = str(len(labels))
    else:
        text = f"{'; '.join(labels)} (the rows of {name})."
        result = text
    sentence = AnswerSentence(text, [frame.block.id], 0.0, "list")
    features = {"operation": 1.0, "row": score, "margin": score - runner_up,
                "columns": 1.0, "column_tie": 0.0}  # fmt: skip
    return Candidate([(sentence, quotes)], result, features)
