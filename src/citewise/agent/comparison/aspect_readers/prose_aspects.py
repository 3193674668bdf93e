"""Aspects stated in prose rather than as settings: task, method, main result, limitations.

Each is a cue ('we propose', 'the aim of this study', 'outperforms', 'a limitation') whose
clause, cut at a word boundary, is the value; the sentence is the quote.
"""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers import method_statements, prose_headline
from citewise.agent.comparison.aspect_readers.abstract_parts import (
    PART_ASPECTS,
    abstract_part,
    part_sentence,
)
from citewise.agent.comparison.aspect_readers.matrix_cells import (
    CITING_PENALTY,
    alternation,
    cites_others,
    clause_continues,
    clause_end,
    complete_word,
    in_sections,
    shorten,
)
from citewise.agent.comparison.aspect_readers.prose_headline import (
    headline,
    main_clause,
    reported_finding,
)
from citewise.agent.comparison.aspect_readers.prose_limitations import (
    FUTURE_CUE,
    FUTURE_WORK_CUE,
    PLAN_CUE,
    PLAN_VERB,
    RELEASES,
    about_cited,
    announces,
    limitation_clause,
    limits_own_work,
    listed_plans,
    own_shortcoming,
    remedied,
    result_shortcomings,
    states_limitations,
    stating_weight,
)
from citewise.agent.comparison.extraction import Finding, Unit

