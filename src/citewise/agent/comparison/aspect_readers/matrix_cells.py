"""What makes a matrix or compare cell one a reader can hand in.

A cell is a whole phrase of its quote: a span that stops inside a word is completed to the
word's end, and a value too long for a cell is cut at a clause boundary (else a word
boundary), never after a dangling "and"/"of", and marked with an ellipsis. The word lists
live in agent/data/matrix_cells.txt.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import cache

from citewise.agent.comparison.extraction import Finding, readable
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import HINT, read_lists
from citewise.errors import CitewiseError

WORDS_FILE = "matrix_cells.txt"
MAX_CELL = 110
# where a clause may end inside a long value: after a comma, semicolon, dash or before a bracket
_CLAUSE_BREAK = re.compile(r",\s|;\s|\s[—–-]\s|\s\(")
# an acronym the words before it define: a cut keeps it with them ("... Unit Discovery (AUD)")
_ACRONYM_BRACKET = re.compile(r"\s\([A-Za-z0-9-]?[A-Z][A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*\)")
_WORD = re.compile(r"\w")


def word_list(name: str) -> frozenset[str]:
    """One "[name]" list of the data file, lower case; a list without provenance is an error."""
    return listed(WORDS_FILE, name)


@cache
def listed(file: str, name: str) -> frozenset[str]:
    """One "[name]" list of agent/data/<file>, lower case; a list missing, empty or without its
    provenance line is an error (WORDS_INVALID)."""
    lists, sourced = read_lists(shipped_text(file))
    words = frozenset(line.lower() for line in lists.get(name, []))
    if not words or name not in sourced:
        raise CitewiseError(
            f"{file}: the list [{name}] is missing or lacks a '# from:' line",
            hint=HINT,
            code="WORDS_INVALID",
        )
    return words


def alternation(name: str) -> str:
    """The "[name]" list of the data file as a regex alternation, longest first; an entry
    ending in "*" is a stem ("improv*" matches "improved", "improvements")."""
    return stems_alternation(word_list(name))


def stems_alternation(words: Iterable[str]) -> str:
    """Words as a regex alternation, longest first; a word ending in "*" is a stem."""
    return "|".join(
        re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w)
        for w in sorted(words, key=len, reverse=True)
    )


def complete_word(text: str, end: int) -> int:
    """The end of the word `end` falls inside (unchanged when it falls between words)."""
    while 0 < end < len(text) and _WORD.match(text[end - 1]) and _WORD.match(text[end]):
        end += 1
    return end


def _drop_dangling(value: str) -> str:
    dangling = word_list("dangling")
    words = value.split(" ")
    while len(words) > 1 and words[-1].lower().strip(",;:(") in dangling:
        words.pop()
    return " ".join(words).rstrip(" ,;:—–-(")


def shorten(
    value: str, limit: int = MAX_CELL, keep: tuple[int, int] | None = None
) -> tuple[str, bool]:
    """`value` within `limit` characters, cut at the last clause boundary in its second half,
    else at the last word boundary; True when something was cut off. `keep` is the span of
    what made the value worth a cell (a cue, a measured number): a cut never drops it, the
    value then running to the end of the clause that holds it (at most `KEEP_LIMIT`); the
    converter's placeholders count for nothing (`readable`)."""
    limit += _hidden(value, limit)
    if len(value) <= limit:
        return value, False
    kept = keep[1] if keep is not None and keep[1] <= KEEP_LIMIT else 0
    if kept:  # the clause that holds it, else the longest cell that does
        short, was_cut = _cut_after(value, kept)
        if len(short) <= KEEP_LIMIT:
            return short, was_cut
        limit = KEEP_LIMIT
    head = value[: limit + 1]
    lowest = max(limit // 2, kept)
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(head) if m.start() >= lowest]
    if breaks:
        short = value[: _past_acronym(value, breaks[-1])]
    elif " " in head[kept:]:
        short = head[: head.rfind(" ")]
    else:
        short = head[:limit]
    return _drop_dangling(short.rstrip(" ,;:")), True


KEEP_LIMIT = 2 * MAX_CELL  # how long a cell may grow to keep what it was chosen for


