"""The `baselines` column: the systems a paper's own experiments compare against.

Read from the paper's own statements, in the forms counted over the QASPER pool's 315 papers
(docs/benchmarks.md, "Eighth session: a baselines column"; papers with the form, related work
left out):
- a list the paper introduces: "we use two baselines: X and Y", "Baselines: X, Y" (24 papers),
  or a sentence ending in "the following baselines:" whose next sentences open with the names;
- "X as (our/a) baseline", "as a baseline, we use X" (52);
- "the baselines are/include X", "our baseline model is X" (33);
- "we compare (our model) with/against/to X", "our model is compared against X" (104, 22):
  the compared-with phrase must name something (a capitalised or numbered word);
- sentences under a heading naming baselines (49) that open with a system's name.
Never a sentence in a section about others' work ("Related Work"); a compared-with phrase of
general words only ("the baseline", "previous methods") names nothing. The value is the span of
its sentence naming the systems, stopped before a subordinate clause ("..., which ...",
"... on three datasets"); the word lists are in agent/data/matrix_cells.txt.
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    alternation,
    in_sections,
    word_list,
)
from citewise.agent.comparison.extraction import FIRST_PERSON, Finding, Unit

ASPECT = "baselines"
LISTED_SCORE = 3.0  # the paper's own list of its baselines
STATED_SCORE = 2.6  # "we use X as our baseline", "the baselines are X"
COMPARED_SCORE = 2.0  # "we compare our model with X"
HEADED_SCORE = 1.6  # a sentence under a "Baselines" heading opening with a name
NAMED_SCORE = 1.4  # "outperforms the Weka baseline": a name before the word
BASELINE_WORD_BONUS = 0.4  # a compared-with sentence that also says "baseline"

_B = r"(?i:baselines?)"
_KIND = r"(?i:(?:\s+(?:models?|systems?|methods?|approach(?:es)?))?)"
_BASELINE = re.compile(r"\bbaselines?\b", re.I)
_HEADED = re.compile(r"baseline|compared (?:methods|systems|models)", re.I)
_PLACEHOLDER = re.compile(r"^(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d+")
_NAME_TOKEN = re.compile(r"[A-Z0-9]")  # a proper name, an acronym, a numbered system
_TOKEN = re.compile(r"[^\s,;()]+")
_NAME_WORD = re.compile(r"[^\s,:;()]+")
_INNER_NAME = re.compile(r"^.+[A-Z0-9]|^\d")  # "LDA", "BiLSTM", "GloVe-d2v"; not "Concreteness"
_EXPANSION = re.compile(r"\s*\([^()]{3,40}\)")
_NAMED = (
    r"(?!(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d)[\w+.-]*[A-Z0-9][\w+.-]*"
)
# what stands between "we compare our model" and "with X": not a clause of its own
# ("we compared the two models when trained with a flat prior")
_FILLER = r"(?:(?!\b(?i:when|trained|tested|used|using|while|if)\b)[^.;:])"
_ENUMERATOR = re.compile(r"^(?:\(?\d+\)|\d+\.\s|\(?[a-z]\))\s*")  # "(1) the established method"
# an apposition after the name: "X, a large-scale pre-trained model"
_APPOSITION = re.compile(r",\s+(?i:a|an)\s")


# the forms that need no word list: a list, a statement, a name, a comparison
_FIXED_FORMS: dict[str, list[re.Pattern[str]]] = {
    "listed": [
        # "we use two simple baselines: X and Y", "Baselines: X, Y"
        re.compile(rf"\b{_B}{_KIND}\s*:\s*(?P<v>[^:;]+)"),
        # "we compare our method to four approaches: (1) X, (2) Y"
        re.compile(r"\b(?i:we)\s+(?:\w+\s+)?(?i:compare[sd]?)\b[^.:;]{0,80}\s*:\s*(?P<v>[^:;]+)"),
    ],
    "stated_as": [
        # "the baselines are X", "Our baseline model is a bidirectional RNN"
        re.compile(
            rf"^(?i:the|our)\s+(?:[\w-]+\s+){{0,2}}?{_B}{_KIND}\s+(?i:are|include|includes|"
            rf"is|were|was|consists? of|comprises?)\s+(?P<v>(?:(?i:a|an|the)\s|[A-Z0-9])[^;:]+)"
        ),
    ],
    "named": [
        # "outperforms the Weka baseline", "the Seq2Seq baseline"
        re.compile(
            rf"\b(?i:the|a|an|our)\s+(?:[a-z]+\s+)?(?P<v>(?:{_NAMED}[\s-]+){{0,2}}{_NAMED})"
            rf"\s+{_B}\b"
        ),
        # "the strongest baseline, TinyBERT, ...", "the word embedding based baseline, the
        # GloVe-d2v method, achieves ...": a name set off by commas after the word
        re.compile(
            rf"\b{_B}{_KIND},\s+(?i:the\s+)?(?P<v>{_NAMED}(?:[\s-]+{_NAMED}){{0,2}})"
            r"(?:\s+(?i:method|model|system|approach))?,"
        ),
        # "our baseline model RoBERTa", "the baseline system Moses"
        re.compile(
            rf"\b(?i:our|the)\s+(?:[a-z-]+\s+)?{_B}{_KIND}\s+"
            rf"(?P<v>{_NAMED}(?:(?:[\s-]+|,\s+|\s+and\s+){_NAMED}){{0,3}})"
        ),
    ],
    "compared": [
        # "we compare our model with X", "we also compare against X"
        re.compile(
            r"\b(?i:we)\s+(?:\w+\s+)?(?i:compare[sd]?)\s+(?:(?i:our|the|this|these|its?|"
            rf"them|both)\b{_FILLER}{{0,80}}?\s+)?(?i:with|against|to)\s+(?P<v>[^;:]+)"
        ),
        # "our model is compared against X"
        re.compile(
            r"\b(?i:is|are|was|were|be)\s+(?:\w+\s+)?(?i:compared)\s+(?i:with|against|to)\s+"
            r"(?P<v>[^;:]+)"
        ),
    ],
}


@cache
def _forms() -> dict[str, list[re.Pattern[str]]]:
    """The sentence forms, by how much they say: a list, a statement, a name, a comparison."""
    take = alternation("baseline_choose_verbs")
    det = r"(?i:(?:a|an|our|the|two|three|several|four|five)\s+)?(?:[\w-]+\s+){0,2}?"
    return {
        "stated": [
            # "we use X as our baseline", "we have chosen system X as baseline"
            re.compile(rf"\b(?i:{take})\s+(?P<v>[^.;:]{{2,160}}?)\s+(?i:as)\s+{det}{_B}\b"),
            # "as a baseline, we use X", "As baselines for this task, we take X"
            re.compile(
                rf"\b(?i:as)\s+{det}{_B}{_KIND}(?:\s+(?i:for|on|in)\s+[^,;:]{{1,40}}?)?\s*,?\s*"
                rf"(?i:we)\s+(?:\w+\s+)?(?i:{take})\s+"
                r"(?P<v>[^;:]+)"
            ),
        ],
        **_FIXED_FORMS,
    }


_SCORES = {
    "listed": LISTED_SCORE,
    "stated": STATED_SCORE,
    "stated_as": STATED_SCORE,
    "named": NAMED_SCORE,
    "compared": COMPARED_SCORE,
}


_OURS_ONLY = ("compared",)
_CUE = re.compile(r"(?i:\b(baseline|compar)(?:e|ed|es|ing|ison|s)?\b)")
# the cues a form's sentence holds ("baseline" for the others)
_NEEDS = {"compared": ("compar",), "listed": ("baseline", "compar")}


@cache
def _cut() -> re.Pattern[str]:
    """Where a compared-with phrase ends: a stop, a subordinate clause, a prepositional tail,
    the next item's number ("X, (2) Y"), a count after a common word ("on those 20
    speeches"; a name's number stays: "CoNLL 2018")."""
    words = alternation("baseline_cut_before")
    return re.compile(
        rf"[.;:!?](?:\s|$)|,\s+(?i:{words})\b|\s(?i:{words})\b|"
        r"\s\(\s*(?:\d+(?:-\d+)?|[ivx]+)\s*\)|(?<=[a-z,])\s\d"
    )


