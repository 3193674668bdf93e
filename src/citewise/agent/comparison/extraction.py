"""Deterministic aspect extraction: a paper's blocks -> short values, each with its quote.

Every value is a verbatim span of the sentence (or table row) it is quoted from; `Finding`
refuses to exist otherwise. Patterns cover experiment settings (optimizer, learning rate,
schedule, batch size, epochs, hardware, ...); names of datasets, models and metrics come from
patterns plus a gazetteer built from the library itself (agent/comparison/gazetteer.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from citewise.agent.comparison.patterns import PATTERNS, ROW_LABELS, SECTION_HINTS, needs_context
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sentences.extractive import split_sentences
from citewise.agent.sourced_lists import sourced_lists
from citewise.store.sqlite.library import StoredBlock

NOT_STATED = "not stated"
ELLIPSIS = "…"  # what a cell says when the paper does not state the aspect
PROSE_KINDS = ("paragraph", "list", "caption", "footnote")
_SKIP_SECTIONS = re.compile(
    r"\b(references|bibliography|acknowledg\w*|author contributions)\b", re.I
)
_THANKS = re.compile(r"\backnowledg\w*", re.I)
_SPACE = re.compile(r"\s+")
_URL = re.compile(r"https?://\S+")
# the paper speaking of its own work: "we", "our", "us"
FIRST_PERSON = re.compile(r"\b(?:we|our|us)\b", re.I)
WE_OR_OUR = re.compile(r"\b(?:we|our)\b", re.I)  # the same without "us"
# the placeholders of papers converted from LaTeX: a citation, a cross-reference, a formula
PLACEHOLDER_KINDS = "BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM|UID"
OMITTED = "[…]"  # what a shown value says where the paper had a formula or cross-reference
# a run of citations ("X BIBREF3 , BIBREF4") is left out of a shown value, as in any quotation
_CITATIONS = re.compile(r"\s*\bBIBREF\d+(?:\s*[,;]\s*BIBREF\d+)*")
_REFERENCES = re.compile(rf"\b(?:{PLACEHOLDER_KINDS})\d+\b")
_EMPTY_BRACKETS = re.compile(r"\(\s*[,;]?\s*\)|\[\s*\]")
_SPACE_BEFORE = re.compile(r"\s+(?=[,;:)\]]|\.(?!\d))|(?<=\()\s+")
_DOUBLED = re.compile(r"([,;])(?:\s*[,;])+")


def readable(text: str) -> str:
    """`text` as a cell shows it: the converter's placeholders out (citations dropped, a formula
    or cross-reference as "[…]"), the spaces they leave before punctuation closed up."""
    if "REF" not in text and "FORM" not in text and "UID" not in text:
        return text
    text = _REFERENCES.sub(OMITTED, _CITATIONS.sub("", text))
    text = _DOUBLED.sub(r"\1", _SPACE_BEFORE.sub("", _EMPTY_BRACKETS.sub("", text)))
    return _SPACE.sub(" ", text).strip(" ,;")


def cited_in(value: str, quote: str) -> bool:
    """Whether a shown value (cut short: with its ellipsis) is its quote's own words, the
    quote read as the cell shows it (`readable`)."""
    value = value.removesuffix(ELLIPSIS)
    return value in quote or value in readable(quote)


@dataclass(frozen=True)
class Unit:
    """A sentence of prose or a row of a table, with its address."""

    text: str
    block_id: str
    page: int
    section: str
    kind: str
    ordinal: int


@dataclass(frozen=True)
class Finding:
    """One extracted value and the verbatim quote it occurs in."""

    aspect: str
    value: str
    quote: str
    page: int
    block_id: str
    section: str
    score: float
    cut: bool = False  # the value stops short of its clause: shown with an ellipsis

    @property
    def shown(self) -> str:
        """The value as a cell shows it: placeholders out (`readable`), with "…" where it was
        cut short; the quote stays verbatim."""
        value = readable(self.value)
        return value + ELLIPSIS if self.cut else value

    def __post_init__(self) -> None:
        if not self.value or self.value not in self.quote:
            raise ValueError(f"value {self.value!r} does not occur in its quote")

    def to_dict(self) -> dict[str, object]:
        return {
            "value": self.value,
            "page": self.page,
            "quote": self.quote,
            "block": self.block_id,
            "section": self.section,
            "cut": self.cut,
        }


def units(blocks: Iterable[StoredBlock], thanks: bool = False) -> list[Unit]:
    """Trusted sentences and table rows of a paper, references and thanks left out; with
    `thanks`, the sentences of its acknowledgements alone (where a paper names the hardware
    it was given)."""
    out = []
    for b in blocks:
        heading = b.section_path.split(" > ")[-1] or ""
        if thanks and not _THANKS.search(heading):
            continue
        if not b.trusted or (not thanks and _SKIP_SECTIONS.search(heading)):
            continue
        if b.kind == "table":
            pieces = split_sentences(b.text, "table")
        elif b.kind in PROSE_KINDS:
            pieces = split_sentences(b.text, "paragraph")
        else:
            continue
        for text in pieces:
            text = _SPACE.sub(" ", text).strip()
            if len(text) >= 8:
                out.append(Unit(text, b.id, b.page, b.section_path, b.kind, b.ordinal))
    return out


def section_bonus(aspect: str, unit: Unit) -> float:
    """Settings live in setup sections; a hint in the section path counts."""
    hints = SECTION_HINTS.get(aspect, SECTION_HINTS["default"])
    return 1.0 if hints.search(unit.section) else 0.0


def clean_value(value: str) -> str:
    """Trim punctuation around a match; keep a closing bracket the value opened."""
    value = value.strip(" ,;:.")
    while (
        value
        and value[-1] in ")]"
        and value.count("(") + value.count("[") < (value.count(")") + value.count("]"))
    ):
        value = value[:-1].rstrip(" ,;:.")
    while (
        value
        and value[0] in "(["
        and value.count(")") + value.count("]") < (value.count("(") + value.count("["))
    ):
        value = value[1:].lstrip()
    return value


def find_in_unit(aspect: str, unit: Unit) -> list[Finding]:
    """Every match of the aspect's patterns in one unit, as findings; a table row whose
    first cell names the setting gives the rest of the row."""
    label = ROW_LABELS.get(aspect)
    row = label.match(unit.text) if label and unit.kind == "table" else None
    if row:
        value = clean_value(row.group("v"))
        if value and value in unit.text:
            score = 2.0 + section_bonus(aspect, unit)
            return [
                Finding(aspect, value, unit.text, unit.page, unit.block_id, unit.section, score)
            ]
    context = needs_context(aspect)
    if context is not None and not context.search(_URL.sub(" ", unit.text)):
        return []
    found: dict[str, Finding] = {}
    for pattern in PATTERNS.get(aspect, ()):
        for m in pattern.finditer(unit.text):
            raw = m.group("v") if "v" in pattern.groupindex else m.group(0)
            value = clean_value(raw or "")
            if len(value) < 1 or value not in unit.text or value.lower() in found:
                continue
            score = 1.0 + section_bonus(aspect, unit) + (0.5 if unit.kind != "table" else 0.0)
            found[value.lower()] = Finding(
                aspect, value, unit.text, unit.page, unit.block_id, unit.section, score
            )
    return list(found.values())


def extract(aspect: str, paper_units: list[Unit], limit: int = 3) -> list[Finding]:
    """The aspect's best distinct values in a paper (best first), at most `limit`."""
    found: list[Finding] = []
    for unit in paper_units:
        found.extend(find_in_unit(aspect, unit))
    return best_distinct(found, limit)


