"""Answers counted over a paper's tables and sections (before one cell is looked up):
wins of a system over its baselines (agent/wins.py), works of a year and the largest
group of rows (agent/table_counts.py), a table's works (not) cited in a section and which
of two sections cites more (agent/mentions.py). Each counted row or block is quoted.
"""

from __future__ import annotations

from citewise.agent.answer import Answer, AnswerSentence
from citewise.agent.cells import row_name
from citewise.agent.mentions import asked as asked_mentions
from citewise.agent.mentions import compare_citations, count_mentions
from citewise.agent.question import Question
from citewise.agent.quoted import Quoted, build_answer, row_quote
from citewise.agent.quoted import table_views as _table_views
from citewise.agent.table_counts import count_of_year, largest_group
from citewise.agent.wins import count_wins
from citewise.retrieval.hybrid import Hit
from citewise.store.protocols import Store


def wins_answer(
    text: str, question: Question, hits: list[Hit], store: Store, started: float
) -> Answer | None:
    """ "On how many datasets does X outperform the baselines?": counted over the rows of
    the one retrieved results table that has the units, the system and its rivals."""
    found = [
        (block, view, wins)
        for block, view in _table_views(hits, question, store)
        if (wins := count_wins(text, view)) is not None
    ]
    if len(found) != 1:
        return None  # no table, or several that could answer differently
    block, view, wins = found[0]
    where = view.label or "the table"
    beaten = ", ".join(view.columns[k] for k in wins.rivals)
    won = ", ".join(row_name(view.rows[i]) for i in wins.rows) or "none"
    sentence = (
        f"{wins.count} of {wins.total}: {view.columns[wins.column]} is above {beaten} on "
        f"{won} ({where})."
    )
    quotes = [
        Quoted(block, row_quote(block, view.rows[i]), view.box(i, wins.column)) for i in wins.rows
    ] or [Quoted(block, block.text.splitlines()[0])]
    cell: dict[str, object] = {
        "table": where,
        "row": won,
        "column": view.columns[wins.column],
        "value": str(wins.count),
    }
    said = AnswerSentence(sentence, [block.id], 1.0, "count", cell)
    return build_answer(store, text, [(said, quotes)], 1.0, started)


def row_count_answer(
    text: str, question: Question, hits: list[Hit], store: Store, started: float
) -> Answer | None:
    """Works of a year in the tables the question names, or the largest group of rows
    (agent/table_counts.py), each counted row quoted from its table block."""
    views = _table_views(hits, question, store)
    named = {label.lower() for label in question.labels if label.startswith("Table")}
    chosen = [(b, v) for b, v in views if (b.label or "").lower() in named]
    counted = None
    if len(chosen) == len(named) and chosen:
        counted = count_of_year(text, [(v.label, v.rows) for _, v in chosen])
    if counted is None:
        chosen = [(b, v) for b, v in views if b.label]
        counted = largest_group(text, [(v.label, v.rows) for _, v in chosen])
    if counted is None:
        return None
    quotes = [
        Quoted(chosen[t][0], row_quote(chosen[t][0], chosen[t][1].rows[i]), chosen[t][1].box(i, 0))
        for t, i in counted.rows
    ] or [Quoted(b, b.text.splitlines()[0]) for b, _ in chosen]
    cites = list(dict.fromkeys(q.block.id for q in quotes))
    cell: dict[str, object] = {
        "table": " and ".join(dict.fromkeys(q.block.label or "" for q in quotes)),
        "row": "",
        "column": "",
        "value": counted.value,
    }
    said = AnswerSentence(counted.sentence, cites, 1.0, "count", cell)
    return build_answer(store, text, [(said, quotes)], 1.0, started)


def mentions_answer(
    text: str, question: Question, hits: list[Hit], store: Store, started: float
) -> Answer | None:
    """Rows of the named table (picked by a value) that its section does (not) cite."""
    named = {label.lower() for label in question.labels if label.startswith("Table")}
    which = asked_mentions(text)
    if len(named) != 1 or which is None:
        return None
    views = [
        (b, v) for b, v in _table_views(hits, question, store) if (b.label or "").lower() in named
    ]
    if len(views) != 1:
        return None
    block, view = views[0]
    found = count_mentions(text, view, store.blocks(block.document_id))
    if found is None:
        return None
    names = "; ".join(view.rows[i][0] for i in found.counted) or "none"
    said = "not cited" if which[0] else "cited"
    sentence = (
        f"{found.count} of the {found.total} {found.value} rows of {view.label} are {said} "
        f"in {found.section.rstrip('.')}: {names}."
    )
    quotes = [Quoted(block, row_quote(block, view.rows[i]), view.box(i, 0)) for i in found.counted]
    quotes += [Quoted(b, b.text) for b in found.quotes]
    if not quotes:
        quotes = [Quoted(block, block.text.splitlines()[0])]
    cites = list(dict.fromkeys(q.block.id for q in quotes))
    cell: dict[str, object] = {
        "table": view.label,
        "row": names,
        "column": "",
        "value": str(found.count),
    }
    answer_sentence = AnswerSentence(sentence, cites, 1.0, "count", cell)
    return build_answer(store, text, [(answer_sentence, quotes)], 1.0, started)


def citation_compare_answer(
    text: str, hits: list[Hit], store: Store, started: float
) -> Answer | None:
    """Yes or no to "does Section A cite more papers than Section B", counted."""
    docs = list(dict.fromkeys(h.block.document_id for h in hits[:1]))
    found = compare_citations(text, store.blocks(docs[0])) if docs else None
    if found is None:
        return None
    (a, b), (n, m) = found.sections, found.counts
    sentence = f"{'Yes' if found.answer else 'No'}: {a} cites {n} distinct works, {b} {m}."
    quotes = [Quoted(block, block.text) for block in found.quotes]
    cites = list(dict.fromkeys(q.block.id for q in quotes))
    cell: dict[str, object] = {"table": "", "row": a, "column": b, "value": f"{n} vs {m}"}
    said = AnswerSentence(sentence, cites, 1.0, "count", cell)
    return build_answer(store, text, [(said, quotes)], 1.0, started)
