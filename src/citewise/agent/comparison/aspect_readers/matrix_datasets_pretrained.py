"""The data a pre-trained resource was trained on is not the paper's data: "word2vec is trained
on the Google News dataset", "we use a publicly available encoder, which was trained on 2
million tweets", "fastText vectors trained on the NoWaC corpus". A datasets finding whose
value stands after "(pre-)trained on / with / by / from" in a clause whose subject is such a
resource ([pretrained_resources] of agent/data/datasets_words.txt) is left out. So is the
inventory a paper's data is labelled from: "SemEval data labelled by senses from WordNet 3.0",
"annotated with senses from X", "labeled by the tags of X" (the labels' source, not data)."""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import listed, stems_alternation
from citewise.agent.comparison.extraction import Finding

__all__ = ["pretrained_data_out"]

WORDS_FILE = "datasets_words.txt"


@cache
def _trained_on() -> re.Pattern[str]:
    """The resource, its verb "(is / was / have been) (pre-)trained | learned | tuned" and
    the words after it to the clause's end (a decimal point, "2.8 billion", ends nothing)."""
    resource = stems_alternation(listed(WORDS_FILE, "pretrained_resources"))
    return re.compile(
        rf"\b(?i:{resource})\b(?:\s*,\s*which|\s+that|\s+which)?(?:\s+(?:have|has))?"
        r"(?:\s+(?:is|are|was|were|been|being))?\s+(?:also\s+|originally\s+|already\s+)?"
        r"(?:pre-?)?(?:trained|learned|learnt|tuned|induced)\s+"
        r"(?P<d>(?:by|on|with|from|using|in)\b(?:[^.;]|\.(?=\d))*)"
    )


# "labelled by senses from WordNet 3.0", "annotated with senses from X", "labeled by the tags of X"
_LABELLED_FROM = re.compile(
    r"\b(?:labell?ed|annotated|tagged)\s+(?:by|with|using|according\s+to)\s+(?:the\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:from|of|in)\s+(?P<d>(?:the\s+)?[A-Z][\w-]*(?:\s+[\w.]+){0,2})"
)


def pretrained_data_out(found: list[Finding]) -> list[Finding]:
    """The findings without those whose value (its first place in its quote) stands in the
    data a pre-trained resource was trained on or names the inventory data is labelled from."""
    spans: dict[str, list[tuple[int, int]]] = {}
    out = []
    for f in found:
        if f.quote not in spans:
            spans[f.quote] = [
                m.span("d")
                for pattern in (_trained_on(), _LABELLED_FROM)
                for m in pattern.finditer(f.quote)
            ]
        at = f.quote.find(f.value)
        if not any(start <= at < end for start, end in spans[f.quote]):
            out.append(f)
    return out
