"""When a count written before the counted noun ("two sentences", "a 12-layer model") is no
total of the paper's own: a compound, one thing picked, a relation's members, a kind, a clause,
a selection, kinds of something else, another setting's value, a bound or an average."""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import word_list
from citewise.agent.comparison.aspect_readers.phrases.lists import phrase_list


def no_total(text: str, m: re.Match[str], one: bool, compound: bool, compared: str) -> bool:
    """Whether a count written before X counts nothing of the paper's own (a compound, one of
    many, a pair, a kind, a clause, a selection, kinds of something else, a bounded setting)."""
    plural = m.group("x").lower().endswith("s")
    after = (m.group("next") or "").strip().lower()
    return bool(
        # "one-hot character features", "ten-trending topics": a compound
        (m.group("join") == "-" and m.group("mid"))
        # "in one language", "on a single topic": one of many, no count
        or (one and not compound and _one_of_many(text[: m.start()]))
        # "the similarity between two sentences": a pair, no count
        or _related(text[: m.start()], text[m.end("v") :])
        or (compound and re.fullmatch(compared, after, re.I))
        # "one language pair", "a single language model": X names a kind
        or (not plural and not compound and modifies(after))
        # "one representing formal language": a clause, not a count
        or (one and re.search(r"\w(?:ing|ed)\b", m.group("mid")))
        # "the 30 most visited outcrops": a selection, not the paper's total
        or (set(m.group("mid").lower().split()) & phrase_list("selection_words"))
        # "two classes of models": kinds of the models, not the paper's classes
        or _kinds_of(m.group("x"), text[m.end("x") :])
        # "a batch size of 15 sentences", "the top 5 sentences": no total
        or _bounded(text[: m.start()])
    )


def _kinds_of(counted: str, after: str) -> bool:
    """Whether a counted kind noun divides what follows "of" ("two classes of models", "four
    types of agreement"): it counts kinds of that, not the paper's own classes; "three classes
    of the sentiment data" (a determiner) divides the paper's own data."""
    return counted.lower() in phrase_list("kind_nouns") and bool(
        re.match(r"\s+of\s+(?!(?:the|these|this|those|our|its|their)\b)", after, re.I)
    )


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


MAX_JOINED_GAP = 5  # words between two coordinated counts of one thing ("... from Wales and")


@cache
def _listed_pattern() -> re.Pattern[str]:
    words = "|".join(sorted(phrase_list("number_words"), key=len, reverse=True))
    item = rf"(?:\d{{1,3}}(?:[ ,\u00a0\u2009\u202f]\d{{3}})+|\d+(?:\.\d+)?\s?[kKMB]?|(?:{words}))"
    return re.compile(rf"(?<![\w.,])(?:{item}\s*,\s*)*{item}\s*,?\s+(?:and|or)\s+$", re.I)


@cache
def _quantity_end() -> re.Pattern[str]:
    nouns = "|".join(sorted(word_list("quantity_words"), key=len, reverse=True))
    return re.compile(rf"\b(?:{nouns})\s*$", re.I)


def listed_before(before: str, one: bool) -> str:
    """The counts coordinated before the one read ("run for 20, 40 and 80 clusters",
    "300 and 100 hidden units"): the whole list is the value, as a list after the phrase
    is; "between 5 and 60 notes" is a range ("range": no count), and a first item
    after a quantity noun ("size 512 and 4 heads") another setting's value: no list."""
    m = None if one else _listed_pattern().search(before)
    if m is None:
        return ""
    if re.search(r"\b(?:between|from)\s*$", before[: m.start()], re.I):
        return "range"
    if _quantity_end().search(before[: m.start()]):
        return ""  # "note size 512 and 4 heads": another setting's value
    return m.group()


def coordinated_after(text: str, m: re.Match[str], count: re.Pattern[str]) -> str:
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