def _hidden(value: str, limit: int) -> int:
    """How many characters of the value's first `limit` a cell does not show (the converter's
    placeholders, `readable`): a cut counts the characters a reader sees."""
    hidden = 0
    for _ in range(3):
        head = value[: limit + hidden]
        now = len(head) - len(readable(head))
        if now <= hidden:
            break
        hidden = now
    return hidden


def _cut_after(value: str, end: int) -> tuple[str, bool]:
    """`value` up to the first clause boundary at or after `end`, else whole."""
    m = _CLAUSE_BREAK.search(value, end)
    while m is not None and _past_acronym(value, m.start()) > m.start():
        m = _CLAUSE_BREAK.search(value, _past_acronym(value, m.start()))
    if m is None:
        return value, False
    return _drop_dangling(value[: m.start()].rstrip(" ,;:")), True


def _past_acronym(value: str, at: int) -> int:
    """Where a cut at `at` ends: past the bracketed acronym standing there, else at `at`."""
    m = _ACRONYM_BRACKET.match(value, at)
    return m.end() if m and len(m.group()) <= 16 else at


@cache
def _reasons() -> dict[str, re.Pattern[str]]:
    """Per column, what makes a sentence its cell: a limitations cue, a measured number."""
    return {
        "limitations": re.compile(rf"\b(?:{alternation('limitation_reasons')})", re.I),
        "main result": _MEASURED,
        # "by 4.7 points" is a margin, not a means
        "method": re.compile(rf"\b(?:{alternation('means_after_cut')})\b(?!\s*\d)", re.I),
    }


# columns whose reason is looked for in the rest of the clause even when the value holds one:
# a method cell's "a model that uses X" still wants the "by Y" that says how it works
_LATER_REASON = frozenset({"method"})


def whole_phrase(finding: Finding, limit: int = MAX_CELL) -> Finding:
    """The finding's value as a cell: whole words of its quote, at most `limit` characters,
    `cut` set when the value stops short of its clause. A value cut before what made its
    sentence the column's cell (a future-work cue, a measured number: `_reasons`) runs on
    to the end of the clause that holds it."""
    start = word_start(finding.quote, finding.value)
    if start < 0:
        return finding
    end = complete_word(finding.quote, start + len(finding.value))
    start, end = balanced(finding.quote, start, end)
    value = finding.quote[start:end]
    keep = _lost_reason(finding, start, end)
    if keep is not None:
        value = finding.quote[start : clause_end(finding.quote, end)].rstrip(" ,")
    short, was_cut = shorten(value, limit, keep)
    at = finding.quote.find(short, start)
    short, ends_short = whole_end(short, finding.quote[at + len(short) :] if at >= 0 else "")
    was_cut = was_cut or ends_short
    if not short or short not in finding.quote:
        return finding
    if short == finding.value and not was_cut:
        return finding
    cut = (finding.cut and keep is None) or was_cut
    return replace(finding, value=short, cut=cut)


# an opening bracket whose first few characters end the value: "strategies (i", "attributes (e"
_OPEN_END = re.compile(r"\s\(\s*[\w.]{0,3}$")
# a one-letter word ending the value where the quote goes on with a point: an abbreviation's
_LETTER_END = re.compile(r"[\s(,]*\b[a-z]$")
_ABBREVIATION_GOES_ON = re.compile(r"\.[a-z]\.")
# citation placeholders ending the value ("described in BIBREF9"): a cell shows none of them
_CITED_END = re.compile(r"(?:\s*[,;]?\s*\bBIBREF\d+)+\s*[.,;]?$")


