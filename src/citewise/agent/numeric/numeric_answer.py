"""Answers read from table cells or computed from cited figures, before sentence picking.

`answer_numeric` is the one entry point `QuestionAnswerer.ask` calls right after
retrieval: a statement line item for a fiscal period (agent/packs/finance/statements.py), a computed
figure (agent/numeric/computed.py), a CSV column's summary (agent/numeric/columns.py), a table's
answer
(agent/numeric/tables/: a cell by row and period, an extreme row, a count, a computed figure) or one
cell of a retrieved table (agent/numeric/cells.py). None means "not a table question": the sentence
picker answers as before. What each answer quotes and cites: agent/numeric/quoted.py.
"""

from __future__ import annotations

import re
import time

from citewise.agent.ask.answer import Answer, AnswerSentence
from citewise.agent.ask.question import Question, focus_sentence
from citewise.agent.numeric.cell_fit import cell_fits
from citewise.agent.numeric.cells import (
    CellMatch,
    TableView,
    best_column,
    label_score,
    match_cell,
    numeric_columns,
    row_name,
    superlative,
    superlative_total,
    words,
)
from citewise.agent.numeric.columns import column_fact
from citewise.agent.numeric.computed import (
    Computation,
    Operand,
    operation,
    two_operand,
)
from citewise.agent.numeric.numbers import parse_number
from citewise.agent.numeric.quoted import (
    TABLE_HITS,
    Quoted,
    build_answer,
    evidence,
    grid_box,
    row_quote,
    year_of,
)
from citewise.agent.numeric.quoted import table_views as _table_views
from citewise.agent.numeric.tables import table_answer
from citewise.agent.numeric.tables.asked import periods, read
from citewise.agent.numeric.tables.candidate import computed_sentence
from citewise.agent.numeric.tables.locate import known, terms
from citewise.agent.numeric.tables.support import answer_floor
from citewise.agent.numeric.tables.support import support as table_support
from citewise.agent.packs.finance.filing_answer import filing_computation
from citewise.agent.packs.finance.financial import Missing
from citewise.retrieval.hybrid import Hit
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

STRONG_MATCH = 1.5
# A filing's statement line is read by its name for the one fiscal year asked
# (agent/packs/finance/filing_answer.py): one row, no rival, the period's column; `filing` lets the
# fitted table support (agent/numeric/tables/support.py) learn how often that path is right.
FILING_LINE = {"filing": 1.0, "row": 1.0, "margin": 1.0, "columns": 1.0}
# A CSV column's fact is read from its schema by the column's name (agent/numeric/columns.py):
# one cell, its column named, no rival row; support from the fitted table function.
CSV_FACT = {"cell": 1.0, "row": 1.0, "margin": 1.0, "columns": 1.0}
_HOW = re.compile(r"\s*how\b", re.I)
# An operand's row must be named in full ("Quarry Abstracts", not just "Notes").
FULL_NAME = 1.0


def _relevance(question: Question, block: StoredBlock, view: TableView) -> float:
    """0..1: the question names the table's label, or shares words with its caption."""
    if block.label and block.label.lower() in {lab.lower() for lab in question.labels}:
        return 1.0
    asked = set(words(question.text))
    return 0.5 * min(1.0, label_score(f"{view.caption} {block.section_path}", asked) * 2)


def cell_answer(
    text: str, question: Question, hits: list[Hit], store: Store, started: float
) -> Answer | None:
    """One cell of a retrieved table, when its row and column headers are both named."""
    scored: list[tuple[float, StoredBlock, TableView, CellMatch]] = []
    asking = focus_sentence(text)  # a lead statement's words name no cell
    ask = read(asking)
    if ask.asks_period or (_HOW.match(asking) and not question.expects_number):
        return None  # "in which year ...": a period, not a figure; "how is X set": a method
    named = {p.year for p in ask.periods}
    for block, view in _table_views(hits, question, store):
        match = (
            superlative(asking, view) or superlative_total(asking, view) or match_cell(asking, view)
        )
        # a question not typed numeric needs both its row and its column named outright
        if match is not None and (question.expects_number or match.score >= STRONG_MATCH):
            dated = any(periods(c) for c in view.columns)
            if dated and named - {p.year for p in periods(match.column)}:
                continue  # the column is of another period than the one asked for
            table = f"{view.caption} {match.column} {match.row} {match.value}"
            if not cell_fits(question, match.kind, table, f"{view.caption} {block.text}"):
                continue  # a score for "how many seconds", a number for "which part"
            scored.append((match.score + _relevance(question, block, view), block, view, match))
    if not scored:
        return None
    scored.sort(key=lambda s: -s[0])
    score, block, view, match = scored[0]
    if len(scored) > 1 and scored[1][0] == score and scored[1][3].value != match.value:
        return None  # two tables answer differently and equally well
    where = view.label or "the table"
    if match.kind == "superlative":
        sentence = f"{match.row} ({match.column}: {match.value}; {where})."
    else:
        sentence = f"{match.value} ({match.column}, {match.row}; {where})."
    cell: dict[str, object] = {
        "table": where,
        "row": match.row,
        "column": match.column,
        "value": match.value,
    }
    box = view.box(match.row_index, match.column_index)
    quote = Quoted(block, row_quote(block, view.rows[match.row_index]), box)
    features = cell_features(asking, match, f"{view.caption} {block.label or ''}")
    features["number_asked"] = float(question.expects_number)
    features["operation_asked"] = float(ask.operation is not None)
    features["labelled"] = float(bool(block.label))
    support = table_support(features)
    if support < answer_floor(features):
        return None  # the sentence picker answers such questions better (fitted)
    answer_sentence = AnswerSentence(sentence, [block.id], round(support, 3), "cell", cell)
    answer = build_answer(store, text, [(answer_sentence, [quote])], support, started)
    answer.signals = {**answer.signals, **{f"table_{k}": v for k, v in features.items()}}
    return answer


