"""Datasets the way a reader finds them, beside the gazetteer's names
(agent/comparison/gazetteer.py).

- a list the paper introduces as its data: "we use two datasets: FIGER and BBN";
- a name a sentence opens with: "The DUC-2001 dataset ...";
- the data counted in what it holds (matrix_datasets_counted.py), below any name;
- a name of several capitalised words before a dataset word, the gazetteer holding none of it:
  "the Ubuntu Dialogue Corpus", "the Craigslist Bargaining dataset (CB)", "the “Fluent Speech
  Commands” dataset" (its acronym kept with it where the paper defines one);
- a dataset the paper introduces by name: "we present KelpSet, a new dataset of ...", "a new
  reef dataset, KelpSet";
- the data its experiments run on, described in words (matrix_datasets_used.py), a name it
  uses in a role ("we use X as the QG dataset"), a name before a split of its data ("the SNLI
  test set") and the named collection its data comes from ("the data comes from WMT 2014").
"""

from __future__ import annotations

import re
from dataclasses import replace

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    cites_others,
    in_data_section,
    word_list,
)
from citewise.agent.comparison.aspect_readers.matrix_datasets_counted import (
    COUNT,
    counted_findings,
)
from citewise.agent.comparison.aspect_readers.matrix_datasets_used import (
    data_run_on,
    drawn_from,
    names_after_data_word,
    names_before_split,
    used_as_data,
)
from citewise.agent.comparison.extraction import Finding, Unit, section_bonus
from citewise.agent.comparison.gazetteer import NAME, PLACEHOLDER, is_name, kinds_of_data

_DATA_WORD = r"(?:datasets?|data ?sets?|corpus|corpora|benchmarks?|treebanks?)"
COUNTED_HEAD = r"\b(?:two|three|four|five|six|several|following|\d+)\s+(?:[\w-]+\s+)?"
_LISTED = re.compile(rf"{COUNTED_HEAD}{_DATA_WORD}\s*:\s*(?P<v>[^.;]{{3,200}})", re.I)
_OPENS = re.compile(rf"^(?:The|Our)\s+(?P<v>{NAME})(?:\s+\(\w+\))?\s+{_DATA_WORD}\b")
_OWN_USE = re.compile(
    r"\b(?:we|our)\s+(?:\w+\s+){0,2}?(?:use|used|evaluate|evaluated|experiment|experimented|"
    r"train|trained|test|tested|adopt|chose|consider)\b",
    re.I,
)
_NAME_TOKEN = re.compile(NAME)

__all__ = [
    "dataset_findings",
    "is_source",
    "kinds_of_data",
    "in_data_sections",
    "long_forms",
    "longer_names",
    "named_data_first",
    "shared_task_data",
]

LISTED_SCORE = 2.5  # the paper's own list of its data outranks a name met in passing
NAMED_SCORE = 2.0


def dataset_findings(paper_units: list[Unit]) -> tuple[list[Finding], list[Finding]]:
    """(names, counted collections) beside the gazetteer's names, each verbatim in its
    sentence; a counted collection in a sentence citing others is their data, left out."""
    units_ = [u for u in paper_units if u.kind != "table"]
    found: list[Finding] = []
    for unit in units_:
        bonus = section_bonus("default", unit) + (1.0 if _OWN_USE.search(unit.text) else 0.0)
        m = _LISTED.search(unit.text)
        if m:
            for t in _NAME_TOKEN.finditer(m.group("v")):
                if is_name(t.group(), "datasets") and not PLACEHOLDER.match(t.group()):
                    found.append(_finding(unit, t.group(), LISTED_SCORE + bonus))
        m = _OPENS.search(unit.text)
        if m and is_name(m.group("v"), "datasets"):
            found.append(_finding(unit, m.group("v"), NAMED_SCORE + bonus))
        found += [_finding(unit, v, s + bonus) for v, s in _named_in_words(unit.text)]
    found += data_run_on(units_) + names_after_data_word(units_) + names_before_split(units_)
    found += drawn_from(units_)
    as_data, roles = used_as_data(units_)
    found = [f for f in found if not any(q == f.quote and f.value in r for q, r in roles)]
    return found + as_data, counted_findings(units_)


