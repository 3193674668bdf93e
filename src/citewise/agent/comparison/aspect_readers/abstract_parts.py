"""The parts of a structured abstract: "Objectives: ...", "Methods. ...", "Results: ...".

A heading of a structured abstract (ICMJE, CONSORT and PRISMA for abstracts) opens the sentence
that states the paper's aim, method or findings; the first sentence under it is that aspect's
cell. Such headings stand where a paper opens (its abstract, its first fifth): the same words
later are run-in headings of the paper's own sections ("Methods: the first baseline is ...",
"Results. Scores are presented in Table 3"), which state a baseline, a pointer or a training
objective far more often than the paper's aim or finding (QASPER pool: 0 of 315 papers write a
structured abstract, 6 write such a run-in heading after their opening, none of them the cell).
"""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_cells import shorten, word_list
from citewise.agent.comparison.extraction import Finding, Unit

PART_ASPECTS = {"task": "abstract_task_parts", "method": "abstract_method_parts",
                "main result": "abstract_result_parts"}  # fmt: skip
_LABEL = re.compile(r"^(?P<label>[A-Z][A-Za-z ]{2,24}?)\s*[.:]\s*(?P<rest>.*)$")
# what the first sentence under a structured abstract's heading scores: above the title for an
# aim, above cue-found sentences for methods and findings
PART_SCORE = 3.6
OPENING_SHARE = 0.2  # how far into a paper (share of its sentences) its abstract may stand
_ABSTRACT = re.compile(r"\babstract\b", re.I)


def abstract_part(unit: Unit, position: float) -> tuple[str, str] | None:
    """(aspect, rest of the sentence) when the sentence opens with a structured abstract's
    heading ("Results. ...", "Objectives: ...") where the paper opens (`position`: the share
    of the paper's sentences before it), else None."""
    if position > OPENING_SHARE and not _ABSTRACT.search(unit.section):
        return None
    m = _LABEL.match(unit.text)
    if not m:
        return None
    label = m.group("label").strip().lower()
    for aspect, list_name in PART_ASPECTS.items():
        if label in word_list(list_name):
            return aspect, m.group("rest").strip()
    return None


def part_sentence(aspect: str, unit: Unit, text: str) -> list[Finding]:
    """The first sentence under a structured abstract's heading, whole (shortened)."""
    value, was_cut = shorten(text.rstrip(" ."))
    if len(value.split()) < 3 or value not in unit.text:
        return []
    return [Finding(aspect, value, unit.text, unit.page, unit.block_id, unit.section, PART_SCORE,
                    was_cut)]  # fmt: skip