def cell_features(asking: str, match: CellMatch, caption: str) -> dict[str, float]:
    """What the fitted table support (agent/numeric/tables/support.py) reads of a matched cell:
    how much of its row's and its column's headers the question names, the row's lead
    over the next one and the question's words no header or caption says."""
    said = set(terms(f"{match.row} {match.column} {caption}"))
    asked = terms(asking)
    unmatched = sum(not known(w, said) for w in asked) / len(asked) if asked else 0.0
    return {
        "cell": 1.0,
        "extreme": float(match.kind == "superlative"),
        "row": min(1.0, match.score - match.column_score),
        "columns": min(1.0, match.column_score),
        "margin": match.margin,
        "unmatched": unmatched,
    }


def _row_operands(text: str, views: list[tuple[StoredBlock, TableView]]) -> list[Operand]:
    """Rows of the candidate tables that the question names in full, as operands in the
    column it names."""
    asked = set(words(text))
    found: list[Operand] = []
    for block, view in views:
        column = best_column(text, view, numeric_columns(view))
        if column is None:
            continue
        k = column[0]
        for row in view.rows:
            name = row_name(row)
            value = parse_number(row[k]) if k < len(row) else None
            if value is None or label_score(name, asked) < FULL_NAME:
                continue
            label = f"{name}, {view.columns[k]}"
            box = view.box(view.rows.index(row), k)
            quote = row_quote(block, row)
            found.append(Operand("", label, row[k], value, block.id, quote, cell_bbox=box))
    return found


def _in_question_order(text: str, operands: list[Operand]) -> list[Operand]:
    """Operands ordered by where the question names their rows; a name inside a longer
    one ("BM25" in "BM25 + rerank") counts only where it stands alone."""
    lowered = text.lower()
    taken: list[tuple[int, int]] = []
    placed: list[tuple[int, Operand]] = []
    for o in sorted(operands, key=lambda o: -len(o.label)):
        name = o.label.rsplit(", ", 1)[0].lower()
        spots = [m.start() for m in re.finditer(re.escape(name), lowered)]
        free = [p for p in spots if all(not (a <= p < b) for a, b in taken)]
        at = free[0] if free else (spots[0] if spots else len(lowered))
        taken.append((at, at + len(name)))
        placed.append((at, o))
    return [o for _, o in sorted(placed, key=lambda p: p[0])]


def computed_from_cells(
    text: str, hits: list[Hit], question: Question, store: Store, started: float
) -> Answer | None:
    """A difference, ratio, sum, change or average of two table figures the question names
    (the first named is the first operand); a refusal when only one of them is stated."""
    what = operation(text)
    if what is None:
        return None
    views = _table_views(hits, question, store)
    blocks = {b.id: b for b, _ in views}
    picked: list[Operand] = []
    columns = {b.id: score for b, v in views if (c := best_column(text, v, numeric_columns(v)))
               for score in [c[1]]}  # fmt: skip
    for o in _row_operands(text, views):
        if all(o.label.rsplit(", ", 1)[0] != p.label.rsplit(", ", 1)[0] for p in picked):
            picked.append(o)
    if not picked:
        return None
    if len(picked) == 1:
        only = picked[0]
        reason = (
            f"Only one figure for the {what} is stated ({only.label}: {only.printed}); "
            "the other is not in the library."
        )
        return refusal(store, text, reason, [Quoted(blocks[only.block_id], only.quote)], started)
    if len(picked) > 2:
        return None  # more rows named than a two-figure operation takes
    first, second = _in_question_order(text, picked)
    computation = two_operand(what, first, second)
    features = {"operation": 1.0, "named_rows": 1.0, "row": 1.0, "margin": 1.0,
                "columns": min(1.0, min(columns[o.block_id] for o in picked))}  # fmt: skip
    return computed_answer(store, text, computation, blocks, started, features)