_ACRONYM = r"\((?:[A-Z][\w-]*[A-Z0-9][\w-]*)\)"  # "(CB)", "(MultiWOZ)", "(vSTS)"
_CITED = r"(?:\s*,?\s*\(?BIBREF\d+(?:\s*,\s*BIBREF\d+)*\)?)?"
_WORDS = rf"{NAME}(?:\s+{NAME}){{1,4}}"  # two to five capitalised words
_OPENER = r"(?:\b(?i:the|our|on|from|using|of|in|with|and)\s+)"
# "the Ubuntu Dialogue Corpus", "the Craigslist Bargaining dataset (CB)", "the General
# Language Understanding Evaluation (GLUE) benchmark", "the MS COCO BIBREF18 dataset"
_ANY_DATA_WORD = rf"(?i:{_DATA_WORD})"
_SEVERAL = re.compile(
    rf"{_OPENER}(?P<v>{_WORDS}(?:\s+{_ACRONYM})?){_CITED}\s+(?P<d>{_ANY_DATA_WORD})\b"
    rf"(?P<a>\s+{_ACRONYM})?"
)
_QUOTED = re.compile(rf"[“\"](?P<v>[A-Z][^”\"]{{2,40}})[”\"]{_CITED}\s+{_ANY_DATA_WORD}\b")
_LOWER_FIRST = r"[a-z]+[A-Z][A-Za-z0-9]*"  # "vSTS", "iNat": capitals after a lower-case start
# "we present KelpSet, a new dataset", "we introduce Reef Count (RC), a large corpus"
_INTRODUCES = re.compile(
    r"\b(?:introduc|present|releas|propos|creat|buil[dt]|construct|collect|call|nam)\w*\s+"
    rf"(?:it\s+)?(?P<v>(?:{NAME}|{_LOWER_FIRST})(?:\s+{NAME}){{0,4}}(?:\s+{_ACRONYM})?){_CITED}\s*,\s+"
    rf"an?\s+(?:[\w-]+\s+){{0,4}}?{_DATA_WORD}\b"
)
# "a new reef dataset, KelpSet", "a novel corpus, the “Reef Count” corpus"
_NEW_NAMED = re.compile(
    rf"\ban?\s+(?:new|novel)\s+(?:[\w-]+\s+){{0,3}}?{_DATA_WORD}\s*,\s+(?:the\s+)?[“\"]?"
    rf"(?P<v>{NAME}(?:\s+{NAME}){{0,4}})"
)
# a sentence that opens with a dataset and says what it is or holds: "SQuAD is a reading
# comprehension dataset", "20Newsgroup, which contains 18,845 emails"
_LEADING = rf"(?:\d+[A-Z][A-Za-z]*|{NAME})(?:\s+{NAME}){{0,3}}"
_DESCRIBED = re.compile(
    rf"^(?P<v>{_LEADING}){_CITED}\s*(?:is\s+an?\s+(?:[\w-]+\s+){{0,4}}?{_DATA_WORD}\b|"
    rf",?\s*(?:which\s+)?(?:contains|consists\s+of|comprises|includes|holds)\s+"
    rf"(?:about\s+|over\s+|around\s+|more\s+than\s+|nearly\s+)?(?:{COUNT})\s+[a-z])"
)
# a name set off by what it is: "we use Conceptual Captions [cite], a large-scale captioning
# dataset", "RACE, a challenging reading comprehension dataset" (~8% of pool papers)
_APPOSITIVE = re.compile(
    rf"(?<![\w-])(?P<v>(?:{NAME}|{_LOWER_FIRST})(?:\s+{NAME}){{0,3}}){_CITED}"
    r"(?:\s*\[\d+(?:\s*[,–-]\s*\d+)*\])?\s*,\s+an?\s+"
    rf"(?:[\w-]+\s+){{0,4}}?{_DATA_WORD}\b"
)
INTRODUCED_SCORE = 3.5  # the data a paper makes is its data, above a name its setup uses (3.0)