def _trimmed(value: str) -> str:
    value = _ENUMERATOR.sub("", value)
    for cut in (_cut(), _APPOSITION):
        m = cut.search(value)
        if m:
            value = value[: m.start()]
    words = value.strip(" ,;:-–—(").split(" ")
    while len(words) > 1 and words[-1].lower().strip(",") in word_list("dangling"):
        words.pop()  # "a system trained on" (a count cut off) ends before "on"
    return " ".join(words).strip(" ,;:-–—(")


def names_something(value: str, need_name: bool, listed: bool = False) -> bool:
    """Whether the phrase names a system: it does not open with a preposition ("in the
    shared task") or "our", does not end in a thing that is no system ("the entailment
    task", "the baseline F1"; a `listed` phrase may: "and the LIX readability score"), and a
    word is left when the general words of a comparison ("the",
    "baseline", "previous methods") are gone; with `need_name`, a word that is a
    name (a capital or a digit: "Weka", "BiLSTM", "seq2seq") or a citation placeholder."""
    generic = word_list("baseline_generic")
    tokens = [t for t in _TOKEN.findall(value) if not _PLACEHOLDER.match(t)]
    if tokens and tokens[0].lower() in word_list("baseline_not_openers"):
        return False
    if not listed and _head(tokens) in word_list("baseline_not_heads"):
        return False  # "the entailment task", "the annotations by crowd workers": no system
    left = [t for t in tokens if t.lower().strip(".,'\"“”") not in generic]
    if not left:
        return False
    if not need_name:
        return True
    return any(_NAME_TOKEN.search(t) for t in left) or bool(_PLACEHOLDER.search(value))


_AUTHORS = frozenset({"we", "our"})  # in baseline_not_openers beside the prepositions


def _head(tokens: list[str]) -> str:
    """The phrase's head noun: its last word before a preposition ("annotations" of "the
    annotations by crowd workers")."""
    prepositions = word_list("baseline_not_openers") - _AUTHORS
    head = ""
    for t in tokens:
        if t.lower() in prepositions:
            break
        head = t.lower().strip(".")
    return head


