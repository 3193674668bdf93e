"""A numeric setting's value read whole and ranked the way a reader ranks it, after the readings
of patterns.py, setup_reading.py and matrix_settings.py:

- one value for each thing it is set for: "a learning rate of 0.0001 for the large corpus and
  0.001 for the small one", "600 epochs on CUB and 120 epochs on COCO" give every value with
  what it is for, not the first alone;
- a setting whose value the converter left as a formula ("a learning rate of INLINEFORM0",
  "batches of size INLINEFORM0"): the paper states it, the cell says where, and only when no
  number is read for it;
- a count of epochs in a sentence that trains nothing ("the model finds the cause with only 5
  epochs") and a batch a speed is measured on ("inference time ... using a batch size of 1")
  rank below the training's own values.
"""

from __future__ import annotations

import re
from dataclasses import replace

from citewise.agent.comparison.extraction import FIRST_PERSON, Finding, Unit, section_bonus
from citewise.agent.comparison.patterns import NUM
from citewise.agent.comparison.settings.setup_reading import SETTINGS, setting_name

# what one value is for: a few words, no number of their own ("for 10 epochs" times the value)
_FOR = r"\s+(?:for|in|on|with)\s+(?:the\s+)?(?:(?:[A-Za-z][\w/+-]*|&)\s+){0,3}?[A-Za-z][\w/+-]*"
_UNIT = r"(?:\s+(?:epochs?|steps|iterations|updates|tokens|sentences|examples))?"
# the rest of a list of values, each with its own "for ...": "... and 0.05 in CBOW"
_MORE_ITEMS = re.compile(
    rf"(?P<first>{_FOR})(?P<rest>(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?:\$?\s*{NUM}(?:\s?[kK])?\s*\$?)"
    rf"{_UNIT}{_FOR}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)\$?\s*{NUM}(?:\s?[kK])?\s*\$?{_UNIT}{_FOR})?)"
    # where the list ends: a stop, or a word that opens the sentence's next part
    r"(?=\s*(?:[,.;:)]|$)|\s+(?:respectively|using|with|while|which|where|but|and|to)\b)"
)
_ONE_VALUE = re.compile(rf"^\$?\s*{NUM}(?:\s?[kK])?\s*\$?{_UNIT}$")
NUMERIC = ("learning rate", "batch size", "epochs", "dropout", "weight decay", "warmup")


def per_item(aspect: str, found: list[Finding]) -> list[Finding]:
    """A single value followed by what it is for and the values for the other things ("0.025 in
    SG and 0.05 in CBOW") widened to the whole list."""
    if aspect not in NUMERIC:
        return found
    out = []
    for f in found:
        at = f.quote.find(f.value)
        m = _MORE_ITEMS.match(f.quote, at + len(f.value)) if at >= 0 else None
        if m and _ONE_VALUE.match(f.value):
            f = replace(f, value=f.value + m.group("first") + m.group("rest"))
        out.append(f)
    return out


_FORMULA = r"(?:INLINEFORM|DISPLAYFORM)\d+"
# the words between a setting's name and a formula standing for its value
_TO_FORMULA = (
    r"(?:\s+BIBREF\d+)?(?:\s+(?:is|was|are|were|set|fixed|chosen|initially|to|of|as|at|"
    rf"with|a|an|rate|probability|value|size|per\s+\w+)){{0,4}}\s*[:=]?\s*{_FORMULA}"
)
# a formula a derivation supposes ("let the batch size be INLINEFORM4"): notation, not a setting
_SUPPOSED = re.compile(r"\b(?:assum\w*|suppos\w*|let|lets)\b", re.I)
_FORMULA_OPENED = re.compile(rf"\b(?:of|to|as|at|is|was|=|:|of\s+size)\s*{_FORMULA}$")


def formula_findings(aspect: str, paper_units: list[Unit]) -> list[Finding]:
    """A setting whose value the paper gives as a formula the conversion dropped: its name and
    the formula's place ("learning rate of INLINEFORM0"), scored below every value read."""
    if aspect not in SETTINGS:
        return []
    name = setting_name(aspect)
    reader = re.compile(rf"(?P<v>{name}{_TO_FORMULA})", re.I)
    found = []
    for unit in paper_units:
        m = reader.search(unit.text)
        if not m or unit.kind == "table" or not _FORMULA_OPENED.search(m.group("v")):
            continue
        if _SUPPOSED.search(unit.text):
            continue  # a derivation's notation
        if aspect == "batch size" and not re.search(r"\bsize\b", m.group("v"), re.I):
            continue  # "the next batch of INLINEFORM1 sequences": a batch, not its size
        score = 0.1 + section_bonus(aspect, unit) / 10
        value = re.sub(r"^the\s+", "", m.group("v"), flags=re.I)
        found.append(Finding(aspect, value, unit.text, unit.page, unit.block_id,
                             unit.section, score))  # fmt: skip
    return found[:1]