def best_distinct(found: list[Finding], limit: int) -> list[Finding]:
    """Highest score first (earlier in the paper on ties); one finding per value, and none
    whose value is part of a value already kept ('Adam' under 'AdamW' stays out)."""
    ranked = sorted(enumerate(found), key=lambda p: (-p[1].score, p[0]))
    kept: list[Finding] = []
    for _, f in ranked:
        low = f.value.lower()
        if any(low in k.value.lower() or k.value.lower() in low for k in kept):
            continue
        kept.append(f)
        if len(kept) >= limit:
            break
    return kept


def merged_value(findings: list[Finding], max_chars: int = 120) -> Finding | None:
    """One cell for a spreadsheet: the best finding, widened to the other findings in the same
    quote that run on from it as a list ('BC5CDR, JNLPBA and SciERC') when that stays short;
    a finding the list does not reach (a clause between) stays out."""
    if not findings:
        return None
    best = findings[0]
    start, end = listed_run(best, [f for f in findings if f.quote == best.quote])
    if end - start <= max_chars and best.quote[start:end] != best.value:
        value = best.quote[start:end]
        return Finding(
            best.aspect, value, best.quote, best.page, best.block_id, best.section, best.score
        )
    return best


def listed_run(best: Finding, same: list[Finding]) -> tuple[int, int]:
    """The span of the run of findings, in quote order, around `best` whose neighbours are
    joined as a list is (`list_joint`)."""
    quote = best.quote
    spans = sorted({(quote.find(f.value), quote.find(f.value) + len(f.value)) for f in same})
    at = spans.index((quote.find(best.value), quote.find(best.value) + len(best.value)))
    first = last = at
    while first > 0 and list_joint(quote[spans[first - 1][1] : spans[first][0]]):
        first -= 1
    while last + 1 < len(spans) and list_joint(quote[spans[last][1] : spans[last + 1][0]]):
        last += 1
    return min(s for s, _ in spans[first : last + 1]), max(e for _, e in spans[first : last + 1])


