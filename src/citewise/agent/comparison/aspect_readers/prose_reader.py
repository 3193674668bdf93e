"""A fitted choice of the sentence a prose cell (method, main result, limitations) quotes.

Every sentence of a paper is a candidate: its value is the clause after a cue where the cue
readers (agent/comparison/aspect_readers/prose_aspects.py) found one, else the sentence itself
(shortened).
General features of the sentence (its section's role, where it stands, first person, numbers,
comparatives, citation markers, the cue's own score, its length) go through one logistic per
column, fitted on the development part of the hand-labelled matrix by
scripts/fit_prose_reader.py and shipped as agent/data/prose_reader.json. The most probable
candidate fills the cell; below the column's fitted threshold the cell is "not stated".
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from functools import cache

from citewise.agent.ask.features import section_roles
from citewise.agent.comparison.aspect_readers.matrix_cells import (
    alternation,
    cites_others,
    in_sections,
    own_statements,
    shorten,
)
from citewise.agent.comparison.aspect_readers.prose_aspects import PROSE_CUES, prose_findings
from citewise.agent.comparison.extraction import Finding, Unit
from citewise.agent.fitted_data import shipped_text
from citewise.errors import CitewiseError

WEIGHTS_FILE = "prose_reader.json"
FEATURES = (
    "cue",  # the cue readers' score for this sentence (0 where no cue matched)
    "has_cue",
    "abstract",
    "introduction",
    "method_section",
    "results_section",
    "conclusion",
    "discussion",
    "limitation_section",
    "others_section",
    "position",  # 0 at the paper's first sentence, 1 at its last
    "block_start",  # the first sentence of its paragraph
    "first_person",
    "number",
    "measured",
    "claim",
    "shortcoming",
    "citation",
    "pointer",
    "caption",
    "length",  # log of the number of words
    "cue_rank",  # which of the aspect's cues matched, 0 for the first (0 where none did)
    "own_reference",  # "this paper", "the proposed", "our"
    "acronym",  # the value names something: "KALM", "H-CNN", "BiLSTM"
    "section_start",  # the first sentence under its heading
    "value_share",  # how much of the sentence the value is
)
_HAS_CUE = FEATURES.index("has_cue")
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|ours)\b", re.I)
_NUMBER = re.compile(r"\d")
_MEASURED = re.compile(r"\d\.\d|\d\s?%")
_POINTER = re.compile(r"\b(?:Tables?|Figures?|Fig\.|TABREF|FIGREF)\s*\d*")
_ACRONYM = re.compile(r"\b[A-Z][A-Za-z]*[A-Z][\w-]*\b")
_DISCUSSION = re.compile(r"\bdiscussion\b", re.I)


@cache
def _claims() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{alternation('claim_words')})\b", re.I)


@cache
def _own() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{alternation('own_reference')})\b", re.I)


@cache
def _shortcomings() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{alternation('own_shortcomings')})\b", re.I)


def _has_role(section: str, role: str) -> bool:
    words = set(re.findall(r"[a-z]+", section.lower()))
    return bool(words & section_roles()[role])


@dataclass(frozen=True)
class Candidate:
    """A sentence of the paper as a prose cell would quote it, with its features."""

    finding: Finding
    features: tuple[float, ...]


def candidates(aspect: str, paper_units: list[Unit]) -> list[Candidate]:
    """Every prose sentence of the paper as a candidate for the aspect's cell."""
    cued = {
        (f.block_id, f.quote): f
        for f in own_statements(aspect, prose_findings(aspect, paper_units))
    }
    out = []
    total = max(len(paper_units) - 1, 1)
    previous_block = previous_section = ""
    for n, unit in enumerate(paper_units):
        block_start = unit.block_id != previous_block
        section_start = unit.section != previous_section
        previous_block, previous_section = unit.block_id, unit.section
        if unit.kind == "table":
            continue
        found = cued.get((unit.block_id, unit.text))
        has_cue = found is not None
        if found is None:
            value, was_cut = shorten(unit.text.rstrip(" ."))
            if len(value.split()) < 3 or value not in unit.text:
                continue
            found = Finding(aspect, value, unit.text, unit.page, unit.block_id, unit.section,
                            0.0, was_cut)  # fmt: skip
        where = (n / total, block_start, section_start)
        out.append(Candidate(found, features(aspect, unit, found, where, has_cue)))
    return out


