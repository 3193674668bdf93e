"""The data a paper counts as its own, for the datasets cell (below any name) and the
`dataset size` column (data_facts.py):

- the data counted in what it holds, where the paper collects or uses it: "we gathered 371,264
  tweets", "we constructed 250 sentences" (the nouns in agent/data/matrix_cells.txt), never a
  random sample of it ("a random sample of 200 tweets was checked by hand");
- what its dataset holds, whatever it counts: "Our dataset contains more than 40M user click
  sessions", "This training set contained 12,000 reports", or holds in total ("with a total of
  5,415 sentences");
- the authors' own count where the sentence cites its source ("we gathered N tweets using the
  API [cite]"); never a number a closed-class word follows ("15 for dialogues");
- for the size column only, what a named dataset a sentence opens with holds ("FEVER ...
  contains around 185k claims", `named_counts`).
"""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_cells import cites_others, word_list
from citewise.agent.comparison.extraction import WE_OR_OUR, Finding, Unit, section_bonus
from citewise.agent.comparison.gazetteer import NAME, PLACEHOLDER, is_name

__all__ = ["COUNT", "COUNTED_SCORE", "NUMBERING", "counted_findings", "named_counts"]

COUNTED_SCORE = 0.6  # below any name: a counted collection fills a cell no name fills
_COLLECTS = re.compile(
    r"\b(?:gathered|collected|crawled|downloaded|constructed|created|annotated|labell?ed|compiled|"
    r"sampled|extracted|recorded|obtained|use|used|using|consists?|contains?|comprises?)\b",
    re.I,
)
# whose data a count is: the authors' ("we gathered ...") or a section about the data
# a heading's numbering: "4.1 ", "IV. " (not the "I" of "Image captioning dataset")
NUMBERING = r"(?:(?:\d+(?:\.\d+)*\.?|[IVX]+\.?)\s+)?"
_DATA_SECTION = re.compile(
    r"^" + NUMBERING + r"(?:[\w-]+\s+){0,2}?(?:data(?:\s*sets?)?|datasets?|corpus|corpora)"
    r"(?:\s+(?:collection|description|statistics|preparation))?$",
    re.I,
)
# "Fig. 4 All utterances ...": the number of a figure, table or section, no count
_NUMBERED = re.compile(r"\b(?:fig|figure|table|section|sec|eq|equation|appendix)\.?\s*$", re.I)
# a count drawn at random from the data is a sample of it ("a random sample of 200 tweets was
# checked by hand", "we randomly selected 150 problems"; ~10% of pool papers)
_SAMPLE_OF = re.compile(
    r"\b(?:randomly\s+(?:sampled|selected|chose|chosen|picked|drew|drawn)\s+(?:\w+\s+)?|"
    r"random\s+(?:sub)?samples?\s+of\s+)$",
    re.I,
)  # "we randomly collected 200 articles" is the collection itself
COUNT = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s?[kKMB]\b|\d+"
# "we gathered 371,264 tweets using the Streaming API [cite]", "For en-de, we use 17.6M sentence
# pairs from the WMT19 datasets [cite]": the authors' own count in a sentence that cites the
# tool or source they drew it from (~2.5% of pool papers)
_WE_COLLECTED = re.compile(
    r"\bwe\s+(?:\w+\s+)?(?:gathered|collected|crawled|downloaded|constructed|created|annotated|"
    r"labell?ed|compiled|extracted|recorded|obtained|use|used)\s+(?:about\s+|over\s+|around\s+|"
    r"more\s+than\s+|nearly\s+|approximately\s+|a\s+total\s+of\s+)?$",
    re.I,
)


def counted_findings(units: list[Unit]) -> list[Finding]:
    """The counted collections of the paper's own sentences (tables left to the caller), each
    verbatim in its sentence; a count in a sentence citing others is their data, left out."""
    nouns = "|".join(re.escape(n) for n in sorted(word_list("data_units"), key=len, reverse=True))
    counted = re.compile(
        rf"(?<![\w.,])(?P<v>(?:{COUNT})\s+(?:[A-Za-z][\w-]*\s+){{0,3}}?(?:{nouns}))\b", re.I
    )
    counts = []
    for unit in units:
        heading = unit.section.split(" > ")[-1]
        ours = WE_OR_OUR.search(unit.text) or _DATA_SECTION.search(heading)
        cited = cites_others(unit.text)
        totals = ours or _TOTAL.search(unit.text)
        if totals and (_COLLECTS.search(unit.text) or _TOTAL.search(unit.text)):
            for m in counted.finditer(unit.text):
                before = unit.text[: m.start("v")]
                if not (ours and _COLLECTS.search(unit.text)) and not _TOTAL.search(before):
                    continue  # a total stated without "we": only the total itself
                if cited and not _WE_COLLECTED.search(before):
                    continue  # their data, unless "we" collected or used the count itself
                if _NUMBERED.search(before) or _SAMPLE_OF.search(before):
                    continue
                if _counts_no_noun(m.group("v")):
                    continue
                score = COUNTED_SCORE + section_bonus("default", unit)
                counts.append(_finding(unit, m.group("v"), score))
        held = _held_count(unit.text)
        if held and (not cites_others(unit.text) or _OWN_HELD.search(unit.text)):
            counts.append(_finding(unit, held, COUNTED_SCORE))  # below a name in its section
    return counts


