"""What a table or number answer cites: quoted lines of blocks (with their cell boxes), the
evidence items built from them, and the tables a question may be about.

Shared by agent/numeric/numeric_answer.py (cells, computed figures, filings, CSV columns) and
agent/numeric/tables/ (cells by row and period, extreme rows, counts, computed figures).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from citewise.agent.ask.answer import Answer, AnswerSentence, Evidence
from citewise.agent.ask.evidence import Citations
from citewise.agent.ask.question import Question
from citewise.agent.numeric.cells import TableView, row_name
from citewise.agent.numeric.numeric_check import checked
from citewise.retrieval.hybrid import Hit
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

# A table the question does not point at must be among the first hits to be read.
TABLE_HITS = 6


@dataclass
class Quoted:
    """A figure or cell quoted from one block: what the answer cites for it."""

    block: StoredBlock
    quote: str
    cell_bbox: list[float] | None = None  # the cell's box, when read from a boxed grid


def evidence(store: Store, quoted: Quoted) -> Evidence:
    """The quoted block cited as the extractive answers cite it, with its cell's box."""
    return Citations(store).evidence(quoted.block, quoted.quote, quoted.cell_bbox)


def row_quote(block: StoredBlock, row: list[str]) -> str:
    """The line of the table block's text that holds this row (verbatim), else the row."""
    cells = [c for c in row if c]
    lines = [ln for ln in block.text.splitlines() if all(c in ln for c in cells)]
    return lines[0] if lines else " ".join(cells)


def grid_box(
    store: Store, block: StoredBlock, quote: str, printed: str, column_hint: str = ""
) -> list[float] | None:
    """The box of the cell printing `printed` in the table row that `quote` quotes (for a
    figure read from a statement line, not a matched cell); of several such cells, the one
    under the column header naming `column_hint` (a fiscal year). None when not one."""
    if block.kind != "table":
        return None
    data = next((d for b, d in store.blocks_with_data(block.document_id, ("table",))
                 if b.id == block.id), None)  # fmt: skip
    view = TableView.from_data(data, block.label) if data else None
    if view is None:
        return None
    hits: list[tuple[int, int]] = []
    for i, row in enumerate(view.rows):
        name = row_name(row)
        if not name or name not in quote:
            continue
        hits += [(i, k) for k, text in enumerate(row) if text and text.endswith(printed)]
    if len(hits) > 1 and column_hint:
        hits = [(i, k) for i, k in hits if column_hint in view.columns[k]]
    return view.box(*hits[0]) if len(hits) == 1 else None


def year_of(label: str) -> str:
    return label.rsplit("FY", 1)[-1] if "FY" in label else ""


def build_answer(
    store: Store,
    question: str,
    sentences: list[tuple[AnswerSentence, list[Quoted]]],
    support: float,
    started: float,
) -> Answer:
    """An answer whose sentences cite the quoted blocks (one evidence item per block)."""
    found: dict[str, Evidence] = {}
    for _, quotes in sentences:
        for q in quotes:
            if q.block.id not in found:
                found[q.block.id] = evidence(store, q)
            elif q.quote not in found[q.block.id].quote:
                found[q.block.id].quote += " … " + q.quote
    answer = Answer(
        question=question,
        refused=False,
        answer=" ".join(s.text for s, _ in sentences),
        sentences=[s for s, _ in sentences],
        evidence=list(found.values()),
        support_score=round(support, 3),
        timings_ms={"answer": round((time.perf_counter() - started) * 1000)},
    )
    return checked(answer)  # the one check chat and other faces run too


def table_views(
    hits: list[Hit], question: Question, store: Store
) -> list[tuple[StoredBlock, TableView]]:
    """Tables the question may be about, with their grids: tables among the first hits,
    tables in the same section as the first three hits (the prose around a table is often
    what retrieval finds), and tables the question names by label ("Table 3")."""
    ids = {b.id for h in hits[:TABLE_HITS] for b in [h.block, *h.context] if b.kind == "table"}
    sections = {(h.block.document_id, h.block.section_path) for h in hits[:3]}
    wanted = {label.lower() for label in question.labels}
    docs = list(dict.fromkeys(h.block.document_id for h in hits[:TABLE_HITS]))
    if question.scope:  # asked of a paper, a table of another paper does not answer
        docs = [d for d in docs if d in question.scope]
    # a question scoped to one paper may ask for any of its tables (retrieval reads prose)
    whole = set(question.scope) if len(question.scope) == 1 else set()
    out: list[tuple[StoredBlock, TableView]] = []
    for doc in list(dict.fromkeys([*whole, *docs[:3]])):
        for block, data in store.blocks_with_data(doc, ("table",)):
            near = (block.document_id, block.section_path) in sections or doc in whole
            if data and (block.id in ids or near or (block.label or "").lower() in wanted):
                view = TableView.from_data(data, block.label)
                if view is not None:
                    out.append((block, view))
    return out
