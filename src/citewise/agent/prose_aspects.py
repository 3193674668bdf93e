"""Aspects stated in prose rather than as settings: task, method, main result, limitations.

Each is a cue ('we propose', 'the aim of this study', 'outperforms', 'a limitation') whose
clause, cut at a word boundary, is the value; the sentence is the quote.
"""

from __future__ import annotations

import re

from citewise.agent.extraction import Finding, Unit
from citewise.agent.matrix_cells import (
    clause_continues,
    clause_end,
    complete_word,
    in_sections,
    shorten,
)

_CLAUSE = r"(?P<v>(?:[^.;:]|[.:](?=\d)){8,400})"  # "81.1M" and "1:2" do not end it
_SUBJECT = r"(?:we|this (?:paper|article|study|work|review)|the (?:present|current) study|here we)"
PROSE_CUES: dict[str, list[re.Pattern[str]]] = {
    "task": [
        re.compile(
            r"\b(?:the\s+)?(?:aims?|purpose|objectives?|goals?)\s+of\s+(?:this|the|our)\s+"
            rf"(?:study|review|paper|work|analysis)\s+(?:is|was|were|are)\s+(?:to\s+)?{_CLAUSE}",
            re.I,
        ),
        re.compile(
            rf"\b{_SUBJECT}\s+(?:aim(?:s|ed)? to|seek(?:s)? to|set out to|address(?:es)?|"
            r"tackle(?:s)?|focus(?:es)? on|investigate(?:s|d)?|examine(?:s|d)?|stud(?:y|ies))"
            rf"\s+{_CLAUSE}",
            re.I,
        ),
        re.compile(rf"\bthe (?:task|problem) of {_CLAUSE}", re.I),
        re.compile(
            r"\b(?:was|were) (?:performed|completed|conducted|carried out|used|undertaken)\b"
            r"[^.;:]{0,80}?\bto\s+(?P<v>(?:evaluate|assess|determine|identify|explore|"
            r"investigate|examine|understand|describe|compare|measure|estimate|aid)\b[^.;:]{5,300})",
            re.I,
        ),
    ],
    "method": [
        re.compile(
            rf"\b{_SUBJECT}\s+(?:present(?:s)?|propose(?:s)?|introduce(?:s)?|describe(?:s)?|"
            rf"develop(?:s|ed)?|construct(?:s|ed)?|design(?:s|ed)?)\s+{_CLAUSE}",
            re.I,
        ),
        re.compile(
            r"(?P<v>\b(?:a\s+)?(?:(?:systematic (?:literature )?review|meta-analysis|"
            r"semi-?structured interviews?|focus groups?|situational analysis|case study|"
            r"randomi[sz]ed controlled trial)|(?:cross-sectional|retrospective|prospective|"
            r"qualitative|quantitative|mixed[- ]methods?|observational)\s+(?:\w+\s+){0,3}?"
            r"(?:study|design|approach|analysis|methods?|survey|interviews?|trial|research "
            r"design))\b[^.;:]{0,90})",
            re.I,
        ),
    ],
    "main result": [
        re.compile(
            rf"\b(?:results|findings|experiments|evaluations?)\s+(?:show|suggest|indicate|"
            rf"demonstrate|reveal)(?:ed|s)?\s+(?:that\s+)?{_CLAUSE}",
            re.I,
        ),
        re.compile(
            rf"\b{_SUBJECT}\s+(?:find|found|show|showed|demonstrate|observe|observed)\s+"
            rf"(?:that\s+)?{_CLAUSE}",
            re.I,
        ),
        re.compile(  # a whole sentence whose verb reports a result
            r"^(?P<v>[A-Z](?:[^.;:]|\.(?=\d)){0,80}\b(?:outperform|achiev|improv)(?:s|es|ed)\b"
            r"(?:[^.;:]|\.(?=\d)){3,200})"
        ),
    ],
    "limitations": [
        re.compile(
            rf"\b(?:a|one|the|main|major|key|several|some)\s+(?:\w+\s+)?(?:limitations?|"
            rf"drawbacks?|weakness(?:es)?)\s+(?:of\s+(?:this|our|the)\s+\w+\s+)?"
            rf"(?:is|was|are|were|include[sd]?)\s+(?:that\s+)?{_CLAUSE}",
            re.I,
        ),
        re.compile(
            r"\b(?:is|are|was|were)\s+(?:limited (?:by|to|in)|not (?:able|designed) to)"
            rf"\s+{_CLAUSE}",
            re.I,
        ),
        re.compile(  # the sentence that names future work
            r"^(?P<v>[^.;:]*\b(?:future work|in the future)\b[^.;:]*?\b(?:will|should|could|"
            r"includes?)\s+(?:[^.;:]|\.(?=\d)){8,300})",
            re.I,
        ),
        re.compile(
            rf"\b(?:suffer(?:s|ed)? (?:from )?|comes? at the cost of |shortcomings? in |"
            rf"it (?:may|might) be possible that ){_CLAUSE}",
            re.I,
        ),
        re.compile(
            r"(?:^|, )[Hh]owever,?\s+(?P<v>[^.;:]{0,200}?\b(?:not|cannot|no|lack\w*|longer|"
            r"poor\w*|loss|difficult\w*|fail\w*|limited|bias\w*|insufficient|slow\w*|"
            r"caution|costly|errors?|only)\b[^.;:]{0,200})"
        ),
    ],
}
_SECTIONS = {
    "task": re.compile(r"abstract|introduction|background|objective", re.I),
    "method": re.compile(r"abstract|introduction|method|approach|design", re.I),
    "main result": re.compile(r"abstract|result|conclusion|evaluation|finding", re.I),
    "limitations": re.compile(r"limitation|discussion|conclusion|future", re.I),
}


