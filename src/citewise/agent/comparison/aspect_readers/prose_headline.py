"""Where a main-result cell's value starts: the paper's own finding with its number.

Readings of the sentences papers state their results in (besides prose_aspects.py's cues, which
allow an adverb between "we" and the finding verb, [finding_adverbs], and skip the field's state an
abstract opens with, `background`):

- a headline: where a paper sums up (abstract, conclusion), a sentence whose subject is the
  paper's own ("we", "our model", "the proposed") stating a measured number (a decimal or a
  percentage; not a collection's size, "1.5M tweets"), whatever its verb ("our method obtains
  improvements of more than 2% in F1", "we reduce its size by 40%"); the value starts at the
  clause that holds the number and must keep it;
- a main clause: a cue's clause that opens with a subordinate clause ("we show that by doing
  X, we obtain Y", "while A improves, B ...") and is too long for a cell starts after it;
- a reported finding: a sentence that first says what the paper did and then what it showed
  ("we collect a corpus of ... and find that the parser halves ...") states its finding after
  the last "and show(ed)/find(s) that"; where a paper sums up, also when the subject is said
  once before the first verb ("we compare X and find that Y", SECOND_VERB);
- a number past the cut: a summed-up finding cut before its clause's measured number weighs
  as the cell shows it, with the number;
- a novelty claim: where a paper sums up no finding, its claim that its own resource or system
  is the first or the largest of its kind (the word lists in agent/data/prose_results.txt).
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    MAX_CELL,
    alternation,
    cites_others,
    clause_continues,
    clause_end,
    in_sections,
    listed,
    shorten,
    stems_alternation,
)
from citewise.agent.comparison.extraction import Finding, Unit

# a value that points at a table or figure instead of stating a finding
POINTER = re.compile(r"\b(?:Tables?|Figures?|Fig\.|Sections?|Appendix|TABREF|FIGREF|SECREF)\b")
# a result that points where it is stated rather than stating it: besides the words above, the
# converter's numbered references written without them ("in algorithm SECREF12", "Fig FIGREF8",
# "§ SECREF2": 100 of 315 pool papers write one) and the sections around ("we show in the
# following sections that ...", "in the next subsection": 97 of 315)
_RESULT_POINTER = re.compile(
    r"(?:TABREF|FIGREF|SECREF)\d|\bSubsections?\b|"
    r"\b(?:following|next|previous|subsequent|later)\s+(?:sub)?sections?\b"
)


def points_at(aspect: str, value: str) -> bool:
    """Whether a task, method or main-result value points at a table, figure or section
    rather than stating the aspect (a main result also at the sections around it)."""
    if POINTER.search(value):
        return True
    return aspect == "main result" and _RESULT_POINTER.search(value) is not None


# after a result verb, its means rather than its size: "this is achieved by dropping ...",
# "improved by augmenting ..." (33 of 315 pool papers); "improves by 2.1 points" stays a finding
BY_MEANS = (
    r"(?!\s+by\s+(?![\d+$-]|(?:a|an|the|over|more|less|up|about|around|nearly|almost|roughly|"
    r"approximately|only|at)\b))"
)
# the first verb of a sentence whose subject says once what the paper did and what it found
# ("we compare X (...), and find that Y"): a clause of the first verb, then "and", no second
# subject; read only where a paper sums up (abstract, conclusion), for in a results section "we
# measured the outputs' lengths and found that they hold 40.1 words" reports a detail
SECOND_VERB = (
    r"(?P<did>[a-z]+\s+(?:[^.;:]|\.(?=\d)){0,160}?,?\s+and\s+(?:also\s+|then\s+)?"
    r"(?=(?:find|found|show|observe|demonstrat)))?"
)
_OWN_SUBJECT = re.compile(r"\b(?:we|our|the proposed)\b", re.I)
# "81.3", "7%": a measured number; not a year, not a size ("1.5 million tweets", "81.1M papers")
_MEASURED = re.compile(rf"\d\.\d+(?![\d.]|\s?(?:{alternation('count_scales')})\b)|\d\s?%", re.I)
_BREAK = re.compile(r",\s+(?!BIBREF)|\bthat\s+")
HEADLINE_SCORE = 3.0  # as the first result cue in its section: a summed-up finding with its number
MAX_LEAD = 70  # how far into a sentence its own subject may stand for the value to start there
# a clause that opens with a subordinator and the comma after it
_SUBORDINATE = re.compile(
    rf"^(?:{alternation('subordinators')})\b[^,]{{3,200}}?,\s+(?!BIBREF)", re.I
)


MEASURED_WEIGHT = 1.0  # what a measured number adds to a main result (matrix_cells.own_statements)


def number_past_cut(clause: str, value: str) -> float:
    """What a main-result value cut before the measured number its clause states weighs as
    the cell will show it (running on to the number, matrix_cells.whole_phrase): the measured
    weight the cut value lacks; 0 when it holds one or the clause states none."""
    if _MEASURED.search(value) or not _MEASURED.search(clause):
        return 0.0
    return MEASURED_WEIGHT


def said_once(m: re.Match[str], section: str) -> bool:
    """Whether a main-result cue matched a finding whose subject was said once before an
    earlier verb ("we compare X and find that Y") outside the sections that sum up."""
    groups = m.re.groupindex
    return (
        "did" in groups
        and m.group("did") is not None
        and not in_sections(section, "headline_sections")
    )


def headline(unit: Unit, early: float) -> Finding | None:
    """The sentence's own finding from the clause that states its measured number, when the
    sentence has an own subject and such a number; None otherwise. `early` is 1 at
    the paper's start, 0 at its end. The caller checks the section (abstract, conclusion)."""
    m = _OWN_SUBJECT.search(unit.text)
    if not m or cites_others(unit.text):
        return None
    end = clause_end(unit.text, m.end())
    # a long lead: the sentence whole, or its main clause after a subordinate one
    begin = m.start() if m.start() <= MAX_LEAD else main_clause(unit.text, 0, end)
    number = _MEASURED.search(unit.text, begin, end)
    if number and number.end() - begin > MAX_CELL:  # the cell would lose its number: start
        breaks = [b.end() for b in _BREAK.finditer(unit.text, begin, number.start())]
        begin = breaks[-1] if breaks else begin  # at the clause that states it
    clause = unit.text[begin:end]
    if not _MEASURED.search(clause) or points_at("main result", clause):
        return None
    value, was_cut = shorten(clause.strip(" ,"))
    if len(value.split()) < 3 or value not in unit.text or not _MEASURED.search(value):
        return None  # a cell too short to hold the number states no headline
    score = HEADLINE_SCORE + 0.5 * early
    return Finding("main result", value, unit.text, unit.page, unit.block_id, unit.section, score,
                   was_cut or clause_continues(unit.text, end))  # fmt: skip