# "with a total of 5,415 sentences", "There is a total of 412 pairs": a total the data holds is
# its size, with or without "we" ("asked to pronounce a total of 10 sentences" is no holding)
_TOTAL = re.compile(
    r"\b(?:with|contains?|containing|comprising|comprises?|consists?\s+of|has|have|had|there\s+"
    r"(?:is|are|was|were))\s+(?:a|in)\s+total\s+of\s+(?:$|\d)",
    re.I,
)


def _counts_no_noun(value: str) -> bool:
    """ "15 for dialogues", "7 of the tweets": a closed-class word right after the number
    says the number counts something else (a length, a share), not the nouns after it."""
    words = value.split()
    return len(words) > 2 and words[1].lower() in word_list("dangling")


# what the paper's dataset holds, whatever it counts: "Our dataset contains more than 40M user
# click sessions", "The corpus consists of 2,000 sentence pairs", "This training set contained
# 12,000 reports", "The created dataset is made of 1,600 dialogues" (~20% of pool papers)
_HOLDS = re.compile(
    r"\b(?:our|the|this)\s+(?P<w>[\w-]+\s+)?(?:dataset|data set|corpus|data|training set|"
    r"training data)\s+(?:contain(?:s|ed)|consists?\s+of|consisted\s+of|comprise[sd]|"
    r"include[sd]|has|had|(?:is|was)\s+made\s+(?:up\s+)?of)\s+"
    r"(?:about\s+|over\s+|around\s+|more\s+than\s+|"
    r"nearly\s+|approximately\s+|roughly\s+|a\s+total\s+of\s+)?"
    rf"(?P<v>(?:{COUNT})\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,3}})",
    re.I,
)


# "The dataset contains 2,000 tuples collected by [cite]", "Our training data consist of 64M
# segments [cite]": the paper's data, whoever collected it (no other dataset's name before it)
_OWN_HELD = re.compile(
    _HOLDS.pattern.replace("(?P<w>[\\w-]+\\s+)?", "(?:(?-i:[a-z])[\\w-]*\\s+)?"), re.I
)


# what a dataset the sentence opens with holds: "FEVER is the largest dataset and contains around
# 185k claims", "Fakeddit consists of 825,100 total submissions" (~7% of pool papers)
_NAMED_HOLDS = re.compile(
    rf"^(?:The\s+)?(?P<n>{NAME}(?:\s+{NAME}){{0,3}})(?:\s+(?i:dataset|data set|corpus|treebank))?"
    r"(?:\s*,?\s*which|\s+(?:is|was)\s+[^.,;]{3,60}?\s+and)?\s+(?:contains|consists\s+of|"
    r"comprises|includes|holds)\s+(?:about\s+|over\s+|around\s+|more\s+than\s+|nearly\s+|"
    rf"approximately\s+|roughly\s+|a\s+total\s+of\s+)?(?P<v>(?:{COUNT})\s+[a-z][\w-]*"
    r"(?:\s+[a-z][\w-]*){0,3})"
)


_HOLD_VERB = re.compile(r"\b(?:contains|consists|comprises|includes|holds)\b")


def _named_count(text: str) -> str:
    """What a named dataset the sentence opens with holds ("185k claims"), "" for none."""
    m = _NAMED_HOLDS.search(text) if _HOLD_VERB.search(text) else None
    if not m:
        return ""
    first = m.group("n").split()[0].lower()
    if first in word_list("name_openers") | word_list("subordinators"):
        return ""  # "Whereas AI2D includes 17 classes": a clause's opener, no dataset
    return _counted_words(m.group("v")) if is_name(m.group("n").split()[0], "datasets") else ""


def named_counts(units: list[Unit]) -> list[Finding]:
    """What a named dataset holds, where a sentence opens with it ("FEVER ... contains around
    185k claims"), for the size column only: the datasets cell has the name itself."""
    found = []
    for unit in units:
        named = _named_count(unit.text) if not _held_count(unit.text) else ""
        if named:
            found.append(_finding(unit, named, COUNTED_SCORE))
    return found


def _held_count(text: str) -> str:
    """The count and the words it counts, up to a closed-class word ("of", "which") or a
    participle ("collected"): "40M user click sessions"; "" when the sentence says none."""
    m = _HOLDS.search(text)
    return _counted_words(m.group("v")) if m else ""


def _counted_words(value: str) -> str:
    words = value.split(" ")
    kept = words[:2]
    for w in words[2:]:
        if w.lower() in word_list("dangling") or w.endswith(("ed", "ly")) or PLACEHOLDER.match(w):
            break  # "1 million INLINEFORM0 triples": a formula ends what the sentence counts
        kept.append(w)
    while len(kept) > 2 and kept[-1].lower() in word_list("dangling"):
        kept.pop()
    if len(kept) == 2 and kept[1].lower() in word_list("count_scales"):
        return ""  # "1 million": a number without what it counts
    return " ".join(kept) if kept[1].lower() not in word_list("dangling") else ""


def _finding(unit: Unit, value: str, score: float) -> Finding:
    return Finding("datasets", value, unit.text, unit.page, unit.block_id, unit.section, score)
