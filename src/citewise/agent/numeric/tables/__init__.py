"""Numbers from any table: the arithmetic a reader does on a table's cells, every operand
cited (issue 33).

`table_answer` is the proposer `agent/numeric/numeric_answer.answer_numeric` calls: the
question's reading for its operation, periods and row (`Question.table`, read once by
agent/ask/table_reading.py), each candidate table read as columns and rows (frame.py),
the row and columns located (locate.py), the figure computed (compute.py) or compared,
counted or listed (periods.py), and support derived from the candidate's features by one
fitted function (support.py).
"""

from __future__ import annotations

import re
import time

from citewise.agent.ask.answer import Answer, AnswerSentence
from citewise.agent.ask.question import Question
from citewise.agent.ask.refusal import NOT_ANSWERED, REFUSALS
from citewise.agent.ask.table_reading import Ask
from citewise.agent.numeric.numbers import parse_number
from citewise.agent.numeric.quoted import Quoted, build_answer, evidence, row_quote, table_views
from citewise.agent.numeric.tables.candidate import Candidate
from citewise.agent.numeric.tables.described import described, introduction
from citewise.agent.numeric.tables.frame import Frame, frame
from citewise.agent.numeric.tables.locate import best_row
from citewise.agent.numeric.tables.propose import candidate
from citewise.agent.numeric.tables.rows_listed import rows_listed
from citewise.agent.numeric.tables.stacked import regrouped
from citewise.agent.numeric.tables.stated import stated
from citewise.agent.numeric.tables.support import answer_floor, support
from citewise.retrieval.hybrid import Hit
from citewise.store.protocols import Store

__all__ = ["table_answer"]

# A question not scoped to one document reaches tables of many: its row must be named at
# least half-way (row score, tables/locate.row_score) for a table to answer it.
LIBRARY_ROW_FLOOR = 0.5


def _ranked(found: list[Candidate]) -> list[tuple[float, Candidate]]:
    """Candidates by support. A table that gives a different answer narrows the best
    one's margin to its own row score (two tables answering alike is no ambiguity)."""
    scored = sorted(((support(c.features), c) for c in found), key=lambda s: -s[0])
    best = scored[0][1].features
    rivals = [c.features.get("row", 0.0) for _, c in scored[1:] if c.result != scored[0][1].result]
    if rivals and "margin" in best:
        best["margin"] = max(0.0, min(best["margin"], best["row"] - max(rivals)))
        scored[0] = (support(best), scored[0][1])
    return scored


def table_answer(
    question: Question, hits: list[Hit], store: Store, started: float | None = None
) -> Answer | None:
    """A computed, compared, counted or listed answer from the tables the question may be
    about; None when the question names no such operation or no table answers it."""
    started = time.perf_counter() if started is None else started
    text = question.text  # the answer's question, never read for what it asks
    ask = question.table  # the analysed question's reading (agent/ask/table_reading.py)
    if ask.shows and not ask.asks_period:  # "what does the table show?"
        described_answer = _description(text, question, hits, store, started)
        if described_answer is not None:
            return described_answer
    listing = ask.rows_noun is not None and len(question.scope) == 1
    listing = listing and not (ask.operation or ask.asks_period)
    if ask.reason or not (ask.operation or ask.comparison or ask.condition or ask.made_of
                          or ask.asks_period or ask.periods or listing):  # fmt: skip
        return None
    found = []
    frames = [t for b, v in table_views(hits, question, store) if (t := frame(b, v)) is not None]
    if len(question.scope) == 1:  # the text around each table, where it has no caption
        for table in frames:
            table.context = introduction(table.block, store.blocks(table.block.document_id))
    # a table printing its periods down the rows, read with them as columns when the
    # question names a period its headers lack (tables/stacked.py)
    frames = [regrouped(t, ask) or t for t in frames]
    listed = [c for t in frames if (c := rows_listed(ask, t)) is not None] if listing else []
    if len(listed) == 1:  # one table laid out by what is asked for
        return _fitted_answer(store, text, listed[0], support(listed[0].features), started)
    if listing and not (ask.comparison or ask.condition or ask.made_of or ask.asks_period
                        or ask.periods):  # fmt: skip
        return None
    for table in frames:
        if (c := candidate(ask, table)) is not None:
            c.features["compound"] = float(ask.compound)
            found.append(c)
    if len(question.scope) != 1:  # across a library, a weak row match is a coincidence
        found = [c for c in found if c.features.get("row", 0.0) >= LIBRARY_ROW_FLOOR]
    if not found:
        return _other_periods(text, ask, frames, store, started)
    score, best = _ranked(found)[0]
    if score < answer_floor(best.features):
        return None
    said = _said(best, frames, store) if len(question.scope) == 1 else None
    if said is not None:
        best.sentences.append(said)
    return _fitted_answer(store, text, best, score, started)