def main_clause(text: str, start: int, end: int) -> int:
    """Where a main-result value starts: at its main clause when the clause from `start` to
    `end` opens with a subordinate clause and is too long to be a cell whole."""
    if end - start <= MAX_CELL:
        return start
    m = _SUBORDINATE.match(text[start:end])
    if not m or len(text[start + m.end() : end].split()) < 3:
        return start
    return start + m.end()


# "..., and show that": the finding a sentence reports after saying what the paper did
_REPORTED = re.compile(
    r"(?:,|\band)\s+(?:we\s+|it\s+|they\s+)?(?:also\s+)?(?:show|showed|shows|demonstrate|"
    r"demonstrated|demonstrates|find|found|finds|observe|observed|conclude|concluded|reveal|"
    r"revealed|reveals)\s+that\s+",
    re.I,
)


# a colon that ends a finding's clause and a statement after it: "our hypothesis is confirmed:
# X does not hold", "the method improves on both sets: the gains are 2.4 and 0.9 BLEU"
_COLON = re.compile(r":\s+(?=[^\s.;:])")
MIN_ELABORATION = 3  # words after the colon: "(precision: 0.79" is a label, not a statement


def past_colon(text: str, end: int) -> int:
    """Where a main-result clause ending at `end` stops when a colon there opens what the
    clause announces or how much it holds: at the end of the statement after the colon (of at
    least MIN_ELABORATION words); else `end` unchanged."""
    m = _COLON.match(text, end)
    if not m:
        return end
    stop = clause_end(text, m.end())
    if len(text[m.end() : stop].split()) < MIN_ELABORATION:
        return end
    return stop


