"""Settings read the way a reader reads them, beside agent/comparison/patterns.py's one regex an
aspect.

- software (agent/comparison/settings/setup_software.py, re-exported here);
- code availability (agent/comparison/settings/setup_code.py);
- the phrasings counted over the QASPER pool (agent/comparison/settings/setup_phrasings.py);
- the phrasings agent/comparison/patterns.py leaves out (agent/comparison/settings/setup_extra.py:
  compute, a schedule written the other way round, "no warmup", dropout named without a rate ...).
"""

from __future__ import annotations

import re
from dataclasses import replace

from citewise.agent.comparison.extraction import Finding, Unit
from citewise.agent.comparison.settings.setup_code import code_findings
from citewise.agent.comparison.settings.setup_extra import extra_findings
from citewise.agent.comparison.settings.setup_phrasings import word_alternation
from citewise.agent.comparison.settings.setup_reading import (
    linked_findings,
    names_another,
    readings,
    respectively_findings,
    table_findings,
)
from citewise.agent.comparison.settings.setup_software import AS_EXAMPLE, software_findings

# learn_software and software_names are re-exported: matrix.py learns names over the library
from citewise.agent.comparison.settings.setup_software import learn_software as learn_software
from citewise.agent.comparison.settings.setup_software import software_names as software_names
from citewise.agent.comparison.settings.setup_values import (
    formula_findings,
    own_settings,
    per_item,
    ranked,
    specific,
    uncut,
)

# a name with a version read as a program ("SQuAD v1.1", "Universal Dependency v2.3") in a
# sentence about data: a dataset's release, not software
_VERSIONED = re.compile(r"[A-Z][A-Za-z]+\s+v\d+(?:\.\d+)+")
_VERSIONED_DATA = re.compile(
    r"\b(?:datasets?|data|corpus|corpora|treebanks?|benchmarks?)\b"
    # not the data a program processes: "PDFs of the corpus using X v3.0"
    r"(?!.*\b(?:using|with|by|via|through)\b)",
    re.I | re.S,
)


def settings_findings(
    aspect: str, paper_units: list[Unit], title: str, software: set[str], found: list[Finding]
) -> list[Finding]:
    """`found` (agent/comparison/patterns.py's findings) with what this module reads for the
    aspect."""
    if aspect == "software":
        data = {f.value for f in found if _VERSIONED.fullmatch(f.value)
                and _VERSIONED_DATA.search(f.quote, 0, max(f.quote.find(f.value), 0))}  # fmt: skip
        found = [f for f in found if f.value not in data]
        return found + software_findings(paper_units, software)
    if aspect == "code availability":
        return code_findings(paper_units, title, found)
    together = readings(paper_units)
    found = [f for f in found if aspect not in together.get(f.quote, {})]
    found += respectively_findings(aspect, paper_units) + table_findings(aspect, paper_units)
    # a sentence whose only reading was no value (a countdown) is read again by the others
    found = _values_of_the_setting(aspect, found)
    quoted = {f.quote for f in found}
    found += [f for f in linked_findings(aspect, paper_units) if f.quote not in quoted]
    found += extra_findings(aspect, paper_units, found)
    found = own_settings(
        aspect, ranked(aspect, per_item(aspect, _values_of_the_setting(aspect, found)))
    )
    return specific(aspect, found) or formula_findings(aspect, paper_units)


# "reduced if the score does not improve after 3 epochs", "a patience of 10 epochs", "every 2
# epochs": a count of epochs that times something else, not the length of training
# (or the steps a warmup lasts: "for the first 3000 steps", "warms up for 8,000 steps")
_COUNTDOWN = re.compile(
    r"\b(?:after|every|each|within|patience(?:\s+of)?|the\s+first|(?:for\s+)?more\s+than|"
    r"warm(?:s|ed|ing)?[\s-]?up\s+(?:for|over|of))\s+$",
    re.I,
)
# a number a unit of its own follows counts something else: "halving the learning rate 5
# times", "the dropout of 2 layers", "a step-size of 4 ms"
_OTHER_UNIT = re.compile(rf"\s*(?:{word_alternation('other units')})\b", re.I)
# a value cut inside its number: "0.1 and 400" of "0.1 and 4000 warm-up steps", "5" of
# "$lr=5\cdot 10^{-5}$"
_CUT_NUMBER = re.compile(r"\d|\s*\\(?:cdot|times)|\s*[×x]\s*10")
_LIST_ITEM = re.compile(r"^(?P<first>.+?)\s*(?:,|\band\b|\bor\b)")
_CHANGED_TO = re.compile(
    r"\b(?:reduc|decay|decreas|halv|multipl|lower|drop|anneal)\w*\s+(?:\w+\s+){0,3}?"
    r"learning[- ]rates?\s+(?:to|by)\s+$",
    re.I,
)
_RATES = ("learning rate", "dropout", "weight decay", "gradient clipping")
# the rest of an ACL Anthology ID ("P15-1137", "K18-3008"), which cites a paper by venue and year
_ANTHOLOGY_ID = re.compile(r"-\d{4}\b")
# a citation key ("serban-EtAl:2016:P16-1"): an Anthology ID after its year, not a card
_CITATION_KEY = re.compile(r":\d{4}:$")
# cards a run imitates by delaying its updates ("to simulate 500K steps with 8 GPUs")
_SIMULATED = re.compile(r"\bsimulat\w*\s+(?:[\w-]+\s+){0,5}?$", re.I)
# people an annotation study trains: "the annotators were trained for about 8 weeks"
_PEOPLE_TRAINED = re.compile(
    rf"\b(?:{word_alternation('trained people')})\s+(?:were|was|are|is|had\s+been|have\s+been)\s+"
    r"(?:\w+\s+)?trained\b",
    re.I,
)


