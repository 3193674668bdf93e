"""The confidence gate of "number of X" columns (agent/comparison/aspect_readers/matrix_phrases.py):
a count fills the cell only where the sentence can be the paper's own statement of how many X
it has. A count written out as "one" or "two" picks a thing or a pair ("the similarity of two
sentences", "one language at a time"), a count in an example or a possibility ("for example,
three questions", "the tagger can use two features") illustrates, and a count after "trained on"
where a pre-trained resource is the subject ("GloVe vectors pre-trained on 840B tokens") is the
resource's corpus: none of them says how many the paper has, so the cell is left "not stated"
rather than filled with them. The words live in agent/data/matrix_phrases.txt.
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_phrase_numbers import phrase_list

MAX_RESOURCE_GAP = 6  # words between a pre-trained resource and its "trained on"


def not_a_total(text: str, value: str, written_count: bool) -> str:
    """Why a count read for a "number of X" column is not the paper's own total ("" when
    nothing says so). `written_count`: the count stands before X ("two sentences"), not
    linked to the whole phrase ("the number of sentences is two" keeps a count of two)."""
    first = value.split()[0].lower() if value.split() else ""
    if written_count and first in phrase_list("picking_counts"):
        return "a thing or a pair picked"
    if _marked().search(text):
        return "an example or a possibility"
    at = text.find(value)
    if at >= 0 and _pretrained_corpus().search(text[:at]):
        return "a pre-trained resource's corpus"
    return ""


@cache
def _marked() -> re.Pattern[str]:
    """A marker of an example or a possibility anywhere in the sentence."""
    words = phrase_list("example_markers") | phrase_list("possibility_words")
    alternation = "|".join(
        r"\s+".join(re.escape(p) for p in w.split()) for w in sorted(words, key=len, reverse=True)
    )
    return re.compile(rf"(?<![\w.])(?:{alternation})(?![\w])", re.I)


@cache
def _pretrained_corpus() -> re.Pattern[str]:
    """ "<resource> ... (pre-)trained on" ending just before the count ("vectors trained on",
    "word2vec is trained on"), or "pre-trained on" alone; "X as features, trained on" is the
    paper's own classifier."""
    names = "|".join(re.escape(w) for w in sorted(phrase_list("pretrained_resources"), key=len))
    return re.compile(
        rf"(?:\b(?:{names})\b(?:\s+(?!as\b)[^\s.;]+){{0,{MAX_RESOURCE_GAP}}}?\s+|\bpre-?)"
        rf"trained\s+on\s+(?:[^\s.;]+\s+){{0,8}}?(?:\(\s*)?$",
        re.I,
    )