def _fitted_answer(
    store: Store, text: str, found: Candidate, score: float, started: float
) -> Answer:
    """The answer from a table candidate at its fitted support, its features kept as
    `table_*` signals."""
    for sentence, _ in found.sentences:
        sentence.support = round(score, 3)
    answer = build_answer(store, text, found.sentences, score, started)
    answer.signals = {
        **answer.signals,
        **{f"table_{k}": v for k, v in found.features.items()},
    }
    return answer


def _description(
    text: str, question: Question, hits: list[Hit], store: Store, started: float
) -> Answer | None:
    """What the table the question means shows: the one it names by label, else the first
    of the tables it may be about (their number lowers support)."""
    views = table_views(hits, question, store)
    labels = {label.lower() for label in question.labels}
    named = [(b, v) for b, v in views if (b.label or "").lower() in labels]
    views = named or views
    if not views:
        return None
    block, view = views[0]
    found = described(block, view, store, len(views))
    if found is None:
        return None
    score = support(found.features)
    if score < answer_floor(found.features):
        return None
    return _fitted_answer(store, text, found, score, started)


def _other_periods(
    text: str, ask: Ask, frames: list[Frame], store: Store, started: float
) -> Answer | None:
    """A refusal when the question names a period that neither the table holding the row
    it names nor its document's text has ("net sales in 2016" of a table of 2019 and 2018):
    the row's own figures are for other periods, and none of them is the answer."""
    for table in frames:
        years = sorted({y for c in table.columns for y in c.years})
        wanted = [p for p in ask.periods if p.year not in years]
        if len(years) < 2 or not wanted or ask.operation or ask.comparison:
            continue
        match = best_row(table, ask.phrase, [])
        if match is None or match.score < LIBRARY_ROW_FLOOR:
            continue
        written = " ".join(b.text for b in store.blocks(table.block.document_id))
        if any(re.search(rf"(?<!\d){p.year}(?!\d)", written) for p in wanted):
            continue  # the text may state it
        shown = ", ".join(str(y) for y in reversed(years))
        asked = ", ".join(p.text for p in wanted)
        row = match.row.label or match.row.parent
        reason = (f"{REFUSALS[NOT_ANSWERED]} (the table gives {row} for {shown}, "
                  f"not for {asked})")  # fmt: skip
        quote = row_quote(table.block, table.view.rows[match.row.index])
        return Answer(
            question=text,
            refused=True,
            answer=reason,
            sentences=[],
            evidence=[evidence(store, Quoted(table.block, quote))],
            support_score=0.0,
            refusal_kind=NOT_ANSWERED,
            timings_ms={"answer": round((time.perf_counter() - started) * 1000)},
            signals={"period_missing": 1.0},
        )
    return None


def _said(
    best: Candidate, frames: list[Frame], store: Store
) -> tuple[AnswerSentence, list[Quoted]] | None:
    """The sentence of the text stating, rounded, the figure `best` computed."""
    sentence = best.sentences[0][0]
    if sentence.kind != "computed" or not sentence.computation or not sentence.operands:
        return None
    result = parse_number(str(sentence.computation["result"]))
    block = next((f.block for f in frames if f.block.id in sentence.citations), None)
    if result is None or block is None:
        return None
    row = str(sentence.operands[0].get("row") or sentence.operands[0].get("label") or "")
    scale = next((f.scale for f in frames if f.block.id == block.id), "")
    percent = str(sentence.computation["result"]).endswith("%")
    return stated(store.blocks(block.document_id), row, result, percent, scale)