# another work's settings: a sentence with no "we"/"our" whose subject is a cited work or its
# authors ("Smith et al. (2019) used a learning rate of 0.1", "They trained for 10 epochs"), or
# a value the sentence gives to a cited work ("33 epochs for both BIBREF7 and BIBREF2", "unlike
# 30 epochs"); "following BIBREF3, we use ..." stays the paper's own
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|ours)\b", re.I)
_CITED_SUBJECT = re.compile(
    r"^\W*(?:[A-Z][\w-]+(?:\s+(?:and|&)\s+[A-Z][\w-]+)?\s+et\s+al\.?|BIBREF\d+|They\b|"
    r"The\s+authors\b|Their\b)"
)
_GIVEN_TO_OTHERS = re.compile(
    r"\s+(?:for|of|in|by|from)\s+(?:both\s+)?(?:BIBREF\d+|[A-Z][\w-]+\s+et\s+al)"
)
_CONTRASTED = re.compile(r"\b(?:unlike|whereas|as\s+opposed\s+to)\s+(?:\w+\s+){0,2}$", re.I)


def _others(f: Finding, at: int) -> bool:
    """Whether the finding is another work's setting rather than the paper's own."""
    if _CITED_SUBJECT.match(f.quote) and not _FIRST_PERSON.search(f.quote):
        return True
    end = at + len(f.value)
    return bool(_GIVEN_TO_OTHERS.match(f.quote, end) or _CONTRASTED.search(f.quote[:at]))


def _position(quote: str, value: str) -> int:
    """Where the value stands as a number of its own ("500" in "set to 500", not in "25000")."""
    m = re.search(rf"(?<![\d.]){re.escape(value)}(?!\d)", quote)
    return m.start() if m else max(quote.find(value), 0)


def _values_of_the_setting(aspect: str, found: list[Finding]) -> list[Finding]:
    """The findings that are values of the setting: a count timing something else, a number
    another unit follows and a value cut inside its number left out; a list whose last item
    belongs to the next setting ("batch size 32, and 35% dropout") or is cut inside its number
    ("learning rate 0.1 and 4000 warm-up steps") cut to its first item."""
    out = []
    for f in found:
        f = uncut(f)
        at = _position(f.quote, f.value)
        end = at + len(f.value)
        item = _LIST_ITEM.match(f.value)
        cut = _CUT_NUMBER.match(f.quote, end)
        if item and (cut or names_another(f.quote[end:], aspect)):
            f = replace(f, value=item.group("first"))
        elif cut:
            continue
        if aspect == "epochs" and _COUNTDOWN.search(f.quote[:at]):
            continue
        if _others(f, at):
            continue
        if aspect in _RATES and _OTHER_UNIT.match(f.quote, end):
            continue
        if aspect == "hardware" and (
            _ANTHOLOGY_ID.match(f.quote, end) or _CITATION_KEY.search(f.quote[:at])
        ):
            continue  # "P15" of "P15-1137": a paper cited by its ACL Anthology ID, not a card
        if aspect == "optimizer" and AS_EXAMPLE.search(f.quote[:at]):
            continue  # "optimized by any SGD method, e.g., Adam, Adadelta": kinds, not the one used
        if aspect == "hardware" and _SIMULATED.search(f.quote[:at]):
            continue  # "delaying updates to simulate 4 GPUs": cards the run stands in for
        if aspect == "compute" and _PEOPLE_TRAINED.search(f.quote[:at]):
            continue  # the time people were trained for, not a model
        if aspect == "learning rate" and _CHANGED_TO.search(f.quote[:at]):
            continue  # "decay the learning rate to 0.001": a schedule's step, not the rate
        out.append(f)
    return out