# a short aside in brackets between two items: an abbreviation, a score ("(RTF)", "(0.794)")
_ASIDE = re.compile(r"\([^()]{0,30}\)|\[[^\[\]]{0,30}\]")
_PUNCTUATION = re.compile(r"[,;/&]")
_QUALIFIER = re.compile(r"[\w.+-]+")


def list_joint(gap: str) -> bool:
    """Whether the text between two findings joins them as items of one list: punctuation, a
    coordinating conjunction, citations, math delimiters, short bracketed asides, and at most
    one qualifying word that is no function word ("ABSA datasets and SNLI", "Pearson and
    Spearman correlation"); a gap the findings overlap across joins them too."""
    if not gap:
        return True
    gap = _ASIDE.sub(" ", _CITATIONS.sub(" ", _REFERENCES.sub(" ", gap.replace("$", ""))))
    gap = gap.strip().removeprefix(")").removeprefix("]").removesuffix("(").removesuffix("[")
    if any(c in gap for c in "()[]:"):
        return False
    joints, function_words = _joint_words()
    words = _PUNCTUATION.sub(" ", gap.lower()).split()
    for joint in (j for j in joints if " " in j):  # "as well as": one joint of three words
        words = " ".join(words).replace(joint, "and").split()
    others = [w for w in words if w not in joints]
    return len(others) <= 1 and all(
        _QUALIFIER.fullmatch(w) and w not in function_words for w in others
    )


@cache
def _joint_words() -> tuple[frozenset[str], frozenset[str]]:
    """The list joints (agent/data/list_joints.txt) and the function words no qualifier is
    (the [dangling] list of agent/data/matrix_cells.txt)."""
    joints = sourced_lists(shipped_text("list_joints.txt"), "list_joints.txt", ["joints"])
    cells = sourced_lists(shipped_text("matrix_cells.txt"), "matrix_cells.txt", ["dangling"])
    return frozenset(joints["joints"]), frozenset(cells["dangling"])