def _named_in_words(text: str) -> list[tuple[str, float]]:
    """(name, score) for the names of several words, quoted names and names a paper
    introduces its dataset by, as written; a capitalised data word is part of the name."""
    out = []
    for m in _SEVERAL.finditer(text):
        name = _without_openers(m.group("v"))
        if not _several_words_name(name, m.group("d")):
            continue
        if m.group("d")[0].isupper() or m.group("a"):  # "Ubuntu Dialogue Corpus", "... (CB)"
            name = text[m.start("v") + m.group("v").find(name) : m.end()]
        out.append((name, NAMED_SCORE))
    for m in _QUOTED.finditer(text):
        name = m.group("v").strip()
        if len(name.split()) > 1 or is_name(name, "datasets"):  # a "Test" set is no name
            out.append((name, NAMED_SCORE))
    described = _DESCRIBED.match(text)
    if described and described.group("v").split()[0].lower() not in word_list("name_openers"):
        name = _before_placeholder(described.group("v"))
        if len(name.split()) > 1 or is_name(name, "datasets") or name[0].isdigit():
            out.append((name, NAMED_SCORE))
    for pattern in (_INTRODUCES, _NEW_NAMED):
        for m in pattern.finditer(text):
            name = _without_openers(m.group("v"))
            first = name.split()[0] if name else ""
            if first and (
                is_name(first, "datasets") or len(name.split()) > 1 or first[0].islower()
            ):
                out.append((name, INTRODUCED_SCORE))
    named = {n for n, _ in out}  # an introduced name is not read twice
    for m in _APPOSITIVE.finditer(text):
        name = _without_openers(m.group("v"))
        if PLACEHOLDER.match(name.split()[-1] if name else "") and _OWN_USE.search(text):
            name = _before_placeholder(name)  # "we use Kelp BIBREF2 , a ... dataset"
        if (
            name
            and name not in named
            and not PLACEHOLDER.match(name.split()[-1])
            and (len(name.split()) > 1 or is_name(name, "datasets") or name[0].islower())
        ):
            out.append((name, NAMED_SCORE))
    return out


def _several_words_name(name: str, data_word: str) -> bool:
    """Two or more words, none a sentence word ("HIGH SES IN EACH"), before a data word
    that is not a heading's capitalised plural ("Large-Scale Chinese Datasets")."""
    words = name.split()
    if len(words) < 2 or PLACEHOLDER.match(words[-1]):
        return False
    if any(w.lower() in word_list("name_openers") for w in words):
        return False
    plural = data_word.lower() in ("datasets", "data sets", "corpora", "benchmarks", "treebanks")
    return not (data_word[0].isupper() and (data_word.isupper() or plural))


def _before_placeholder(words: str) -> str:
    """ "MS COCO BIBREF18" -> "MS COCO": a converted citation ends the name."""
    tokens = words.split(" ")
    cut = next((i for i, t in enumerate(tokens) if PLACEHOLDER.match(t)), len(tokens))
    return " ".join(tokens[:cut])


def _without_openers(words: str) -> str:
    """ "The Penn Treebank" -> "Penn Treebank": sentence words before a name are not part of it."""
    tokens = words.split(" ")
    while tokens and tokens[0].lower() in word_list("name_openers"):
        tokens.pop(0)
    return " ".join(tokens)


DATA_SECTION_BONUS = 1.0  # a name under "Datasets", "4.1 Data": where a paper names its data


def in_data_sections(found: list[Finding]) -> list[Finding]:
    """Findings under a heading about the paper's data ("Datasets", "Data Collection",
    "Experiments > Corpus": agent/data/matrix_cells.txt) scored up by `DATA_SECTION_BONUS`."""
    return [
        replace(f, score=f.score + DATA_SECTION_BONUS) if in_data_section(f.section) else f
        for f in found
    ]


LONGER_NAME_WORDS = 5  # a longer name, not a phrase describing the data


def longer_names(found: list[Finding]) -> list[Finding]:
    """Each finding whose value the paper also writes as part of a longer name ("Conceptual"
    of "Conceptual Captions", "Caption" of "Caption-Quality") replaced, at its own score, by
    the best finding of that longer name: `best_distinct` keeps one of two values where one
    holds the other, and the shorter one, met first or scored higher, kept the full name out
    of the cell. A name of at most `LONGER_NAME_WORDS` words, without a converter placeholder."""
    names = [
        g for g in found
        if len(g.value.split()) <= LONGER_NAME_WORDS and g.value[:1].isupper()
        and not _PLACEHOLDER_INSIDE.search(g.value)
    ]  # fmt: skip
    out = []
    for f in found:
        low = f.value.lower()
        longer = [
            g for g in names if len(g.value) > len(f.value) and _as_words(g.value.lower(), low)
        ]
        if longer:
            g = max(longer, key=lambda g: g.score)
            f = replace(g, score=f.score)
        out.append(f)
    return out


