"""The sentence that states a paper's named method, as its method cell.

Once the paper's name for what it proposes is known (method_name.py), the method findings
that name it where the paper opens gain a bonus; where none does well enough, the first
sentence stating the name with what it is ("X, a ...", "X is a ...", "we propose X", "a
model (X) for ...") gives a candidate, from the name (or its long form) to the end of its
clause. A sentence that only runs an experiment on the name ("we evaluate our X model") or
reports a result ("X outperforms ...") states no method.
"""

from __future__ import annotations

import re
from dataclasses import replace

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    alternation,
    cites_others,
    clause_continues,
    clause_end,
    shorten,
)
from citewise.agent.comparison.aspect_readers.method_name import (
    CALLED,
    PROPOSE,
    MethodName,
    opening_blocks,
)
from citewise.agent.comparison.extraction import Finding, Unit

NAMED_BONUS = 1.5  # a method sentence that names the paper's method over one that does not
STATEMENT_SCORE = 3.4  # the name stated where the paper opens, above a cue's unnamed sentence
LATE_STATEMENT_SCORE = 0.5  # stated only later: a cell only where no cue found one


def named_method(found: list[Finding], paper_units: list[Unit], name: MethodName) -> list[Finding]:
    """Method findings with the named one first: an opening's cue clause naming the method
    gains NAMED_BONUS; where none names it scoring STATEMENT_SCORE, the sentence that states
    the name with what it is gives a candidate (the phrase from the name's long form, or the
    clause it stands in)."""
    opening = opening_blocks(paper_units)
    out = [
        replace(f, score=f.score + NAMED_BONUS)
        if f.block_id in opening and _names(f.value, name)
        else f
        for f in found
    ]
    named = [f.score for f in out if f.block_id in opening and _names(f.value, name)]
    if named and max(named) >= STATEMENT_SCORE:
        return out  # a cue clause names it well enough (a weak cue's clause does not)
    statement = _statement(paper_units, name, opening)
    return out + ([statement] if statement else [])


def _names(text: str, name: MethodName) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name.name)}(?![\w-])", text) is not None


_FORMULA = re.compile(r"[$\\{}^]")  # LaTeX left in a converted paper's sentence


def _statement(paper_units: list[Unit], name: MethodName, opening: set[str]) -> Finding | None:
    """The first sentence stating the name with what it is, as a method finding: from the
    name (or its long form) to the end of its clause; one in the opening first."""
    share = max(len(paper_units), 1)
    late: Finding | None = None
    for n, unit in enumerate(paper_units):
        text = unit.text
        if unit.kind == "table" or cites_others(text) or _FORMULA.search(text):
            continue
        if not _names(text, name):
            continue
        at = text.find(name.long_form)
        if at < 0:
            m = re.search(rf"(?<![\w-]){re.escape(name.name)}(?![\w-])", text)
            at = m.start() if m else -1
        if at < 0:
            continue
        start = _clause_start(text, at)
        # "which led us to propose a model (X) for ...": the cell starts at what is proposed
        proposed = [p.end() for p in _TO_PROPOSE.finditer(text, start, _name_at(text, name, at))]
        start = max([start, *proposed])
        end = clause_end(text, at + len(name.name))
        value, was_cut = shorten(text[start:end].strip(" ,"))
        if not _names(value, name) or len(value.split()) < 3 or value not in text:
            continue
        if not _describes(text, at, name):
            continue  # "KALM outperforms ..." reports a result, it does not state the method
        was_cut = was_cut or clause_continues(text, text.find(value, start) + len(value))
        if unit.block_id in opening:
            score = STATEMENT_SCORE + 0.5 * (1.0 - n / share)
            return Finding("method", value, text, unit.page, unit.block_id, unit.section, score,
                           was_cut)  # fmt: skip
        if late is None:
            late = Finding("method", value, text, unit.page, unit.block_id, unit.section,
                           LATE_STATEMENT_SCORE, was_cut)  # fmt: skip
    return late


def _name_at(text: str, name: MethodName, at: int) -> int:
    """Where the name itself stands at or after `at` (the start of its long form)."""
    m = re.compile(rf"(?<![\w-]){re.escape(name.name)}(?![\w-])").search(text, at)
    return m.start() if m else at


# what follows a name stated with what it is: "X, a ...", "X is a ...", "X which ...", "X model"
_DESCRIBES = re.compile(
    rf"^\)?\s*(?:,\s+(?:a|an|which|that|the)\b|(?:is|are)\s+(?:a|an)\b|(?:which|that)\b|"
    rf"(?:{alternation('method_nouns')})\b)",
    re.I,
)


def _describes(text: str, at: int, name: MethodName) -> bool:
    """Whether the sentence states what the name at `at` is: a proposal whose object holds
    it, or words saying what it is right after it."""
    if any(p.start("object") <= at for p in PROPOSE.finditer(text, 0, at + 1)):
        return True
    if _EVALUATED.search(text, 0, at):
        return False  # "we evaluate our X model on three tasks" reports an experiment
    if _NOUN_BEFORE.search(text, 0, _name_at(text, name, at)):
        return True  # "a model (X) for ...": the words before the bracket say what it is
    after = at + (len(name.long_form) if text.startswith(name.long_form, at) else len(name.name))
    return _DESCRIBES.search(text[after:].lstrip()) is not None


# a name an experiment runs: "we evaluate our X model", "we trained the proposed X"
_EVALUATED = re.compile(
    r"\b(?:evaluat|test|assess|compar|train|benchmark|run|ran)\w*\s+(?:our|the|this)\s+"
    r"(?:proposed\s+)?$",
    re.I,
)
# a name bracketed right after the noun an indefinite article introduces: "a model (X)", "a new
# framework (X)"; not "our model (X) outperforms ..." (a result), not a long form's last word
# ("Feed-forward Neural Networks (FNN)" defines an acronym)
_NOUN_BEFORE = re.compile(
    r"\b[Aa]n?\s+(?:[a-z][\w-]*\s+){0,2}?"
    rf"(?i:{alternation('method_nouns')})\s*\($"
)


# a proposal in the infinitive: "which led us to propose a model (X) for ..."
_TO_PROPOSE = re.compile(r"\bto\s+(?:propose|present|introduce|develop|design)\s+", re.I)


def _clause_start(text: str, at: int) -> int:
    """Where the clause holding position `at` starts: at a name given right after "call",
    after a proposal's verb, else after
    the last ", " or "; " before it, else the sentence's start."""
    if any(c.end() <= at <= c.end() + 2 for c in CALLED.finditer(text, 0, at + 1)):
        return at  # "we call our system X, a ...": the cell starts at the name
    objects = [p.start("object") for p in PROPOSE.finditer(text, 0, at + 1)]
    if objects and objects[-1] <= at:
        return objects[-1]
    breaks = [m.end() for m in re.finditer(r"[,;]\s+", text[:at])]
    return breaks[-1] if breaks else 0