# the sections that report other works: a setting read there is theirs unless "we" state it
_BACKGROUND = re.compile(r"introduction|related|background|prior work|literature", re.I)


# a card's bare model code ("V100", "K40") is a card only where the sentence speaks of one:
# "trained on the XML files H18 to H23" names files
_BARE_CODE = re.compile(r"[A-Z]\d{2,3}")
_CARD_WORDS = re.compile(r"\b(?:GPUs?|NVIDIA|Tesla|cards?|graphics|accelerators?)\b", re.I)


def own_settings(aspect: str, found: list[Finding]) -> list[Finding]:
    """The findings the paper states of its own experiments: none read in the introduction or
    related work ("the full computational potential of TPU", "a data set of 4500hrs") unless
    the sentence speaks of "we" or "our"; no card by a bare code in a sentence naming none."""
    return [
        f
        for f in found
        if (not _BACKGROUND.search(f.section.split(" > ")[0]) or FIRST_PERSON.search(f.quote))
        and not (
            aspect == "hardware"
            and _BARE_CODE.fullmatch(f.value)
            and not _CARD_WORDS.search(f.quote)
        )
    ]


# stochastic gradient descent named bare: the family an adaptive optimizer belongs to ("we
# train using stochastic gradient descent with Adam"), not a second optimizer beside it
_FAMILY = re.compile(r"(?:mini-?batch\s+)?(?:SGD|stochastic\s+gradient\s+descen[dt])", re.I)


def specific(aspect: str, found: list[Finding]) -> list[Finding]:
    """The values that say the setting's value: no bare stochastic gradient descent beside a
    named optimizer, and no numeric setting named without a number ("dropout") beside its
    number."""
    if aspect == "optimizer" and any(not _FAMILY.fullmatch(f.value) for f in found):
        return [f for f in found if not _FAMILY.fullmatch(f.value)]
    if aspect in NUMERIC + ("gradient clipping",) and any(_NUMBER.search(f.value) for f in found):
        return [f for f in found if _NUMBER.search(f.value)]
    return found


# a phrase cut at a decimal point by a reading that stops at the first "." ("the learning rate
# is multiplied by 0" of "by 0.5 when ..."): the number and the clause's words after it
_CUT_AT_POINT = re.compile(r"\.\d+(?:[^.;]|\.(?=\d)){0,60}")


def uncut(f: Finding) -> Finding:
    """A phrase value that ends inside a decimal number, read on to the end of its clause."""
    at = f.quote.find(f.value)
    if at < 0 or not re.search(r"[A-Za-z]\D*\d$", f.value):
        return f
    m = _CUT_AT_POINT.match(f.quote, at + len(f.value))
    return replace(f, value=(f.value + m.group()).rstrip(" ,")) if m else f


# a number of the value's own, not the digit of a name ("L2 regularization")
_NUMBER = re.compile(r"(?<![A-Za-zℓ])\d")


# a sentence that trains something: its count of epochs is the training's
_TRAINS = re.compile(
    r"\b(?:train\w*|fine-?tun\w*|learn\w*|optimi[sz]\w*|converg\w*|run|runs|ran|epochs?\s+"
    r"(?:is|are|was|were)|set|fixed|maximum|max|stop\w*|iterat\w*|updat\w*)\b",
    re.I,
)
# a batch a speed is measured on, not one the model is trained on
_TIMED = re.compile(r"\b(?:inference|latency|throughput|speed|seconds|runtime|decod\w+)\b", re.I)


def ranked(aspect: str, found: list[Finding]) -> list[Finding]:
    """Findings of a count of epochs in a sentence that trains nothing, and of a batch size a
    speed is measured with, kept only when they are all the paper says (then scored below
    the rest): beside the training's own value they name another run's."""
    kept, aside = [], []
    for f in found:
        prose = "|" not in f.quote  # a table's row is read by its label, not by its words
        if prose and (
            (aspect == "epochs" and not _TRAINS.search(f.quote))
            or (aspect == "batch size" and _TIMED.search(f.quote))
        ):
            aside.append(replace(f, score=f.score - 3))  # below every reading of the setting
        else:
            kept.append(f)
    return kept or aside
