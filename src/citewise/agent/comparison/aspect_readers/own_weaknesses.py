"""Weaknesses of the paper's own work that it reports where it weighs its results: "our
best system is slightly worse than the best published result", "we found that adding the
layer decreases the accuracy", "<the paper's method name> lags behind on ...".

The subject is the whole test: the clause that reports the unfavourable outcome
(agent/data/own_weaknesses.txt, [weakness_outcomes]) must name the paper's own work — the
first person, "the proposed", "this/the model" ([own_subjects]) or the name the paper gives its
method — before the outcome, with no system it compares with, no citation and no ablated
variant ("without the memory, ...") between; or, below those, a clause opening with a measure
of the work reported low ("the recall is rather low", `low_result`). A baseline's or a cited
work's weakness, a difficulty the paper's method remedies, a condition ("if the parser
fails, ...") are not the paper's. Read only where no limitation cue fills the cell.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    alternation,
    cites_others,
    clause_continues,
    clause_end,
    in_sections,
    listed,
    shorten,
    stems_alternation,
    word_list,
)
from citewise.agent.comparison.aspect_readers.method_name import method_name
from citewise.agent.comparison.aspect_readers.prose_limitations import about_cited, remedied
from citewise.agent.comparison.extraction import Finding, Unit

if TYPE_CHECKING:
    from citewise.agent.comparison.gazetteer import Gazetteer

WORDS = "own_weaknesses.txt"
OPENING_SHARE = 0.2  # the part of a paper where it sets out the gap, not its results
_OPENING = re.compile(r"\b(?:abstract|introduction|motivation|background|related)\b", re.I)
# where a clause starts: after a comma, a semicolon or a conjunction; ", which" goes on
_CLAUSE_START = re.compile(
    r"(?:[;]\s+|,\s+(?!which\b)|\s(?:but|although|though|while|whereas)\s+)", re.I
)
_BETWEEN_NOT = re.compile(r"\b(?:than|over|compared|unlike|versus|vs)\b", re.I)
# an ablated or reduced variant before the outcome: its drop shows the part's worth
_VARIANT = re.compile(
    r"\b(?:without(?! which)|w/o|remov\w+|ablat\w*|withhold\w*|dropping|excluding|"
    r"disabl\w+|replac\w+)\b",
    re.I,
)
# a word opening another clause between the subject and the outcome: the outcome is that
# clause's ("we observe that the compared network performs poorly"), or a case handled ("when
# the model wrongly predicts a rare tag, ...")
_NEW_CLAUSE = re.compile(
    r"\b(?:that|whether|how|where|which|if|when|whenever|unless|given)\b", re.I
)
_NEGATED = re.compile(r"\b(?:not|no|never)\s+$", re.I)  # "not only improves", "no lower"
_CASE = re.compile(r"\b(?:if|when|whenever|unless|given)\s+$", re.I)
FIRST_PERSON_REACH = 4  # words between a bare "we" and the outcome it is the subject of
WEAKNESS_SCORE = 1.0
CLOSING_WEIGHT = 0.5  # a weakness said where the paper discusses or closes
TRIED_PENALTY = 0.25  # a change the paper tried ("adding X decreases ...") below its system


def weakness_words(name: str) -> frozenset[str]:
    """One "[name]" list of agent/data/own_weaknesses.txt (WORDS_INVALID when missing)."""
    return listed(WORDS, name)


@cache
def _outcome() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{stems_alternation(weakness_words('weakness_outcomes'))})\b", re.I)


@cache
def _own() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{stems_alternation(weakness_words('own_subjects'))})\b", re.I)


@cache
def _others() -> re.Pattern[str]:
    return re.compile(
        rf"\b(?:{alternation('compared_systems')}|{alternation('remedy_verbs')})\b", re.I
    )


def _clause_start(text: str, at: int) -> int:
    starts = [c.end() for c in _CLAUSE_START.finditer(text, 0, at)]
    return starts[-1] if starts else 0


_WE = re.compile(r"we\b", re.I)


def _bracketed(text: str, at: int) -> bool:
    """Whether position `at` stands inside brackets ("(when misclassifications ...)")."""
    return text.rfind("(", 0, at) > text.rfind(")", 0, at)


# a clause whose subject is a gerund, after a first-person report of it at most: a change the
# paper tried on its own work
_GERUND = re.compile(
    r"\s*(?:we\s+(?:also\s+)?(?:find|found|observe|observed|see|saw|notice|noticed|note)\s+"
    r"that\s+)?(?P<g>[A-Za-z]+ing)\s+(?!that\b)",
    re.I,
)


def own_subject(clause: str, name: str | None, opens: bool = False) -> int | None:
    """Where the clause names the paper's own work (its last mention), or None; the name the
    paper gives its method counts, whole word, case kept."""
    spots = [m.start() for m in _own().finditer(clause)]
    g = (
        _GERUND.match(clause) if opens else None
    )  # "adding the layer decreases ...", "we found that using X ..."
    if g and g.group("g").lower() not in weakness_words("not_gerund_subjects"):
        spots.append(g.start("g"))
    if name:
        spots += [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", clause)]
    return max(spots) if spots else None


def reported_weakness(unit: Unit, name: str | None) -> tuple[int, int, bool] | None:
    """The span of the clause of `unit` reporting an unfavourable outcome of the paper's own
    work and whether its subject is a change the paper tried (a gerund), or None."""
    for m in _outcome().finditer(unit.text):
        start = _clause_start(unit.text, m.start())
        clause = unit.text[start : m.start()]
        opens = not unit.text[:start].strip() or unit.text[:start].rstrip().endswith(";")
        at = own_subject(clause, name, opens)  # a gerund opening a sentence, not ", leading to"
        if at is None or _bracketed(unit.text, m.start()) or _NEGATED.search(clause):
            continue
        if _VARIANT.search(clause) or _VARIANT.match(unit.text):  # "Without X, our ..."
            continue
        between = clause[at:]
        if _BETWEEN_NOT.search(between) or _others().search(between):
            continue
        if cites_others(unit.text[: m.start()]):  # "X [9] ..., although the model is poor"
            continue
        if _NEW_CLAUSE.search(between) or _CASE.search(clause, 0, at):
            continue
        if _WE.match(between) and len(between.split()) > FIRST_PERSON_REACH:
            continue  # "we conduct an analysis of the errors": "we" is no subject of the outcome
        end = clause_end(unit.text, m.end())
        if own_subject(unit.text[m.end() : end], name) is not None:
            continue  # "the model with X performs worse than the model with Y": a finding
        return start, end, not _own().match(clause, at) and clause[at:].split(" ")[0] != name
    return None


def weighs_work(unit: Unit, position: float) -> bool:
    """Whether the sentence stands where a paper reports or weighs its work: past its opening
    share and outside the abstract, introduction, related work and sections on others."""
    if position < OPENING_SHARE or unit.kind in ("caption", "footnote"):
        return False
    if _CAPTIONS.search(unit.section):
        return False
    if _OPENING.search(unit.section) or in_sections(unit.section, "others_sections"):
        return False
    return not set(re.findall(r"[a-z]+", unit.section.lower())) & word_list("compared_headings")


_CAPTIONS = re.compile(r"\bcaptions?\b", re.I)
# a paragraph opening with a footnote mark is a note to a table ("† The lower number ...")
_FOOTNOTE_MARK = re.compile(r"^\s*[†‡§¶*]")
_CLOSING = re.compile(r"\b(?:discussion|conclusions?|concluding|analysis|limitations?)\b", re.I)


def own_weaknesses(paper_units: list[Unit], title: str, gazetteer: Gazetteer) -> list[Finding]:
    """Each clause reporting a weakness of the paper's own work (see the module), scored
    higher where the paper discusses or closes; the name the paper gives its method
    (method_name.py, from its sentences and `title`; the gazetteer's datasets are no
    method's names) counts as its own."""
    data = gazetteer.names.get("datasets", set())
    named = method_name(paper_units, title, data)
    name = named.name if named else None
    found = []
    share = max(len(paper_units), 1)
    gaps = remedied(paper_units) | about_cited(paper_units)  # others' work, a gap remedied
    block, note = "", False
    for n, unit in enumerate(paper_units):
        if unit.block_id != block:
            block, note = unit.block_id, bool(_FOOTNOTE_MARK.match(unit.text))
        if unit.kind == "table" or n in gaps or note or not weighs_work(unit, n / share):
            continue
        span = reported_weakness(unit, name)
        if span is None:
            low = low_result(unit)  # "the results are not stable on the smaller set"
            span = (low[0], low[1], True) if low else None
        if span is None:
            continue
        value, was_cut = shorten(unit.text[span[0] : span[1]].strip(" ,"))
        if len(value.split()) < 4 or value not in unit.text:
            continue
        score = WEAKNESS_SCORE + (CLOSING_WEIGHT if _CLOSING.search(unit.section) else 0.0)
        score -= TRIED_PENALTY if span[2] else 0.0  # the system's own outcome before a change's
        cut = was_cut or clause_continues(unit.text, span[1])
        found.append(Finding("limitations", value, unit.text, unit.page, unit.block_id,
                             unit.section, score, cut))  # fmt: skip
    return found


# a sentence opening with a condition: what follows is a case ("When not using X, the precision
# is lower"), not the system's outcome
_CONDITION = re.compile(r"\s*(?:if|when|whenever|unless|once|after)\b", re.I)


@cache
def _low_result() -> re.Pattern[str]:
    """ "the results are quite low", "the overall performance is much lower": a measured outcome
    of the work as the clause's subject, a copula, at most one degree adverb, a low predicate."""
    nouns = stems_alternation(weakness_words("result_nouns"))
    adverb = rf"(?:(?:{stems_alternation(weakness_words('degree_adverbs'))})\s+)?"
    low = stems_alternation(weakness_words("low_predicates"))
    return re.compile(
        r"(?:(?:however|although|though|while|whereas|but|yet)\s*,?\s+)?"
        r"(?:we\s+(?:also\s+)?(?:see|saw|observe|observed|find|found|note|notice)\s+that\s+)?"
        rf"(?:the|these|first|overall)\s+(?:[\w-]+\s+)?(?:{nouns})\s+"
        rf"{adverb}(?:are|were|is|was|remains?|remained)\s+{adverb}(?:{low})\b",
        re.I,
    )


def low_result(unit: Unit) -> tuple[int, int] | None:
    """The span of a clause of `unit` that reports the work's measured outcome as low with
    no other subject ("the recall is rather low because ..."), or None: the subject a measure
    the clause opens with, not a compared system's, no condition, variant or citation before."""
    text = unit.text
    if _CONDITION.match(text) or _VARIANT.match(text):
        return None
    starts = [0] + [c.end() for c in _CLAUSE_START.finditer(text)]
    for start in starts:
        m = _low_result().match(text, start)
        if m is None or _others().search(m.group(0)) or _VARIANT.search(m.group(0)):
            continue
        if cites_others(text[: m.end()]) or _bracketed(text, m.start()):
            continue
        return start, clause_end(text, m.end())
    return None
