"""Numbers in free-phrase columns (agent/comparison/aspect_readers/matrix_phrases.py): a setting's
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

from citewise.agent.comparison.aspect_readers.matrix_cells import cites_others, word_list
from citewise.agent.comparison.patterns import NUM
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

# a number as papers print a setting: "8", "10k", "1.09M", "5 × 10−5", "40 K"
_AMOUNT = rf"{NUM}(?:\s?[kKMB]\b)?"
_SET = (
    r"(?:\s+(?:is|was|were|are|be|of|=|:|set to|set at|set as|fixed to|fixed at|equal to|to|as|"
    r"at))*\s*"
)
# a symbol the value is given to: "agreement was $\\kappa$ = 0.93", "κ = 0.8"
_SYMBOL = r"(?:[$\\]*[^\W\d]{1,8}\s*\$?\s*=\s*\$?\s*)?"
# of several readings in one sentence, the one the paper states of its own ("..., while our
# model has an embedding size of 128")
OURS = re.compile(r"\b(?:our|we)\b", re.I)


PHRASE_LISTS_FILE = "matrix_phrases.txt"
_PHRASE_LISTS = (
    "number_words",
    "measure_words",
    "vague_adjectives",
    "predicate_suffixes",
    "adverbs",
    "name_stops",
    "framing_sections",
    "reporting_verbs",
    "prefixes",
    "comparison_words",
    "count_followers",
    "use_verbs",
    "quantity_nouns",
    "approximations",
    "multipliers",
    "bounds",
    "averages",
    "setting_contexts",
    "own_use_words",
    "per_item",
    "kind_nouns",
    "illustrations",
    "picking_counts",
    "example_markers",
    "possibility_words",
    "pretrained_resources",
    "time_units",
    "time_activities",
    "selection_words",
    "duration_followers",
    "class_quantifiers",
    "network_parts",
)


@cache
def phrase_list(name: str) -> frozenset[str]:
    """A list of agent/data/matrix_phrases.txt (lower case; provenance checked)."""
    text = shipped_text(PHRASE_LISTS_FILE)
    lists = sourced_lists(text, PHRASE_LISTS_FILE, _PHRASE_LISTS)
    return frozenset(w.lower() for w in lists[name])


def function_words() -> str:
    return "|".join(re.escape(w) for w in sorted(word_list("dangling"), key=len, reverse=True))


def cited_value(text: str, value: str) -> bool:
    """Whether the value is another work's: a citation stands before it, then a verb of
    reporting ("BIBREF4 report an agreement of 0.7", "a tool [3] obtained 81.3"), and the
    sentence says nothing of the paper's own ("we", "our")."""
    at = text.find(value)
    if OURS.search(text):
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
MAX_JOINED_GAP = 5  # words between two coordinated counts of one thing ("... from Wales and")


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
        ours = [m for m in matches if OURS.search(text, 0, m.start())]
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

    item = rf"(?:\d{{1,3}}(?:[ ,\u00a0\u2009\u202f]\d{{3}})+|\d+(?:\.\d+)?\s?[kKMB]?|(?:{words}))"
    listed_pattern = re.compile(rf"(?<![\w.,])(?:{item}\s*,\s*)*{item}\s*,?\s+(?:and|or)\s+$", re.I)
    quantity = re.compile(
        rf"\b(?:{'|'.join(sorted(word_list('quantity_words'), key=len, reverse=True))})\s*$", re.I
    )

    def _listed_before(before: str, one: bool) -> str:
        """The counts coordinated before the one read ("run for 20, 40 and 80 clusters",
        "300 and 100 hidden units"): the whole list is the value, as a list after the phrase
        is; "between 5 and 60 notes" is a range ("range": no count), and a first item
        after a quantity noun ("size 512 and 4 heads") another setting's value: no list."""
        m = None if one else listed_pattern.search(before)
        if m is None:
            return ""
        if re.search(r"\b(?:between|from)\s*$", before[: m.start()], re.I):
            return "range"
        if quantity.search(before[: m.start()]):
            return ""  # "note size 512 and 4 heads": another setting's value
        return m.group()

    def _coordinated_after(text: str, m: re.Match[str]) -> str:
        """Two counts of the same thing joined by "and" a few words apart ("900 notes
        from Wales and 400 notes from Cornwall"): both, from the first count to the
        second thing counted, are the value; one alone is one part's count. A comma or
        another number between ("900 notes, written by 12 geologists and 400 ...") makes the
        second a part of the first."""
        nxt = count.search(text, m.end("x"))
        if nxt is None or nxt.group("x").lower() != m.group("x").lower():
            return ""
        between = text[m.end("x") : nxt.start("v")]
        words = re.findall(r"[\w'-]+", between)
        if re.search(r"[;.:(),\d]", between) or "and" not in words or len(words) > MAX_JOINED_GAP:
            return ""
        return text[m.start("v") : nxt.end("x")]

    def before(text: str) -> tuple[str, bool] | None:
        for m in count.finditer(text):
            one = m.group("v").lower() in singular
            plural = m.group("x").lower().endswith("s")
            # "a 12-layer model" counts; "two-fold:" and "an 8-fold reduction" multiply
            after = (m.group("next") or "").strip().lower()
            compound = m.group("join") == "-" and not m.group("mid") and after
            if m.group("join") == "-" and m.group("mid"):
                continue  # "one-hot character features", "ten-trending topics": a compound
            if one and not compound and _one_of_many(text[: m.start()]):
                continue  # "in one language", "on a single topic": one of many, no count
            if _related(text[: m.start()], text[m.end("v") :]):
                continue  # "the similarity between two sentences": a pair, no count
            if compound and re.fullmatch(compared, after, re.I):
                continue
            if not plural and not compound and modifies(after):
                continue  # "one language pair", "a single language model": X names a kind
            if one and re.search(r"\w(?:ing|ed)\b", m.group("mid")):
                continue  # "one representing formal language": a clause, not a count
            if set(m.group("mid").lower().split()) & phrase_list("selection_words"):
                continue  # "the 30 most visited outcrops": a selection, not the paper's total
            if _kinds_of(m.group("x"), text[m.end("x") :]):
                continue  # "two classes of models": kinds of the models, not the paper's classes
            if _bounded(text[: m.start()]):
                continue  # "a batch size of 15 sentences", "the top 5 sentences": no total
            if one or plural or compound:
                listed = _listed_before(text[: m.start("v")], one)
                if listed == "range":
                    continue  # "between 5 and 60 notes": a range, no total
                if listed:
                    return (text[m.start("v") - len(listed) : m.end("v")], False)
                if both := _coordinated_after(text, m):
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