_CLAUSE = r"(?P<v>(?:[^.;:]|[.:](?=\d)){8,400})"  # "81.1M" and "1:2" do not end it
# a Latin abbreviation's points end no clause: "(e.g., two news corpora)", "i.e. its ..."
_ABBREVIATION = r"\b(?:e\.g\.|i\.e\.|cf\.|viz\.|et al\.)"
_SUBJECT = (
    r"(?:we|I|this (?:paper|article|study|work|review|thesis|proposal)|"
    r"the (?:present|current) (?:study|paper|work|article)|here we)"
)
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
            rf"\b{_SUBJECT}\s+(?:will\s+)?{method_statements.PROPOSAL_VERBS}\s+{_CLAUSE}",
            re.I,
        ),
        method_statements.STUDY_CUE,  # what a study compares, ranked after the proposal
        re.compile(  # "we use a simple method based on bidirectional LSTMs to ..."
            r"\b(?:we|I)\s+(?:use|used|employ|employed|adopt|adopted|apply|applied|follow|followed)\s+"
            r"(?P<v>(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:method|approach|model|framework|algorithm|"
            r"architecture|technique|procedure|pipeline)\b(?:[^.;:]|\.(?=\d)){0,150})",
            re.I,
        ),
        re.compile(  # the concrete means, with its verb: "integrate a language model for ..."
            rf"\b(?:we|I)\s+(?:also\s+|then\s+|further\s+)?(?P<v>(?:{alternation('means_verbs')})\s+"
            # the object, not a pronoun, a second verb ("we build and analyze") nor a preposition
            # ("the corpora we use in NLP": the object stood before the verb)
            r"(?!(?:this|these|that|those|it|them|and|or|but|which|here|below|above|in|on|at|"
            r"for|to|of|from|by|into|within|during)\b|[a-z]+,)"
            r"(?:a|an|the|two|three|several|our)?\s*(?:[\w-]+\s+){0,4}?[\w-]+"
            r"(?:[^.;:]|\.(?=\d)){3,200})",
            re.I,
        ),
        re.compile(
            rf"(?P<v>\b(?:a\s+)?(?:(?:{alternation('study_designs')})|"
            rf"(?:{alternation('design_qualifiers')})\s+(?:\w+\s+){{0,3}}?"
            rf"(?:{alternation('design_nouns')}))\b[^.;:]{{0,90}})",
            re.I,
        ),
        *method_statements.LATE_METHOD_CUES,  # agent/comparison/aspect_readers/method_statements.py
    ],
    "main result": [
        re.compile(
            r"\b(?:results?|findings?|experiments|tests|evaluations?|analys[ie]s)\b"
            rf"(?:{_ABBREVIATION}|[^.;:]|\.(?=\d)){{0,100}}?"  # "on five corpora (e.g., ...) show"
            r"\b(?:(?:show|suggest|indicate|demonstrate|reveal|confirm)(?:ed|s)?|shown)\s+"
            rf"(?:that,?\s+)?{_CLAUSE}",  # "results have shown that" (11 of 315 pool openings)
            re.I,
        ),
        re.compile(  # "we show that Y"; "we compare X and find that Y" (the subject said once)
            rf"\b{_SUBJECT}\s+{prose_headline.SECOND_VERB}(?:(?:has|have)\s+(?=shown|demonstrated))?"
            # "we also find that Y"; not "we also show how ...", "we also demonstrated outputs"
            rf"(?:(?:{prose_headline.finding_adverbs()})\s+(?=[a-z]+\s+that\b))?"
            r"(?:finds?|found|shows?|showed|shown|demonstrat(?:es?|ed)|observes?|observed)\s+"
            rf"(?:that,?\s+)?{_CLAUSE}",
            re.I,
        ),
        re.compile(  # a whole sentence whose verb reports a result
            # its verb, not a participle after a determiner ("the achieved accuracy of 71.2 is ...")
            r"^(?P<v>[A-Z](?:[^.;:]|\.(?=\d)){0,80}(?<!\bthe )(?<!\ban )(?<!\ba )(?<!\bour )"
            r"(?<!\bits )(?<!\btheir )(?<!\bthis )(?<!\bthese )"
            r"\b(?:outperform|achiev|improv|surpass|reduc|increas|"
            rf"decreas|boost|exceed|halv)(?:s|es|ed)?\b{prose_headline.BY_MEANS}"
            r"(?:[^.;:]|\.(?=\d)){3,200})"
        ),
        re.compile(  # "this approach yields improvements of 1.3 BLEU over ..."
            r"\b(?:yield(?:s|ed)?|give(?:s|n)?|gave|lead(?:s)? to|led to|result(?:s|ed)? in|"
            r"bring(?:s)?|brought)\s+(?P<v>(?:an?\s+|significant\s+|consistent\s+|large\s+)*"
            r"(?:improvements?|gains?|increases?|reductions?|speed-?ups?)\s+(?:of|in|on|by)\s+"
            r"(?:[^.;:]|\.(?=\d)){3,200})",
            re.I,
        ),
        re.compile(  # a comparison stated as the finding: "Compared to X, Y is more ... but ..."
            r"^(?P<v>(?:Compared (?:to|with)|Unlike|In contrast to)\b[^.;:]{3,120},\s*[^.;:]{0,120}"
            r"\b(?:more|less|better|worse|higher|lower|faster|slower)\b(?:[^.;:]|\.(?=\d)){0,160})"
        ),
    ],
    "limitations": [
        re.compile(
            rf"\b(?:a|one|another|the|main|major|key|several|some)\s+(?:\w+\s+)?(?:limitations?|"
            rf"drawbacks?|weakness(?:es)?|shortcomings?|obstacles?|downsides?|disadvantages?)\s+"
            rf"(?:of\s+(?:this|our|the)\s+(?:[\w-]+\s+){{1,2}}?(?:(?:that|which)\s+\w+\s+\w+\s+)?)?"
            rf"(?:is|was|are|were|include[sd]?|lies? in)\s+(?:that\s+)?{_CLAUSE}",
            re.I,
        ),
        re.compile(  # the cue is part of the cell: "limited by the coverage of ..."
            r"\b(?:is|are|was|were)\s+(?P<v>(?:limited (?:by|to|in)|not (?:able|designed) to)"
            r"\s+(?:[^.;:]|[.:](?=\d)){8,400})",
            re.I,
        ),
        FUTURE_WORK_CUE,  # the sentence that names future work (prose_limitations.py)
        re.compile(
            r"(?<!not )(?<!never )\b(?:suffer(?:s|ed)? (?:from )?|comes? at the cost of |"
            r"shortcomings? in |"
            rf"it (?:may|might) be possible that ){_CLAUSE}",
            re.I,
        ),
        re.compile(  # a plan stated without the words "future work", where papers close
            r"\b(?:we|I)\s+(?:also\s+|further\s+)?(?:would\s+(?:also\s+)?like|plan|intend|hope|aim)"
            r"\s+to\s+"
            rf"(?!(?:{alternation('said_not_planned')})\b)"
            r"(?P<v>(?:further\s+|also\s+)?[a-z]+\b(?:[^.;:]|\.(?=\d)){8,300})",
            re.I,
        ),
        re.compile(
            r"(?:^|, )[Hh]owever,?\s+(?P<v>[^.;:]{0,200}?\b"
            rf"(?:{alternation('shortcoming_words')})\b[^.;:]{{0,200}})"
        ),
    ],
}
# the words that name future work; a sentence naming it states the paper's own plan
_FUTURE_WORK = re.compile(
    r"\b(?:future (?:work|studies|research)|in the future|further work)\b", re.I
)
_INTRODUCTION = re.compile(r"^(?:[\dIVX.]+\s*)?(?:introduction|motivation)$", re.I)
_SECTIONS = {
    "task": re.compile(r"abstract|introduction|background|objective|motivation", re.I),
    "method": re.compile(r"abstract|introduction|method|approach|design|motivation", re.I),
    "main result": re.compile(r"abstract|result|conclusion|evaluation|finding", re.I),
    "limitations": re.compile(r"limitation|discussion|conclusion|future", re.I),
}