def whole_end(value: str, following: str = "") -> tuple[str, bool]:
    """`value` without an end a reader cannot take whole: an "e.g." or "i.e.", a bracket it
    opens and barely begins, the first letter of an abbreviation the `following` text goes on
    with ("models, e" of "models, e.g."), or the dangling "in"/"by" a citation placeholder
    leaves once the cell drops it (`readable`); True when something was cut off."""
    last = value.rsplit(" ", 1)[-1].lower().strip(",;:(")
    if "." in last and last in word_list("dangling"):  # "e.g.", "i.e.": an example to come
        return _drop_dangling(value), True
    cut = _OPEN_END.search(value)
    if cut is None and _ABBREVIATION_GOES_ON.match(following):  # "attributes, e" of "e.g."
        cut = _LETTER_END.search(value)
    if cut is None:
        cut = _CITED_END.search(value)
        if cut is None or _drop_dangling(value[: cut.start()]) == value[: cut.start()].rstrip():
            return value, False
    return _drop_dangling(value[: cut.start()].rstrip(" ,;:")), True


def _lost_reason(finding: Finding, start: int, end: int) -> tuple[int, int] | None:
    """Where the reason the value was chosen stands (relative to `start`) when a cut left it
    out: it is in the rest of the value's clause and not in the value; else None."""
    reason = _reasons().get(finding.aspect)
    if reason is None or not finding.cut:
        return None
    if finding.aspect not in _LATER_REASON and reason.search(finding.quote, start, end):
        return None
    m = reason.search(finding.quote, end, clause_end(finding.quote, end))
    return (m.start() - start, m.end() - start) if m else None


def word_start(text: str, value: str) -> int:
    """Where `value` stands in `text` as words of its own: its first place that does not open
    inside a longer word ("two" in "a network of two layers" is the later one); the first
    place when every place does (-1 when it is absent)."""
    first = text.find(value)
    at = first
    while at > 0 and value[:1].isalnum() and text[at - 1].isalnum():
        at = text.find(value, at + 1)
    return first if at < 0 else at


_NEAR = 40  # how far a bracket the value opens or closes may be looked for