_PLACEHOLDER_INSIDE = re.compile(r"(?:REF|FORM)\d")


def _as_words(text: str, part: str) -> bool:
    """Whether `part` stands in `text` as whole words ("caption" in "caption-quality")."""
    return re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text) is not None


def long_forms(found: list[Finding]) -> list[Finding]:
    """A name written with its acronym ("Craigslist Bargaining dataset (CB)") scored as the
    best sentence that uses the acronym alone, so the cell shows the name a reader knows."""
    best: dict[str, float] = {}
    for f in found:
        best[f.value] = max(best.get(f.value, f.score), f.score)
    out = []
    for f in found:
        acronyms = re.findall(r"\(([^()]+)\)", f.value)
        used = max((best[a] for a in acronyms if a in best), default=None)
        out.append(replace(f, score=used + 0.01) if used is not None and used >= f.score else f)
    return out


# a paper of a shared task uses the task's data: "the datasets provided for the shared task",
# "the training data published by the organisers" (~2.5% of pool papers)
_PROVIDED = re.compile(
    r"\b(?:data|datasets?|data sets?|corpus|corpora)\s+(?:\w+\s+){0,2}(?:provided|released|"
    r"published|distributed|made available)\s+(?:by|for|to)\s+(?:the\s+)?(?:\w+\s+){0,4}?"
    r"(?:organi[sz]ers|shared task|task|challenge|competition)\b",
    re.I,
)
_TASK_NAME = re.compile(
    rf"(?P<v>(?:{NAME}(?:[- ]\d{{4}})?\s+){{1,4}}(?:[Ss]hared\s+)?Task(?:\s+\d+)?)"
)


def shared_task_data(paper_units: list[Unit]) -> list[Finding]:
    """The shared task whose data the paper says it uses, named as the paper names the task
    ("the WASSA-2017 Shared Task"), in the paper's own sentence that names it."""
    units_ = [u for u in paper_units if u.kind != "table"]
    if not any(_PROVIDED.search(u.text) for u in units_):
        return []
    for unit in units_:
        m = _TASK_NAME.search(unit.text)
        if m and not cites_others(unit.text) and m.group("v").split()[0] not in ("The", "This"):
            return [_finding(unit, m.group("v"), NAMED_SCORE + section_bonus("default", unit))]
    return []


_PARTS = re.compile(r"[-\s_/]+")


def is_source(value: str) -> bool:
    """Whether a value names where data comes from rather than a dataset: a platform or
    company ("Twitter", "Google"), a language ("Arabic"), a country ("US"), or a pair of them
    ("En-Vi", "English-German", a translation direction), with a year or number ("Icelandic
    2018"; a platform with a year, "Yelp 2013", is that year's dataset); words in
    agent/data/matrix_cells.txt."""
    sources = word_list("data_sources")
    low = value.lower().strip()
    if low in sources:
        return True
    parts = [p for p in _PARTS.split(low) if p and not p.isdigit()]  # "Icelandic 2018"
    kinds = sources | word_list("language_codes")
    if _YEAR.search(low) and not any(p in word_list("language_names") for p in parts):
        return False  # "Yelp 2013": a year's edition of a platform's data names a dataset
    return bool(parts) and all(p in kinds for p in parts) and (len(parts) > 1 or low != parts[0])


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def named_data_first(found: list[Finding]) -> list[Finding]:
    """The findings that name data, without the sources ("Twitter", "Arabic"), when any
    does; the sources themselves when the paper names nothing better."""
    named = [f for f in found if not is_source(f.value)]
    return named or found


def _finding(unit: Unit, value: str, score: float) -> Finding:
    return Finding("datasets", value, unit.text, unit.page, unit.block_id, unit.section, score)