def reported_finding(text: str, start: int, end: int) -> int:
    """Where a main-result value starts when its clause from `start` to `end` first says what
    the paper did and then, after "and show(ed) that", what it found: after the last such
    verb (when at least three words follow), else `start` unchanged."""
    found = [m.end() for m in _REPORTED.finditer(text, start, end)]
    if not found or len(text[found[-1] : end].split()) < 3:
        return start
    return found[-1]


# a paper speaking of its own work: "we", "our", "this paper", "here", "the proposed"
_OWN_VOICE = re.compile(
    r"\b(?:we|our|us|here|(?:this|the present|the current)\s+(?:paper|article|study|work|thesis|"
    r"review|proposal)|the proposed)\b|(?-i:\bI\b)",
    re.I,
)
_ABSTRACT = re.compile(r"^abstract\b", re.I)


def background(unit: Unit, voiced: bool) -> bool:
    """Whether an abstract's sentence is the background it opens with: it stands before the
    paper first speaks of its own work (`voiced`: it has) and does not itself ("Pretrained
    encoders now reach top scores on such tasks", "Hand-picking features leads to more work"):
    what the field found or needs, not the paper's finding."""
    return bool(_ABSTRACT.match(unit.section)) and not voiced and not _OWN_VOICE.search(unit.text)


def own_voice(unit: Unit) -> bool:
    """Whether an abstract's sentence speaks of the paper's own work (see `background`)."""
    return bool(_ABSTRACT.match(unit.section)) and _OWN_VOICE.search(unit.text) is not None


WORDS_FILE = "prose_results.txt"


@cache
def finding_words() -> str:
    """The [finding_words] of agent/data/prose_results.txt as a regex alternation, longest
    first ("similar*" a stem): what a result claims besides the [claim_words]."""
    return _alternation("finding_words")


@cache
def finding_adverbs() -> str:
    """The [finding_adverbs] of agent/data/prose_results.txt as a regex alternation: what may
    stand between a paper's subject and the verb reporting its finding ("we also find")."""
    return _alternation("finding_adverbs")


@cache
def _alternation(name: str) -> str:
    """One list of agent/data/prose_results.txt as a regex alternation, longest first."""
    return stems_alternation(listed(WORDS_FILE, name))


@cache
def _novelty() -> re.Pattern[str]:
    # "X is the first corpus of its kind for Welsh", "we release X, the largest public collection
    # of ...", "we describe the first tool that ...": what a paper claims for its resource ("our
    # study is a first step toward ..." claims none)
    return re.compile(
        r"(?:\b(?:is|are|was|were|be|as|present|introduce|release|describe)|,)\s+"
        rf"(?P<claim>(?:the|a)\s+(?:{_alternation('novelty_words')})\b(?!\s+steps?\b)[^.;:]{{0,80}}?"
        rf"\b(?:{_alternation('resource_nouns')})s?\b)",
        re.I,
    )


# the paper's own resource: not "the forum corpus is the largest of its kind" said of another's
_OWN_CLAIM = re.compile(r"\b(?:we|our|this|these)\b", re.I)
_KNOWLEDGE = re.compile(
    r"^(?:to\s+(?:the\s+best\s+of\s+)?our\s+knowledge|in\s+this\s+(?:paper|work)),?\s*", re.I
)
NOVELTY_SCORE = 2.0  # below a stated finding where the paper sums up, above none


def novelty_claim(unit: Unit, early: float) -> Finding | None:
    """A sentence claiming the paper's own resource or system is the first or the largest of
    its kind, from its subject (after "to our knowledge,"), or from the claim after a long lead;
    None when it claims none or the resource is another's. The caller checks the section."""
    m = _novelty().search(unit.text)
    if not m or not _OWN_CLAIM.search(unit.text, 0, m.end()) or cites_others(unit.text):
        return None
    lead = _KNOWLEDGE.match(unit.text)
    start = lead.end() if lead else 0
    if m.start() - start > MAX_LEAD:
        start = m.start("claim")
    value, was_cut = shorten(unit.text[start:].rstrip(" ."))
    if len(value.split()) < 3 or value not in unit.text or m.end("claim") > start + len(value):
        return None
    return Finding("main result", value, unit.text, unit.page, unit.block_id, unit.section,
                   NOVELTY_SCORE + 0.5 * early, was_cut)  # fmt: skip