# a clause that is no value: starts mid-phrase ("address, the algorithm ...")
_FRAGMENT = re.compile(r"^(?:[a-z]+,|[,)\]]|(?:and|or|but|which|that)\b)")


def prose_findings(aspect: str, paper_units: list[Unit]) -> list[Finding]:
    """Clauses after the aspect's cues, preferring the sections such statements live in."""
    found = []
    share = max(len(paper_units), 1)
    for n, unit in enumerate(paper_units):
        if unit.kind == "table":
            continue
        in_section = bool(_SECTIONS[aspect].search(unit.section))
        if aspect == "limitations" and in_sections(unit.section, "limitation_sections"):
            found += _stated_limitation(unit)
            continue
        for rank, pattern in enumerate(PROSE_CUES[aspect]):
            m = pattern.search(unit.text)
            if not m:
                continue
            start = m.start("v")
            # a cue's clause is taken whole (a bounded match may stop mid-clause), then shortened
            end = clause_end(unit.text, complete_word(unit.text, m.end("v")))
            value, was_cut = shorten(unit.text[start:end].strip(" ,"))
            if len(value.split()) < 2 or value not in unit.text or _FRAGMENT.match(value):
                continue
            stop = unit.text.find(value, start) + len(value)
            was_cut = was_cut or clause_continues(unit.text, stop)
            early = 1.0 - n / share  # the abstract and introduction state tasks and methods
            score = 2.0 - 0.3 * rank + (1.0 if in_section else 0.0) + 0.5 * early
            if aspect == "limitations" and "limitation" in unit.section.lower():
                score += 1.0
            last_cue = rank == len(PROSE_CUES[aspect]) - 1
            if aspect == "limitations" and last_cue and not in_section:
                continue  # a 'however' counts only where papers weigh their work
            found.append(
                Finding(
                    aspect,
                    value,
                    unit.text,
                    unit.page,
                    unit.block_id,
                    unit.section,
                    score,
                    was_cut,
                )
            )
            break
    return found


def _stated_limitation(unit: Unit) -> list[Finding]:
    """A sentence of a limitations section is a limitation, cue or not: the sentence is the
    value (shortened), scored above drawbacks named elsewhere."""
    value, was_cut = shorten(unit.text.rstrip(" ."))
    if len(value.split()) < 3 or value not in unit.text:
        return []
    return [Finding("limitations", value, unit.text, unit.page, unit.block_id, unit.section, 3.0,
                    was_cut)]  # fmt: skip
