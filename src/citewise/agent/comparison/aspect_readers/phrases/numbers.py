"""Numbers in free-phrase columns (agent/comparison/aspect_readers/phrases/columns.py): a setting's
value
after its phrase ("a beam size of 8", "agreement was κ = 0.93"), a count before the thing it
counts ("2 LSTM layers", "three annotators"), the value in its place among coordinated settings
("... of 200 and 10, respectively"); never a number the sentence credits to a cited work. The
word lists live in agent/data/matrix_phrases.txt.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import cites_others
from citewise.agent.comparison.aspect_readers.phrases.counts import (
    coordinated_after,
    listed_before,
    no_total,
)
from citewise.agent.comparison.aspect_readers.phrases.lists import function_words, phrase_list
from citewise.agent.comparison.extraction import WE_OR_OUR
from citewise.agent.comparison.patterns import NUM

# a number as papers print a setting: "8", "10k", "1.09M", "5 × 10−5", "40 K"
_AMOUNT = rf"{NUM}(?:\s?[kKMB]\b)?"
_SET = (
    r"(?:\s+(?:is|was|were|are|be|of|=|:|set to|set at|set as|fixed to|fixed at|equal to|to|as|"
    r"at))*\s*"
)
# a symbol the value is given to: "agreement was $\\kappa$ = 0.93", "κ = 0.8"
_SYMBOL = r"(?:[$\\]*[^\W\d]{1,8}\s*\$?\s*=\s*\$?\s*)?"


def cited_value(text: str, value: str) -> bool:
    """Whether the value is another work's: a citation stands before it, then a verb of
    reporting ("BIBREF4 report an agreement of 0.7", "a tool [3] obtained 81.3"), and the
    sentence says nothing of the paper's own ("we", "our")."""
    at = text.find(value)
    if WE_OR_OUR.search(text):
        return False
    words = re.finditer(r"\S+", text[:at])
    cited = next((w.end() for w in words if cites_others(text[: w.end()])), None)
    return cited is not None and _reporting().search(text, cited, at) is not None


@cache
def _reporting() -> re.Pattern[str]:
    stems = sorted(phrase_list("reporting_verbs"), key=len, reverse=True)
    return re.compile(
        r"\b(?:" + "|".join(re.escape(w.rstrip("*")) + r"\w*" for w in stems) + r")\b", re.I
    )


Reader = Callable[[str], "tuple[str, bool] | None"]


def _after(mention: str) -> re.Pattern[str]:
    """The value written after the phrase: "a beam size of 8", "agreement was κ = 0.93"; a
    list of values is the whole list ("window sizes of 1, 3 and 5"), an item followed by a
    word names another setting ("a beam size of 8 and 10 epochs" is 8)."""
    joined = r"(?:\s*,\s*(?:and\s+|or\s+)?|,?\s+(?:and|or)\s+)"
    listed = rf"{_AMOUNT}(?:{joined}{_AMOUNT}{_LIST_GOES_ON})*"
    return re.compile(
        rf"\b{mention}{_SET}(?:of\s+|about\s+|around\s+|approximately\s+)?{_SYMBOL}(?P<v>{listed})",
        re.I,
    )


def first_reading(pattern: re.Pattern[str]) -> Reader:
    """The first match's value, or the first the paper states of its own where several are."""

    def reader(text: str) -> tuple[str, bool] | None:
        matches = list(pattern.finditer(text))
        if not matches:
            return None
        # of several readings, the one the paper states of its own ("..., while our model has
        # an embedding size of 128")
        ours = [m for m in matches if WE_OR_OUR.search(text, 0, m.start())]
        m = ours[0] if ours and len(matches) > 1 else matches[0]
        return (m.group("v").strip(), False)

    return reader


def _respective(mention: str) -> Reader:
    near = re.compile(rf"\b{mention}", re.I)

    def respective(text: str) -> tuple[str, bool] | None:
        """In a sentence closed by "respectively", the value in the phrase's position among
        the coordinated names ("embedding size and window size of 200 and 10, respectively"
        gives the window size 10); "" when the names and values do not pair up."""
        closing = _RESPECTIVELY.search(text)
        m = near.search(text, 0, closing.start()) if closing else None
        if closing is None or m is None:
            return None
        head = text[: closing.start()]
        values = list(re.finditer(rf"(?<![\w.]){_AMOUNT}(?![\w.])", head[m.end() :]))
        if len(values) < 2:
            return ("", False)
        names = head[: m.end() + values[0].start()]
        cuts = [0] + [c.end() for c in _CONJUNCTION.finditer(names)]
        starts = cuts[-len(values) :] if len(cuts) >= len(values) else []
        place = [i for i, st in enumerate(starts) if st <= m.start()]
        if not starts or not place or len(cuts) < len(values):
            return ("", False)
        return (values[place[-1]].group().strip(), False)

    return respective


def number_readers(mention: str) -> list[Reader]:
    before = re.compile(
        rf"(?<![\w.-])(?P<v>{_AMOUNT})(?:[- ]dimensional)?\s+(?:\w+\s+)?{mention}", re.I
    )
    return [_respective(mention), first_reading(_after(mention)), first_reading(before)]