# a clause that is no value: starts mid-phrase ("address, the algorithm ...")
_FRAGMENT = re.compile(r"^(?:[a-z]+,|[,)\]]|(?:and|or|but|which|that|here|below|above)\b)")
# a task or method stated where a paper opens (abstract, introduction, or its first fifth);
# "we present ... in Table 3" in a results section is neither
_OPENING_SHARE = 0.2
# a sentence that announces the limitations the next sentence states
_ANNOUNCES = re.compile(
    r"\b(?:note|acknowledge|mention|discuss|consider|recogni[sz]e)\s+(?:its|our|the|some|several|"
    r"a few|two|three|certain)\s+(?:\w+\s+)?(?:limitations?|shortcomings?|weaknesses)\b|"
    r"\b(?:this|our|the present|the current)\s+(?:study|work|paper|analysis|approach|method|review)"
    r"\s+(?:has|had|have|is subject to)\s+(?:\w+\s+){0,2}?(?:limitations?|shortcomings?)\b|"
    r"\blimitations?\s+of\s+(?:this|our|the present|the current)\s+(?:study|work|paper|analysis|"
    r"approach|method|review)\b",
    re.I,
)
# a result that names no finding: "experiments demonstrate the effectiveness of our method"
_VAGUE = re.compile(rf"^(?:the\s+)?(?:{alternation('vague_results')})\s+(?:of|and)\b", re.I)
# what a result claims: a comparison, a change, a number
_CLAIMS = re.compile(
    rf"\d|\b(?:{alternation('claim_words')}|{prose_headline.finding_words()})\b", re.I
)


