"""A table's answer as a candidate: its sentences with the quotes they cite, the features
support is derived from (tables/support.py), and its result."""

from __future__ import annotations

from dataclasses import dataclass, field

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.numeric.computed import Computation, check, citations, render
from citewise.agent.numeric.quoted import Quoted
from citewise.agent.numeric.tables.frame import Frame
from citewise.store.sqlite.library import StoredBlock


@dataclass
class Candidate:
    """One answer a table gives: its sentences with their quotes, its features, and its
    result (to tell apart tables that answer differently)."""

    sentences: list[tuple[AnswerSentence, list[Quoted]]]
    result: str
    features: dict[str, float] = field(default_factory=dict)


def computed_sentence(
    comp: Computation, blocks: dict[str, StoredBlock]
) -> tuple[AnswerSentence, list[Quoted]] | None:
    """The one computed sentence every path builds (tables, two named cells, a filing's
    metric): the derivation with each operand cited and quoted, its support left to the
    fitted function (tables/support.py); None when recomputation from the quotes disagrees."""
    if not check(comp, {b.id: b.text for b in blocks.values()}):
        return None
    sentence = AnswerSentence(
        render(comp),
        citations(comp),
        0.0,
        "computed",
        operands=[o.to_dict() for o in comp.operands],
        computation=comp.to_dict(),
    )
    quotes = [Quoted(blocks[o.block_id], o.quote, o.cell_bbox) for o in comp.operands]
    return sentence, quotes


def computed_candidate(
    comp: Computation, frame: Frame, features: dict[str, float]
) -> Candidate | None:
    """The computed sentence of one table's figures, its scale noted."""
    if frame.scale and comp.unit != "%" and comp.expression not in ("a / b",):
        comp.notes.append(f"figures in {frame.scale}")
    made = computed_sentence(comp, {frame.block.id: frame.block})
    if made is None:
        return None
    return Candidate([made], comp.shown_result(), features)