def _kinds_of(counted: str, after: str) -> bool:
    """Whether a counted kind noun divides what follows "of" ("two classes of models", "four
    types of agreement"): it counts kinds of that, not the paper's own classes; "three classes
    of the sentiment data" (a determiner) divides the paper's own data."""
    return counted.lower() in phrase_list("kind_nouns") and bool(
        re.match(r"\s+of\s+(?!(?:the|these|this|those|our|its|their)\b)", after, re.I)
    )


def illustrative(text: str) -> bool:
    """Whether the sentence opens as an example or a supposition ("For example, ...", "Let x
    and y be two sentences", "If a turn has 20 tokens, ..."): what it names illustrates, it is
    not the paper's own setting or data."""
    return _illustration().match(text) is not None


@cache
def _illustration() -> re.Pattern[str]:
    openings = sorted(phrase_list("illustrations"), key=len, reverse=True)
    return re.compile(r"\W*(?:" + "|".join(r"\s+".join(w.split()) for w in openings) + r")\b", re.I)


def _one_of_many(before: str) -> bool:
    """Whether a count of one stands after a preposition or a copula ("translate a sentence in
    one language", "focused on a single topic", "a profile is a single document"): it picks
    one thing of its kind, it does not say how many the paper has ("there is one ..." does)."""
    words = re.findall(r"[a-z]+", before.lower())
    while words and words[-1] in _PICKED:
        words.pop()
    if len(words) >= 2 and words[-2] == "there":
        return False
    return bool(words) and words[-1] in word_list("dangling") - _NOT_LINKING


def _related(before: str, after: str) -> bool:
    """Whether a count names the members of a relation rather than how many the paper has:
    it follows "between" ("the similarity between two sentences": any two); "between the
    three classes" names the paper's known set, "between 2 and 10 documents" is a range."""
    words = re.findall(r"[a-z]+", before.lower())
    return bool(words) and words[-1] == "between" and not re.match(r"\s*(?:and|-|to)\b", after)


# what may stand between a preposition and a count of one ("in any one", "as only a single")
_PICKED = frozenset({"a", "an", "the", "any", "only", "just"})
# function words that neither place nor equate: articles, conjunctions, pronouns, "with"
_NOT_LINKING = frozenset({
    "a", "an", "the", "and", "or", "but", "nor", "with", "that", "which", "who", "whose",
    "whom", "while", "whereas", "its", "their", "our", "this", "these", "those",
})  # fmt: skip


def _bounded(before: str) -> bool:
    """Whether the words just before a count make it another setting's value, a bound or an
    average rather than a total of the thing counted: a quantity noun linked to it ("a batch
    size of 15 sentences", "the batch size is set to be 4096 tokens"), a word of a setting in
    its clause ("truncated to 400 tokens", "a vocabulary of 30K tokens"), a bound ("the top
    5", "no more than 3", "longer than 40") or an average ("on average 940 sentences")."""
    clause = re.split(r"[,;:()]", before)[-1]
    words = re.findall(r"[a-z]+", clause.lower())
    quantity = "|".join(sorted(word_list("quantity_words"), key=len, reverse=True))
    linked = re.search(
        rf"\b(?:{quantity})\s+(?:(?:of|is|was|were|are|=|:)\s*)?(?:(?:set|fixed)\s+(?:to|at|as)"
        rf"(?:\s+be)?)?\s*$",
        before,
        re.I,
    )
    settings = phrase_list("setting_contexts")
    return bool(
        (linked and linked.group().strip().lower() not in word_list("quantity_words"))
        or (words and words[-1] in phrase_list("bounds"))
        or _threshold(words)
        or set(re.findall(r"[a-z]+", before.lower())[-5:]) & phrase_list("averages")
        or any(w in settings or w.rstrip("sd") in settings for w in words[-6:])
    )


def _threshold(words: list[str]) -> bool:
    """Whether a comparison makes the count a threshold ("longer than 40 tokens", "fewer than
    10 questions", "no more than 1,000 tokens"); "more than 24K questions" or "over 200
    languages" approximates a total (agent/data/matrix_phrases.txt, approximations)."""
    if len(words) < 2 or words[-1] != "than":
        return False
    approximate = words[-2] in phrase_list("approximations")
    return not approximate or (len(words) > 2 and words[-3] in _NEGATED)


_NEGATED = frozenset({"no", "not"})  # "no more than 3": a bound


def modifies(after: str) -> bool:
    """Whether the word after a singular counted noun is another noun it modifies ("one
    language pair"): a lower-case word that is no function word, auxiliary or participle."""
    return (
        bool(re.fullmatch(r"[a-z][a-z-]*", after))
        and not after.endswith("ed")
        and after not in word_list("dangling")
        and after not in phrase_list("number_words")
        and after not in phrase_list("count_followers")
    )


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