def prose_findings(aspect: str, paper_units: list[Unit]) -> list[Finding]:
    """Clauses after the aspect's cues, preferring the sections such statements live in."""
    found = []
    share = max(len(paper_units), 1)
    announced = ""  # the block whose sentence announced limitations
    part = ("", "")  # (block, aspect) of a structured abstract's label just read ("Results.")
    admitted: list[Finding] = []  # shortcomings the paper admits without a limitation cue
    voiced = False  # the abstract has spoken of the paper's own work
    gaps = remedied(paper_units) | about_cited(paper_units) if aspect == "limitations" else set()
    for n, unit in enumerate(paper_units):
        if unit.kind == "table":
            continue
        labelled = abstract_part(unit, n / share)
        if labelled:
            aspect_of, rest = labelled
            part = (unit.block_id, aspect_of)
            if not rest:
                continue
        if aspect in PART_ASPECTS and part == (unit.block_id, aspect):
            part = ("", "")
            found += part_sentence(aspect, unit, labelled[1] if labelled else unit.text)
            continue
        in_section = bool(_SECTIONS[aspect].search(unit.section))
        if aspect in ("task", "method") and not in_section and n / share > _OPENING_SHARE:
            continue
        if aspect == "limitations":
            if states_limitations(unit.section) or announced == unit.block_id:
                found += _stated_limitation(unit)
                announced = ""
                continue
            announced = unit.block_id if _ANNOUNCES.search(unit.text) and n not in gaps else ""
            if _INTRODUCTION.search(unit.section.split(" > ")[-1]) or n in gaps:
                continue  # the gap a paper opens with, or one it goes on to remedy
            plan = PROSE_CUES[aspect][PLAN_CUE].search(unit.text)  # "we plan to compare to [3]"
            if cites_others(unit.text) and not (_FUTURE_WORK.search(unit.text) or plan):
                continue  # others' drawbacks; a plan citing the work it builds on is the paper's
        if aspect == "main result":  # the field's state an abstract opens with is no finding
            if prose_headline.background(unit, voiced):
                continue
            voiced = voiced or prose_headline.own_voice(unit)
        cue = _cue_finding(aspect, unit, in_section, 1.0 - n / share)
        if cue is not None:
            found.append(cue)
        elif aspect == "limitations" and in_section:
            own = own_shortcoming(unit, in_section, 1.0 - n / share)
            own = [f for f in own if not _FRAGMENT.match(f.value)]
            admitted += own or result_shortcomings(unit, 1.0 - n / share, closing=True)
        elif aspect == "limitations":  # where the paper reports its results
            admitted += result_shortcomings(unit, 1.0 - n / share)
    if aspect == "limitations":  # "while the other cannot", "show two things": a fragment
        found, admitted = (
            [f for f in found if _says_enough(f)],
            [f for f in admitted if _says_enough(f)],
        )
    return found or admitted  # an admitted shortcoming only where no limitation is stated


MIN_LIMITATION_WORDS = 4  # odd half: all 3 limitations cells with fewer were fragments, none right
_WORD = re.compile(r"[^\W\d_]{2,}|\d+")  # a one-letter cut-off ("e" of "e.g.") is no word


def _says_enough(finding: Finding) -> bool:
    """Whether a limitations value is long enough to state a shortcoming: a clause cut to a
    few words ("limited in size, e") names neither what falls short nor how."""
    return len(_WORD.findall(finding.value)) >= MIN_LIMITATION_WORDS


