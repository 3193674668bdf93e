"""The data a paper says it runs its experiments on, named or only described, beside the
readings of matrix_datasets.py: "we conduct experiments on a simplified Chinese reef survey
corpus", "our experiments on synthetic translation datasets", "we experimented with the
benchmark datasets from SemEval 2014 task 4". Data described only by words that say how
known, big or public it is ("two benchmark datasets", "the same corpus") is no value; the
words are in agent/data/datasets_words.txt. Also the name a sentence sets right after a data
word: "the largest discourse corpus PDTB 2.0 [cite]".
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import word_list
from citewise.agent.comparison.extraction import (
    FIRST_PERSON,
    PLACEHOLDER_KINDS,
    Finding,
    Unit,
    section_bonus,
)
from citewise.agent.comparison.gazetteer import NAME, PLACEHOLDER, is_name
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

WORDS_FILE = "datasets_words.txt"
_DATA_WORD = r"(?i:datasets?|data ?sets?|corpus|corpora|benchmarks?|treebanks?)"
# the paper's own experiments: "we conduct (a series of) experiments ... on", "our
# experiments on", "we experimented with", "we evaluate our model on", "experiments were
# conducted on"
_RUN_ON = (
    r"(?:\b(?i:we|our)\s+(?:[\w-]+\s+){0,3}?(?i:experiments?|experimented|evaluate[ds]?|"
    r"test(?:s|ed)?|train(?:s|ed)?)|\b(?i:experiments?)\s+(?i:are|were)\s+(?i:conducted|"
    r"performed|carried\s+out|run))\s+(?:[\w-]+\s+){0,5}?(?i:on|with|using)\s+"
)
_DETERMINER = r"(?:(?i:the|an?|our|two|three|four|five|several)\s+)?"
# "the benchmark datasets from SemEval 2014 task 4": the name the data comes with
_FROM = (
    rf"(?P<f>\s+from\s+(?:the\s+)?{NAME}(?:\s+{NAME}){{0,3}}(?:\s+\d{{4}})?"
    r"(?:\s+[Tt]ask\s+\d+)?)"
)
# a word of the description, not a preposition or conjunction ("the following cases on X")
_MODIFIER = (
    r"(?:(?!(?i:on|with|using|of|for|in|to|and|or|from|by|at|as|than|that|which)\s)[\w-]+\s+)"
)
_DATA_RUN_ON = re.compile(
    rf"{_RUN_ON}{_DETERMINER}(?P<v>(?P<m>{_MODIFIER}{{1,5}}?){_DATA_WORD}\b{_FROM}?)"
)
PLACEHOLDER_INSIDE = re.compile(rf"\b(?:{PLACEHOLDER_KINDS})\d")
USED_DATA_SCORE = 2.0  # as a name the paper states (matrix_datasets.NAMED_SCORE)


@cache
def _generic() -> frozenset[str]:
    lists = sourced_lists(shipped_text(WORDS_FILE), WORDS_FILE, ["generic_data_modifiers"])
    return frozenset(w.lower() for w in lists["generic_data_modifiers"])


def _describes(modifiers: str) -> bool:
    """Whether the words before the data word describe which data it is in words ("emotion
    cause", "SLA modeling shared"), not only how known, big or public it is ("two
    benchmark"); a name alone ("the RACE dataset") is read by matrix_datasets.py."""
    vague = _generic() | word_list("vague_modifiers")
    return any(w.lower() not in vague and w[:1].islower() for w in modifiers.split())


# a data word followed by its name: "the largest discourse corpus PDTB 2.0 [cite]", "the
# aforementioned dataset HotelRec, containing ..." (~2% of pool papers)
_NAME_AFTER = re.compile(
    rf"\b(?:dataset|data set|corpus|treebank)\s+(?P<v>{NAME}(?:\s+v?\d+(?:\.\d+)*)?)"
    r"(?=\s*(?:BIBREF\d|\(|,|\.(?!\d)|;|$))"
)
NAME_AFTER_SCORE = 2.0  # as a name the paper states (matrix_datasets.NAMED_SCORE)


def names_after_data_word(paper_units: list[Unit]) -> list[Finding]:
    """The name a sentence gives right after a data word, with its version ("PDTB 2.0")."""
    return _named(paper_units, _NAME_AFTER, NAME_AFTER_SCORE)


def _named(
    paper_units: list[Unit],
    pattern: re.Pattern[str],
    base: float,
    *,
    needs: re.Pattern[str] | None = None,
) -> list[Finding]:
    """Each name `pattern` reads (its group "v", opening with a dataset name, no placeholder)
    outside tables, scored `base` plus its section's bonus; `needs` a word the sentence holds."""
    found = []
    for unit in paper_units:
        if unit.kind == "table" or (needs and not needs.search(unit.text)):
            continue
        for m in pattern.finditer(unit.text):
            first = m.group("v").split()[0]
            if PLACEHOLDER.match(first) or not is_name(first, "datasets"):
                continue
            score = base + section_bonus("default", unit)
            found.append(Finding("datasets", m.group("v"), unit.text, unit.page, unit.block_id,
                                 unit.section, score))  # fmt: skip
    return found


# the name a sentence says it uses as its data, in a role: "we use SQuAD 1.1 [cite] as the
# English QG dataset", "we selected El Quijote [cite] as our second corpus" (~2.5% of pool papers)
_USED_AS = re.compile(
    r"\b(?i:use[ds]?|using|adopt(?:s|ed)?|take[sn]?|took|cho(?:se|ose|sen)|select(?:s|ed)?|"
    rf"employ(?:s|ed)?)\s+(?:the\s+)?(?P<v>{NAME}(?:\s+(?:{NAME}|v?\d+(?:\.\d+)*)){{0,3}})"
    r"(?:\s+BIBREF\d+(?:\s*,\s*BIBREF\d+)*)?\s+as\s+(?P<r>(?:the|our|an?)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:datasets?|data\s?sets?|data|corpus|corpora|benchmark|(?:training|test|development|"
    r"validation|evaluation)\s+(?:set|data))s?)\b"
)
USED_AS_SCORE = 2.0  # as a name the paper states (matrix_datasets.NAMED_SCORE)


def used_as_data(paper_units: list[Unit]) -> tuple[list[Finding], set[tuple[str, str]]]:
    """The names a sentence uses as its data in a role, and the (sentence, role words) pairs
    whose words ("English QG" of "as the English QG dataset") are then no name."""
    found: list[Finding] = []
    roles: set[tuple[str, str]] = set()
    for unit in paper_units:
        if unit.kind == "table":
            continue
        if " as " not in unit.text:
            continue  # the form's own word, checked before the pattern
        for m in _USED_AS.finditer(unit.text):
            words = m.group("v").split()
            name = " ".join(
                words[: next((i for i, w in enumerate(words) if PLACEHOLDER.match(w)), None)]
            )
            if not name or name.split()[0].lower() in word_list("name_openers"):
                continue
            score = USED_AS_SCORE + section_bonus("default", unit)
            found.append(Finding("datasets", name, unit.text, unit.page, unit.block_id,
                                 unit.section, score))  # fmt: skip
            roles.add((unit.text, m.group("r")))
    return found, roles


# a name before a split of its data: "accuracy on the SNLI test set", "trained on the RACE
# training set", "the WikiLarge test data" (~14% of pool papers)
_NAME_SPLIT = re.compile(
    rf"\b(?i:the|on|from|using|of|in)\s+(?P<v>{NAME}(?:\s+v?\d+(?:\.\d+)*)?)\s+(?i:training|test|"
    r"testing|dev|development|validation|evaluation)\s+(?i:sets?|data|splits?)\b"
)


_SPLIT_WORD = re.compile(r"\b(?:set|sets|data|split|splits)\b", re.I)
SPLIT_SCORE = 1.0  # as a known name met in a results section: a split names data in passing


def names_before_split(paper_units: list[Unit]) -> list[Finding]:
    """The name a sentence sets before a split of its data ("the SNLI test set")."""
    return _named(paper_units, _NAME_SPLIT, SPLIT_SCORE, needs=_SPLIT_WORD)


# the named collection the data is drawn from: "All the data used in this paper comes from Siri
# internal datasets", "the parallel data comes from WMT 2014", "texts are taken from the
# Norwegian Review Corpus (NoReC)" (~6% of pool papers)
_DRAWN_FROM = re.compile(
    r"\b(?i:data|datasets?|corpus|corpora|texts|documents|sentences)(?:\s+[a-z]+){0,4}\s+"
    r"(?:comes?|came|(?:is|are|was|were)\s+(?:drawn|taken|obtained|sourced|extracted))\s+from\s+"
    rf"(?:the\s+)?(?P<v>{NAME}(?:\s+(?:{NAME}|v?\d+(?:\.\d+)*|[a-z]+(?=\s+{_DATA_WORD})|"
    rf"{_DATA_WORD})){{0,5}}(?:\s+\([A-Z][\w-]*\))?)"
)


def drawn_from(paper_units: list[Unit]) -> list[Finding]:
    """The named collection a sentence says the data comes from, as it names it."""
    found = []
    for unit in paper_units:
        if unit.kind == "table":
            continue
        if " from " not in unit.text:
            continue
        for m in _DRAWN_FROM.finditer(unit.text):
            words = m.group("v").split()
            cut = next((i for i, w in enumerate(words) if PLACEHOLDER.match(w)), len(words))
            name = " ".join(words[:cut])
            if not name or name.split()[0].lower() in word_list("name_openers"):
                continue
            score = NAME_AFTER_SCORE + section_bonus("default", unit)
            found.append(Finding("datasets", name, unit.text, unit.page, unit.block_id,
                                 unit.section, score))  # fmt: skip
    return found


def _without_generic(value: str) -> str:
    """ "public Ubuntu Dialogue Corpus" -> "Ubuntu Dialogue Corpus": words before the name
    that say how known or public the data is are no part of it."""
    words = value.split(" ")
    vague = _generic() | word_list("vague_modifiers")
    while len(words) > 2 and words[0].lower() in vague:
        words.pop(0)
    return " ".join(words)


def data_run_on(paper_units: list[Unit]) -> list[Finding]:
    """The data a sentence of the paper's own says its experiments run on, as the sentence
    words it, without the determiner; one finding per such sentence."""
    found = []
    for unit in paper_units:
        if unit.kind == "table":
            continue
        for m in _DATA_RUN_ON.finditer(unit.text):
            if PLACEHOLDER_INSIDE.search(m.group("m")):
                continue  # "the X BIBREF4 dataset": the name alone is read in matrix_datasets
            if not (_describes(m.group("m")) or m.group("f")):
                continue
            if unit.text[m.end() :].lstrip().startswith(":"):
                continue  # "three dialogue datasets: A, B and C": the list names them
            score = USED_DATA_SCORE + section_bonus("default", unit)
            value = _without_generic(m.group("v"))
            found.append(Finding("datasets", value, unit.text, unit.page, unit.block_id,
                                 unit.section, score))  # fmt: skip
            break
    return found


# another work's result on its data: "[cite] compares models for three datasets, where the best
# has a score of 30.6 for X", "the work of [cite], who report gains on the X dataset"
_CITES = re.compile(r"\b(?:BIBREF\d+|et al\.)")
_RESULT = re.compile(
    r"\b(?:reports?|reported|shown|compares|achiev\w*|outperform\w*|scores?|performances?)\b",
    re.I,
)


def others_results_out(found: list[Finding]) -> list[Finding]:
    """The findings without those of a sentence that states another work's result (it cites,
    names no "we"/"our" and reports a result): that data is theirs, not the paper's."""
    return [
        f for f in found
        if not (
            _CITES.search(f.quote) and not FIRST_PERSON.search(f.quote) and _RESULT.search(f.quote)
        )
    ]  # fmt: skip
