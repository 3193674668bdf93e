"""The measures a results sentence names after "in terms of": "achieves improved performance in
terms of perplexity, topic coherence, and running time", "better in terms of engagingness,
interestingness, and humanness", "very high quality in terms of grammatical correctness and
sentence transitions" (~25% of odd-half pool papers). Word lists: agent/data/metric_words.txt."""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import listed, stems_alternation

__all__ = ["in_terms_of"]

WORDS_FILE = "metric_words.txt"
_TERMS = re.compile(r"\bin\s+terms\s+of\s+(?:both\s+)?(?:the\s+)?(?P<v>[^.;:()\[\]]{2,160})")
# the list ends at a preposition or conjunction that opens what follows it ("... and user
# engagement on both tasks", "..., particularly in handling sparse texts")
_LIST_END = re.compile(
    r"\s(?:on|for|over|when|while|than|compared|with|as|in|across|between|from|at|by|to|under|"
    r"against|without|whereas|but|since|because|where|which|that)\s|,\s*(?:and\s+)?(?:but|which|"
    r"while|whereas|although|though|where|when|since|because|we|it|they|the|our|this|\w+ly)\b"
)
_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+")
_ITEM = re.compile(r"(?:[A-Za-z][\w'@-]*\s+){0,2}[A-Za-z][\w'@-]*")  # up to three words
# the sentence compares or evaluates: "outperforms ... in terms of", "evaluated in terms of"
_EVALUATES = re.compile(
    r"outperform|better|worse|improv|evaluat|\bresults?\b|achiev|higher|lower|\bbest\b|surpass|"
    r"advantage|compar|annotator|judg|\brat(?:ed|e|ing)\b|measur|assess|score",
    re.I,
)


@cache
def _not_in_a_metric() -> re.Pattern[str]:
    words = stems_alternation(listed(WORDS_FILE, "not_in_a_metric"))
    return re.compile(rf"\b(?:{words})\b|ly$", re.I)


def in_terms_of(text: str) -> list[tuple[int, int]]:
    """The spans of the measures an "in terms of" list of the text names, left to right; the
    list stops at its first item that is no measure's name (more than three words, a
    determiner, a judgement: "fast training speed and good performance"), and an item that is
    only a vague noun ("performance", "absolute numbers") is left out."""
    m = _TERMS.search(text)
    if not m or not _EVALUATES.search(text):
        return []
    start = m.start("v")
    value = m.group("v")
    end = _LIST_END.search(value)
    value = re.sub(r"\s+(?:and|or)\s*$", "", value[: end.start() if end else len(value)])
    vague = listed(WORDS_FILE, "vague_measures")
    out = []
    at = 0
    for part in _SPLIT.split(value):
        at = value.find(part, at)
        if not part:
            continue
        if not _ITEM.fullmatch(part) or _not_in_a_metric().search(part):
            break
        if part.lower() not in vague:
            out.append((start + at, start + at + len(part)))
        at += len(part)
    return out