def count_readers(phrase_mention: str, mention: str) -> list[Reader]:
    """A "number of X" phrase: the number after the whole phrase ("the number of layers is
    2") or a count written before X ("2 LSTM layers", "six hidden layers", "a 12-layer
    Transformer"); a number after X alone is its size or index ("a layer of 100 units",
    "layer 5"), and a number before a singular X its size ("a 256-dimensional GRU layer")."""
    words = "|".join(sorted(phrase_list("number_words"), key=len, reverse=True))
    compared = "|".join(
        re.escape(w) for w in sorted(phrase_list("comparison_words"), key=len, reverse=True)
    )
    # "110M parameters", "2 layers", "5,452 training examples" (a thousands separator)
    grouped = rf"{_SPACED}|\d{{1,3}}(?:,\d{{3}})+(?![\d.])"
    one = rf"(?:{grouped}|\d+(?:[.,]\d+)?\s?[kKMB]\b|\d+|(?:{words})\b)"
    large = "|".join(sorted(phrase_list("multipliers"), key=len, reverse=True))
    count = re.compile(
        rf"(?<![\w.$/'\u2019\-\u2013\u2014])(?<!\d,)(?P<v>{one}(?:\s+(?:{large})\b)?(?:\s+or\s+more)?)(?P<join>-|\s+)"
        rf"(?!dim|d\b)(?P<mid>(?:(?!(?:{function_words()}|{compared})\b)[\w()-]+\s+){{0,2}}?)"
        rf"(?P<x>{mention})(?![\w-])(?P<next>\s+[\w-]+)?",
        re.I,
    )
    singular = {"1", "one", "single"}

    def before(text: str) -> tuple[str, bool] | None:
        for m in count.finditer(text):
            one = m.group("v").lower() in singular
            plural = m.group("x").lower().endswith("s")
            # "a 12-layer model" counts; "two-fold:" and "an 8-fold reduction" multiply
            after = (m.group("next") or "").strip().lower()
            compound = bool(m.group("join") == "-" and not m.group("mid") and after)
            if no_total(text, m, one, compound, compared):
                continue
            if one or plural or compound:
                listed = listed_before(text[: m.start("v")], one)
                if listed == "range":
                    continue  # "between 5 and 60 notes": a range, no total
                if listed:
                    return (text[m.start("v") - len(listed) : m.end("v")], False)
                if both := coordinated_after(text, m, count):
                    return (both, False)
                return (_located(text, m), False)
        return None

    return [_respective(phrase_mention), first_reading(_after(phrase_mention)), before]


def per_item(text: str, value: str) -> bool:
    """Whether a count is per item rather than in all: a distributive word follows it within
    a few words ("three labels per tweet", "20 annotations for each question"; "for each of
    the three models" distributes over a set, not over items)."""
    at = text.find(value)
    if at < 0:
        return False
    return _per_item_after().match(text, at + len(value)) is not None


@cache
def _per_item_after() -> re.Pattern[str]:
    """A distributive word ("per", "for each") within a few words, not "for each of"."""
    marks = "|".join(
        r"\s+".join(w.split()) for w in sorted(phrase_list("per_item"), key=len, reverse=True)
    )
    return re.compile(rf"[\w-]*(?:\s+[\w-]+){{0,3}}?\s+(?:{marks})\b(?!\s+of\b)")


def illustrative(text: str) -> bool:
    """Whether the sentence opens as an example or a supposition ("For example, ...", "Let x
    and y be two sentences", "If a turn has 20 tokens, ..."): what it names illustrates, it is
    not the paper's own setting or data."""
    return _illustration().match(text) is not None


@cache
def _illustration() -> re.Pattern[str]:
    openings = sorted(phrase_list("illustrations"), key=len, reverse=True)
    return re.compile(r"\W*(?:" + "|".join(r"\s+".join(w.split()) for w in openings) + r")\b", re.I)


def _located(text: str, m: re.Match[str]) -> str:
    """The count as a cell that names its place in the quote: the bare count where its first
    occurrence is the one read, else the count with what it counts ("two" inside "network"
    earlier in the sentence makes the cell "two layers")."""
    value = m.group("v")
    return value if text.find(value) == m.start("v") else text[m.start("v") : m.end("x")]


# a space (or a narrow no-break space) as thousands separator: "279 923 news articles", "1 000
# examples" (ISO 80000's and many European languages' way of grouping digits)
_SPACED = r"[1-9]\d{0,2}(?:[ \u00a0\u2009\u202f]\d{3})+(?![\d.,])"
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
# what joins coordinated names: "A, B and C", "A and B"
_CONJUNCTION = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
# a later item of a list of values stands before punctuation, "and"/"or" or the sentence's end
# (or a preposition opening what follows: "kernel sizes of 2, 4 and 6 in parallel")
_LIST_GOES_ON = (
    r"(?=\s*(?:[,;.)]|(?:and|or|as|respectively|in|for|on|with|at|from|during|while|when|across)"
    r"\b|$))"
)