def features(
    aspect: str, unit: Unit, found: Finding, where: tuple[float, bool, bool], cued: bool
) -> tuple[float, ...]:
    """The sentence's features, in FEATURES order; `where` is (position in the paper, first
    sentence of its paragraph, first sentence under its heading)."""
    section = unit.section
    text = unit.text
    position, block_start, section_start = where
    return (
        found.score if cued else 0.0,
        float(cued),
        float(_has_role(section, "abstract")),
        float(_has_role(section, "introduction") and not in_sections(section, "others_sections")),
        float(_has_role(section, "method") or _has_role(section, "data")),
        float(_has_role(section, "results") and not _DISCUSSION.search(section)),
        float(_has_role(section, "conclusion")),
        float(bool(_DISCUSSION.search(section))),
        float(in_sections(section, "limitation_sections")),
        float(in_sections(section, "others_sections") or _has_role(section, "related")),
        position,
        float(block_start),
        float(bool(_FIRST_PERSON.search(text))),
        float(bool(_NUMBER.search(text))),
        float(bool(_MEASURED.search(text))),
        float(bool(_claims().search(text))),
        float(bool(_shortcomings().search(text))),
        float(cites_others(text)),
        float(bool(_POINTER.search(text))),
        float(unit.kind in ("caption", "footnote")),
        math.log(1 + len(text.split())),
        _cue_rank(aspect, text) if cued else 0.0,
        float(bool(_own().search(text))),
        float(bool(_ACRONYM.search(found.value))),
        float(section_start),
        len(found.value) / max(len(text), 1),
    )


def _cue_rank(aspect: str, text: str) -> float:
    """The rank of the first of the aspect's cues the sentence matches, 0..1."""
    cues = PROSE_CUES[aspect]
    for rank, pattern in enumerate(cues):
        if pattern.search(text):
            return rank / max(len(cues) - 1, 1)
    return 1.0


@dataclass(frozen=True)
class ColumnModel:
    """One column's logistic: standardised features, weights, bias, the cell's threshold."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float
    cued_only: bool  # candidates only among the sentences a cue reader found
    fallback: bool  # chosen only where the cue readers fill no cell
    enabled: bool  # off where it did not beat the cue readers on the held-out parts

    def probability(self, x: tuple[float, ...]) -> float:
        z = self.bias + sum(
            w * (v - m) / s
            for w, v, m, s in zip(self.weights, x, self.mean, self.scale, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))


@cache
def column_models() -> dict[str, ColumnModel]:
    """The fitted columns of agent/data/prose_reader.json."""
    return parse_models(shipped_text(WEIGHTS_FILE))


def parse_models(text: str) -> dict[str, ColumnModel]:
    """Column -> its model, from the weights file's JSON; a file fitted on other features is
    an error (WEIGHTS_INVALID)."""
    data = json.loads(text)
    columns = data.get("columns", {})
    if columns and tuple(data.get("features", ())) != FEATURES:
        raise CitewiseError(
            f"{WEIGHTS_FILE}: its features differ from the reader's",
            hint="refit it: python scripts/fit_prose_reader.py --library LIB",
            code="WEIGHTS_INVALID",
        )
    return {
        column: ColumnModel(
            tuple(c["mean"]),
            tuple(c["scale"]),
            tuple(c["weights"]),
            c["bias"],
            c["threshold"],
            c.get("candidates") == "cued",
            bool(c.get("fallback")),
            bool(c.get("enabled")),
        )  # fmt: skip
        for column, c in columns.items()
    }


def fitted(aspect: str) -> bool:
    """Whether the fitted reader chooses the aspect's cells (rather than only filling cells
    the cue readers leave empty)."""
    model = column_models().get(aspect)
    return model is not None and model.enabled and not model.fallback


def fallback(aspect: str) -> bool:
    """Whether the fitted reader fills the aspect's cells the cue readers leave empty."""
    model = column_models().get(aspect)
    return model is not None and model.enabled and model.fallback


def fitted_findings(
    aspect: str, paper_units: list[Unit], model: ColumnModel | None = None
) -> list[Finding]:
    """The aspect's candidates by fitted probability (the score), best first; [] when the best
    stays below the column's threshold (the paper does not state it). `model` defaults to the
    shipped one."""
    model = model or column_models()[aspect]
    scored = [
        replace(c.finding, score=model.probability(c.features))
        for c in candidates(aspect, paper_units)
        if not in_sections(c.finding.section, "others_sections")
        and (c.features[_HAS_CUE] or not model.cued_only)
    ]
    scored.sort(key=lambda f: -f.score)
    if not scored or scored[0].score < model.threshold:
        return []
    return scored