def balanced(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened so its brackets pair: "MAE) and Root Mean Square Error (RMSE" becomes
    "Mean Absolute Error (MAE) and Root Mean Square Error (RMSE)", the capitalised words
    before an opening bracket taken with it; unchanged where no near bracket pairs it."""
    value = text[start:end]
    depth = 0
    for ch in value:
        depth += ch == "("
        if ch == ")":
            if depth == 0:  # closes a bracket opened before the span
                opened = text.rfind("(", max(0, start - _NEAR), start)
                if opened < 0:
                    return start, end
                start = _capitalised_before(text, opened)
            else:
                depth -= 1
    if depth > 0:
        closes = text.find(")", end, end + _NEAR)
        if closes >= 0:
            end = closes + 1
    return start, end


def _capitalised_before(text: str, bracket: int) -> int:
    """Where the run of capitalised words ending just before `bracket` starts."""
    words = list(re.finditer(r"\S+", text[:bracket]))
    start = bracket
    for w in reversed(words[-6:]):
        if not w.group()[:1].isupper():
            break
        start = w.start()
    return start


_CLAUSE_END = re.compile(r"[;:!?]|\.(?!\d)")


def clause_end(text: str, end: int) -> int:
    """Where the clause running through `end` stops: its next stop (".", ";", ":"; not the
    point of "81.1") or the end of the text."""
    m = _CLAUSE_END.search(text, end)
    return m.start() if m else len(text)


def clause_continues(text: str, end: int) -> bool:
    """Whether the clause goes on after `end` (no punctuation or end of text follows)."""
    rest = text[end:].lstrip()
    return bool(rest) and rest[0] not in ".;:,!?)]"


# a citation marker inside a sentence: "Smith et al.", "[3]", "[4, 7-9]", "(Lee and Kim, 2019;",
# or the BIBREF placeholders of papers converted from LaTeX
_CITATION = re.compile(
    r"\bet al\b|\[\d+(?:\s*[,–-]\s*\d+)*\]|\bBIBREF\d+|"
    r"\(\s*[A-Z][A-Za-z'-]+(?:\s+(?:and|&)\s+[A-Z][A-Za-z'-]+)?,?\s+(?:19|20)\d{2}[a-z]?\s*[;),]"
)
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*|[IVXivx]+)[.)]?\s+")
_MEASURED = re.compile(r"\d\.\d|\d\s?%")  # "81.3", "7%": a measured number, not a year
CITING_PENALTY = 1.5  # a sentence citing others still fills a cell no own sentence fills
# the names a paper works with: "we use X [cite]" cites X's source and is still the paper's own
# statement of its data or metric (a method cell quoting it would be a borrowed component)
USED_NAMES = ("datasets", "metrics")


def cites_others(text: str) -> bool:
    return bool(_CITATION.search(text))


@cache
def _own_use() -> re.Pattern[str]:
    verbs = alternation("own_use_verbs")
    # "we use", "we also evaluate on"; "our models are trained on"
    return re.compile(
        rf"\bwe\s+(?:\w+\s+){{0,2}}?(?:{verbs})\b|"
        rf"\bour\s+\w+\s+(?:is|are|was|were)\s+(?:\w+\s+)?(?:{verbs})\b",
        re.I,
    )


_NAMES_DATA = re.compile(
    r"\b(?:data|datasets?|data ?sets?|corpus|corpora|benchmarks?|treebanks?)\b", re.I
)


def _uses_named(aspect: str, quote: str) -> bool:
    """A citing sentence that is still the paper's own statement of its data or metric: its
    own use of it, and for data a sentence about data ("we use the standard X evaluation
    procedure [cite]" states no data)."""
    if aspect not in USED_NAMES or not own_use(quote):
        return False
    return aspect != "datasets" or bool(_NAMES_DATA.search(quote))


def own_use(text: str) -> bool:
    """Whether the sentence says what the paper itself works with: "we use the X corpus
    [cite]", "our models are trained on Y BIBREF3" (a citation there names X's source)."""
    return bool(_own_use().search(text))


# A heading about others' work is short ("Related Work", "Motivation and Background"): of the
# QASPER pool's 220 headings naming such a section, the 4 longer than five words were a title
# or a section about the paper's own results ("Comparison of results with previous work").
OTHERS_HEADING_WORDS = 5
DATA_HEADING_WORDS = 4


def in_data_section(section_path: str) -> bool:
    """Whether a heading of the path is about the paper's data: at most `DATA_HEADING_WORDS`
    words, opening or closing with a word of the [data_sections] list ("Datasets", "4.1 Data
    Collection", "Experimental Data"; not "Sensitivity of data and privacy", nor a title
    "A Corpus for ...")."""
    names = word_list("data_sections")
    for heading in section_path.split(" > "):
        words = _NUMBERING.sub("", heading.strip()).lower().split()
        if not words or len(words) > DATA_HEADING_WORDS:
            continue
        ends = (words[0], words[-1], " ".join(words[:2]), " ".join(words[-2:]))
        if any(w in names for w in ends):
            return True
    return False


def in_sections(section_path: str, list_name: str) -> bool:
    """Whether any heading of the path ("2 Related Work > Neural models") names one of the
    list's sections, numbering left out."""
    names = word_list(list_name)
    for heading in section_path.split(" > "):
        words = " " + _NUMBERING.sub("", heading.strip()).lower() + " "
        if list_name == "others_sections" and len(words.split()) > OTHERS_HEADING_WORDS:
            continue  # a paper's title, "Comparison of results with previous work"
        if any(f" {n} " in words for n in names):
            return True
    return False


def own_statements(aspect: str, findings: list[Finding]) -> list[Finding]:
    """The paper's own claims first: sentences in sections about others' work are left out,
    sentences citing others are demoted (for datasets and metrics, not where the paper says
    it uses what it cites); a limitations cell prefers its section, a main-result
    cell the abstract or conclusion and findings with measured numbers. Scores only; unsorted."""
    out = []
    for f in findings:
        if in_sections(f.section, "others_sections"):
            continue
        citing = cites_others(f.quote) and not _uses_named(aspect, f.quote)
        score = f.score - (CITING_PENALTY if citing else 0.0)
        if aspect == "limitations" and in_sections(f.section, "limitation_sections"):
            score += 1.5
        if aspect == "main result":
            score += 0.5 if in_sections(f.section, "headline_sections") else 0.0
            score += 1.0 if _MEASURED.search(f.value) else 0.0
        out.append(replace(f, score=score))
    return out