def _finding(unit: Unit, value: str, score: float) -> Finding | None:
    value = value.strip()
    if len(value) < 2 or value not in unit.text:
        return None
    return Finding(ASPECT, value, unit.text, unit.page, unit.block_id, unit.section, score)


def _sentence_findings(unit: Unit) -> list[Finding]:
    out: list[Finding] = []
    text = unit.text
    says = {word.lower() for word in _CUE.findall(text)}
    if not says:
        return out  # every form says "baseline" or "compare"
    for form, patterns in _forms().items():
        if not says.intersection(_NEEDS.get(form, ("baseline",))):
            continue
        for pattern in patterns:
            for m in pattern.finditer(text):
                value = _trimmed(m.group("v") or "")
                compared = form == "compared"
                if form in _OURS_ONLY and not FIRST_PERSON.search(text):
                    continue  # another paper's comparison or baseline
                if not names_something(value, need_name=compared, listed=form == "listed"):
                    continue
                score = _SCORES[form]
                if compared and _BASELINE.search(text):
                    score += BASELINE_WORD_BONUS
                found = _finding(unit, value, score)
                if found is not None:
                    out.append(found)
    return out


# "We compare our model with the following baselines:" — the names open the next sentences
_INTRODUCES = re.compile(
    r"\b(?:baselines?|following\s+(?:[\w-]+\s+){0,2}?(?:models|methods|systems|approaches))"
    r"\s*:\s*$",
    re.I,
)
_LISTED_AFTER = 8  # how many sentences after such an introduction may name a baseline


_NOT_OPENING = ("name_openers", "subordinators", "baseline_not_names")


def opening_name(text: str) -> str | None:
    """The system's name a sentence opens with ("CorefNqg BIBREF33 A sequence-to-sequence
    model ...", "LDA is ...", "Hidden-state (hs)."), None when it opens with a common word."""
    start = _ENUMERATOR.match(text)
    tokens = list(_NAME_WORD.finditer(text, start.end() if start else 0))
    run: list[re.Match[str]] = []
    for t in tokens[:5]:
        word = t.group().rstrip(".")
        if _PLACEHOLDER.match(word) or not word[:1].isupper() and not word[:1].isdigit():
            break
        if run and text[run[-1].end() : t.start()].strip():
            break  # a name's words are joined by spaces only ("Mean: A simple model")
        if run and word.lower() in word_list("name_openers"):
            break  # "TransferTransfo The model ...": the next sentence's first word
        run.append(t)
    first = run[0].group().lower().rstrip(".") if run else ""
    if not first or any(first in word_list(n) for n in _NOT_OPENING):
        return None
    after = text[run[-1].end() :].lstrip()
    named = any(_INNER_NAME.search(t.group()) for t in run) or len(run) > 1
    if not named and not after.startswith(("(", ":", "BIBREF", "-", "–", "—")):
        return None
    end = run[-1].end()
    expanded = _EXPANSION.match(text, end)  # "RB (Rule based method)"
    value = text[run[0].start() : expanded.end() if expanded else end].rstrip(".")
    return value if names_something(value, need_name=False) else None


def _listed_after(paper_units: list[Unit]) -> list[Finding]:
    """Names opening the sentences that follow "the following baselines:" in its section."""
    out = []
    for i, unit in enumerate(paper_units):
        if not _INTRODUCES.search(unit.text) or not (
            _BASELINE.search(unit.text) or FIRST_PERSON.search(unit.text)
        ):
            continue
        for nxt in paper_units[i + 1 : i + 1 + _LISTED_AFTER]:
            if nxt.section != unit.section:
                break
            name = opening_name(nxt.text)
            found = _finding(nxt, name, LISTED_SCORE - 0.2) if name else None
            if found is not None:
                out.append(found)
    return out


def _headed(paper_units: list[Unit]) -> list[Finding]:
    """Sentences under a heading naming baselines that open with a system's name."""
    out = []
    for unit in paper_units:
        if not _HEADED.search(unit.section.split(" > ")[-1]):
            continue
        name = opening_name(unit.text)
        found = _finding(unit, name, HEADED_SCORE) if name else None
        if found is not None:
            out.append(found)
    return out


def baseline_findings(paper_units: list[Unit], title: str = "") -> list[Finding]:
    """Every statement of what the paper compares against, sections about others' work
    left out, and the paper's own system where its title names it ("KelpNet: ..."); scores
    only, unsorted."""
    found = [f for u in paper_units for f in _sentence_findings(u)]
    found += _listed_after(paper_units) + _headed(paper_units)
    own = _OWN_NAME.match(title.strip())
    ours = own.group(1).lower() if own else None
    return [
        f
        for f in found
        if not in_sections(f.section, "others_sections") and f.value.lower() != ours
    ]


# a title naming the paper's own system before a colon: "KelpNet: Counting Kelp From Above"
_OWN_NAME = re.compile(r"^([^\s:]+(?:\s[^\s:]+)?)\s*:")
