"""Hardware a paper names in its acknowledgements: the card a company donated for the work
("The Titan Xp used for this research was donated by ...", "the donation of a GPU used for
part of this research") or the computing service that ran it ("performed using resources
provided by the Cambridge Tier-2 system"). About 5% of the QASPER pool's papers (16 of 315)
thank someone for the hardware this way; the experiment sections of most of them name none.

Read only in a sentence saying the hardware served this work (used for it, donated, provided),
and scored below every reading of the paper's body, so it fills a cell after those.
"""

from __future__ import annotations

import re
from dataclasses import replace

from citewise.agent.comparison.extraction import Finding, Unit, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings

# the hardware served this work: "used for this research", "donat(ed|ion)", "provided by"
_SERVED = re.compile(
    r"\b(?:used|performed|run|carried\s+out)\s+(?:\w+\s+){0,3}?(?:for|in|on|using)\s+"
    r"(?:part\s+of\s+)?(?:this|the\s+present|our)\s+(?:research|work|study|paper|project)\b|"
    r"\bdonat\w*|\bprovided\s+by\b|\bperformed\s+using\b",
    re.I,
)
_GIVEN: list[re.Pattern[str]] = [
    # "the donation of a GPU used for ...", "donating computational GPU resources"
    re.compile(r"\bdonat\w*\s+(?:of\s+)?(?:an?|the|\d+|two|four)\s+(?:\w+\s+){0,3}?(?P<v>GPUs?)\b"),
    # "resources provided by the Cambridge Tier-2 system operated by ...", "computational
    # resources provided by Compute Canada"
    re.compile(
        r"\bresources\s+(?:and\s+services\s+)?provided\s+by\s+(?:the\s+)?"
        r"(?P<v>[A-Z][\w-]*(?:\s+(?:for\s+|of\s+)?[A-Z][\w-]*){0,5}"
        r"(?:\s+(?:system|cluster|center|centre|facility))?)"
    ),
]
_SCORE = 0.2


def thanked_hardware(thanks: tuple[Unit, ...]) -> list[Finding]:
    """The hardware the acknowledgements say served the work, scored below the body's."""
    served = [u for u in thanks if _SERVED.search(u.text)]
    found = [f for u in served for f in find_in_unit("hardware", u)]
    found = settings_findings("hardware", served, "", set(), found)
    for unit in served:
        for pattern in _GIVEN:
            m = pattern.search(unit.text)
            if m:
                found.append(Finding("hardware", m.group("v"), unit.text, unit.page,
                                     unit.block_id, unit.section, 0.0))  # fmt: skip
    return [replace(f, score=_SCORE) for f in found]