def _cue_finding(aspect: str, unit: Unit, in_section: bool, early: float) -> Finding | None:
    """The clause after the first of the aspect's cues the sentence matches, scored by the
    cue's rank, the section and how early the sentence stands (`early`: 1 at the start)."""
    for rank, pattern in enumerate(PROSE_CUES[aspect]):
        m = pattern.search(unit.text)
        if not m:
            continue
        start = m.start("v")
        # a cue's clause is taken whole (a bounded match may stop mid-clause), then shortened
        end = clause_end(unit.text, complete_word(unit.text, m.end("v")))
        if aspect == "main result" and prose_headline.said_once(m, unit.section):
            continue  # "we did X and found that Y" outside the sections that sum up
        if aspect == "main result":  # "we build X and show that Y": Y; "X holds: Y" runs on
            start = main_clause(unit.text, reported_finding(unit.text, start, end), end)
            end = prose_headline.past_colon(unit.text, end)
        if aspect == "limitations":
            span = _limitation_span(unit.text, start, end, rank, in_section)
            if span is None:
                continue
            start, end = span
        value, was_cut = shorten(unit.text[start:end].strip(" ,"))
        if len(value.split()) < 2 or value not in unit.text or _FRAGMENT.match(value):
            continue
        if aspect in ("task", "method", "main result") and prose_headline.points_at(aspect, value):
            continue  # "we show generations ... in Table 4" points at a finding
        if aspect == "method" and method_statements.not_the_method(m, unit.text, rank):
            continue  # a roadmap ("in Section 2 we present ..."), earlier work's proposal
        if aspect == "limitations" and RELEASES.search(value):
            continue  # "we will release a model": a plan, not a shortcoming
        # the claim word may stand past the cell's cut: "X requires less effort and produces
        # reasonably accurate results" shortened before "accurate" still claims it
        claim = unit.text[start:end] if was_cut else value
        if aspect == "main result" and (not _CLAIMS.search(claim) or _VAGUE.match(value)):
            continue  # "BERT is a Markov random field", "the effectiveness of X": no finding
        stop = unit.text.find(value, start) + len(value)
        was_cut = was_cut or clause_continues(unit.text, stop)
        # the abstract and introduction state tasks and methods
        step = method_statements.cue_step(rank) if aspect == "method" else rank
        score = 2.0 - 0.3 * step + (1.0 if in_section else 0.0) + 0.5 * early
        if aspect == "main result" and was_cut and in_sections(unit.section, "headline_sections"):
            score += prose_headline.number_past_cut(claim, value)  # the cell will show it
        if aspect == "method" and rank == MEANS_CUE and not _OPENING.search(unit.section):
            continue  # "we use Adam" in a setup section is a setting, not the method
        if aspect == "limitations":
            score += _limitation_bonus(unit, rank)
        closing_cue = rank >= len(PROSE_CUES[aspect]) - 2  # a plan, a "however"
        if (
            aspect == "limitations"
            and closing_cue
            and not in_section
            and not (rank == PLAN_CUE and _FUTURE.search(unit.text))
        ):
            continue  # a 'however' counts only where papers weigh their work, a plan anywhere
            # it names the future ("we plan to extend this in future versions")
        return Finding(aspect, value, unit.text, unit.page, unit.block_id, unit.section, score,
                       was_cut)  # fmt: skip
    if aspect == "main result" and in_sections(unit.section, "headline_sections"):
        return headline(unit, early) or prose_headline.novelty_claim(unit, early)
    return None


def _limitation_span(
    text: str, start: int, end: int, rank: int, in_section: bool
) -> tuple[int, int] | None:
    """Where a limitation cue's value stands in its sentence, or None when it is no shortcoming
    of the paper's own work: "while X, Y falls short" gives Y (unless X admits it); "most
    corpora are limited to English", "prior approaches suffer from" give None; a plan outside
    the closing sections must name its verb, and a list of plans gives its span."""
    start = limitation_clause(text, start, end)
    if not limits_own_work(text, start, rank):
        return None
    if rank != FUTURE_CUE:
        return start, end
    if not in_section and not PLAN_VERB.search(text[start:end]):
        return None
    return listed_plans(text, start, end)


def _limitation_bonus(unit: Unit, rank: int) -> float:
    """What lifts a limitation's score: a limitations section, a plan citing what it builds on
    (the paper's own plan), a closing section (what a paper sums up where it closes)."""
    bonus = 1.0 if "limitation" in unit.section.lower() else 0.0
    if rank in (FUTURE_CUE, PLAN_CUE) and cites_others(unit.text):
        bonus += CITING_PENALTY
    if _CLOSING.search(unit.section.split(" > ")[0]):
        bonus += CLOSING_SCORE
    return bonus


_FUTURE = re.compile(r"\bfuture\b", re.I)
_CLOSING = re.compile(r"\b(?:conclusions?|concluding|future|summary)\b", re.I)
CLOSING_SCORE = 0.5  # above a limitation or plan named in passing while results are discussed
MEANS_CUE = 3  # the method cue naming the means ("we integrate ..."), said where a paper opens
_OPENING = re.compile(r"abstract|introduction", re.I)


def _stated_limitation(unit: Unit) -> list[Finding]:
    """A sentence of a limitations section is a limitation, cue or not: the sentence is the
    value (shortened), scored above drawbacks named elsewhere."""
    value, was_cut = shorten(unit.text.rstrip(" ."))
    if len(value.split()) < 3 or value not in unit.text or announces(unit.text):
        return []  # "to reveal the limitations of the models, we analyze ...", "as follows:"
    score = 3.0 + stating_weight(unit.text)  # the sentence admitting the shortcoming first
    return [Finding("limitations", value, unit.text, unit.page, unit.block_id, unit.section, score,
                    was_cut)]  # fmt: skip
