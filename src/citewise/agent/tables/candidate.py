"""A table's answer as a candidate: its sentences with the quotes they cite, the features
support is derived from (tables/support.py), and its result."""

from __future__ import annotations

from dataclasses import dataclass, field

from citewise.agent.answer import AnswerSentence
from citewise.agent.computed import Computation, check, citations, render
from citewise.agent.quoted import Quoted
from citewise.agent.tables.frame import Frame


@dataclass
class Candidate:
    """One answer a table gives: its sentences with their quotes, its features, and its
    result (to tell apart tables that answer differently)."""

    sentences: list[tuple[AnswerSentence, list[Quoted]]]
    result: str
    features: dict[str, float] = field(default_factory=dict)


def computed_candidate(
    comp: Computation, frame: Frame, features: dict[str, float]
) -> Candidate | None:
    """The computed sentence with its operands cited; None when recomputation disagrees."""
    if not check(comp, {frame.block.id: frame.block.text}):
        return None
    if frame.scale and comp.unit != "%" and comp.expression not in ("a / b",):
        comp.notes.append(f"figures in {frame.scale}")
    sentence = AnswerSentence(
        render(comp),
        citations(comp),
        0.0,
        "computed",
        operands=[o.to_dict() for o in comp.operands],
        computation=comp.to_dict(),
    )
    quotes = [Quoted(frame.block, o.quote, o.cell_bbox) for o in comp.operands]
    return Candidate([(sentence, quotes)], comp.shown_result(), features)
