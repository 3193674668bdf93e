"""Limitations a paper states without a limitation cue: the work it plans, where it weighs its
own results."""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_cells import alternation

# the words that name future work
FUTURE_WORDS = r"future (?:work|studies|research|directions?)|in the future|further work"
# A sentence naming future work states what the paper leaves undone, whatever its verb ("In the
# future, we also consider ...", "leaving X as our future work", "directions remain for future
# research: ..."), unless it names work the paper serves ("facilitates future research").
FUTURE_WORK_CUE = re.compile(
    r"(?:^|;\s+)"
    rf"(?=[^.;:]*\b(?:{FUTURE_WORDS})\b)"
    rf"(?![^.;:]*\b(?:{alternation('future_enabled')}|{alternation('future_announced')})\s+"
    r"(?:(?!that\b)[\w-]+\s+){0,4}?"  # "we suggest that future work could ..." plans
    r"(?:future|further)\b)"
    r"(?P<v>[^.;:]*?\b(?:[^.;:]|\.(?=\d)){8,300})",
    re.I,
)

FUTURE_CUE = 2  # its rank among the limitations cues of prose_aspects.PROSE_CUES
# the verbs of a plan; outside the closing sections a sentence naming future work needs one
# ("allowing unspecified future research" in a method section plans nothing)
PLAN_VERB = re.compile(
    r"\b(?:will|should|could|might|may|would|includes?|plan|want|need|needed|hope|required|"
    r"warranted|leave|leaves|left|is to|intend)\b",
    re.I,
)
_LIST = re.compile(r"\s*:\s*(?P<v>[^.]{12,})")


MIN_PLAN_WORDS = 4  # "Future work." names no plan


def listed_plans(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of what a future-work sentence lists after its colon ("directions remain for
    future research: (1) the fusion of ..."), else (start, end) unchanged; None when the
    sentence names no plan of its own (a heading-like "Future work.", or it ends on the colon
    that announces the next sentences)."""
    m = _LIST.match(text, end)
    if m and len(m.group("v").split()) >= 3:
        return m.start("v"), m.end("v")
    if text[end:].strip().startswith(":") or len(text[start:end].split()) < MIN_PLAN_WORDS:
        return None
    return start, end