def computed_answer(
    store: Store,
    text: str,
    computation: Computation,
    blocks: dict[str, StoredBlock],
    started: float,
    features: dict[str, float],
) -> Answer | None:
    """The computed sentence (tables/candidate.computed_sentence), its support from the
    fitted table function of `features`; None when recomputation disagrees or support is
    below the floor."""
    made = computed_sentence(computation, blocks)
    if made is None:
        return None
    score = table_support(features)
    if score < answer_floor(features):
        return None
    made[0].support = round(score, 3)
    answer = build_answer(store, text, [made], score, started)
    answer.signals = {**answer.signals, **{f"table_{k}": v for k, v in features.items()}}
    return answer


def refusal(store: Store, text: str, reason: str, closest: list[Quoted], started: float) -> Answer:
    """A refusal that says which operand is missing and shows the one that was found."""
    return Answer(
        question=text,
        refused=True,
        answer=reason,
        sentences=[],
        evidence=[evidence(store, q) for q in closest],
        support_score=0.0,
        timings_ms={"answer": round((time.perf_counter() - started) * 1000)},
    )


def filing_answer(text: str, store: Store, started: float) -> Answer | None:
    """A company's figure or metric for a fiscal year, from its filing's statements."""
    found = filing_computation(text, store)
    if found is None:
        return None
    if isinstance(found, Missing):
        reason = f"The filing's statements do not state {found}, which this needs."
        return refusal(store, text, reason, [], started)
    comp, blocks = found
    for o in comp.operands:
        if o.cell_bbox is None:
            o.cell_bbox = grid_box(store, blocks[o.block_id], o.quote, o.printed, year_of(o.label))
    only = comp.operands[0]
    if (
        len(comp.operands) == 1
        and comp.divisor == 1.0
        and comp.expression.strip("() ") == only.name
    ):
        block = blocks[only.block_id]
        label = only.row or only.label
        year = only.label.rsplit("FY", 1)[-1]
        notes = f" ({'; '.join(comp.notes)})" if comp.notes else ""
        sentence = f"{comp.what}: {label}, {year}: {only.printed}{notes}."
        cell: dict[str, object] = {
            "table": block.section_path or f"page {block.page}",
            "row": label,
            "column": year,
            "value": only.printed,
        }
        score = table_support(FILING_LINE)
        answer_sentence = AnswerSentence(sentence, [block.id], round(score, 3), "cell", cell)
        quoted = Quoted(block, only.quote, only.cell_bbox)
        answer = build_answer(store, text, [(answer_sentence, [quoted])], score, started)
        answer.signals = {**answer.signals, **{f"table_{k}": v for k, v in FILING_LINE.items()}}
        return answer
    return computed_answer(store, text, comp, blocks, started, {**FILING_LINE, "operation": 1.0})


def csv_answer(text: str, hits: list[Hit], store: Store, started: float) -> Answer | None:
    """A CSV column's range, missing share, type or best row, from its schema or rows."""
    docs = list(dict.fromkeys(h.block.document_id for h in hits[:TABLE_HITS]))
    fact = column_fact(text, store, docs)
    if fact is None:
        return None
    cell: dict[str, object] = {
        "table": fact.block.section_path,
        "row": fact.what,
        "column": fact.column,
        "value": fact.value,
    }
    score = table_support(CSV_FACT)
    sentence = AnswerSentence(fact.sentence, [fact.block.id], round(score, 3), "cell", cell)
    quoted = [(sentence, [Quoted(fact.block, fact.quote)])]
    answer = build_answer(store, text, quoted, score, started)
    answer.signals = {**answer.signals, **{f"table_{k}": v for k, v in CSV_FACT.items()}}
    return answer


def answer_numeric(
    question_text: str, question: Question, hits: list[Hit], store: Store
) -> Answer | None:
    """A cell or computed answer when the question asks for one; None otherwise."""
    started = time.perf_counter()
    filing = filing_answer(question_text, store, started)
    if filing is not None:
        return filing
    csv = csv_answer(question_text, hits, store, started)
    if csv is not None:
        return csv
    tabled = table_answer(question_text, question, hits, store, started)
    if tabled is not None:
        return tabled
    computed = computed_from_cells(question_text, hits, question, store, started)
    if computed is not None:
        return computed
    return cell_answer(question_text, question, hits, store, started)
