"""Limitations a paper states without a limitation cue: the work it plans, where it weighs its
own results."""

from __future__ import annotations

import re

from citewise.agent.ask.features import section_roles
from citewise.agent.comparison.aspect_readers.matrix_cells import (
    alternation,
    cites_others,
    clause_continues,
    clause_end,
    in_sections,
    listed,
    shorten,
    word_list,
)
from citewise.agent.comparison.aspect_readers.prose_headline import main_clause
from citewise.agent.comparison.extraction import Finding, Unit

# work a sentence says is still to be done, its own plan verb ("it remains to be seen whether
# ...", "the question ... remains unanswered", "it remains to investigate whether ..."): 4
# odd-half sentences in 4 papers, each an open problem the paper leaves
REMAINING = (
    r"(?:remains?|remained) (?:yet |still |largely )?(?:to be (?:seen|investigated|explored|"
    r"determined|answered|studied|examined|addressed|solved|tested|verified|done)|unanswered|"
    r"unexplored|open\b)|it remains to \w+"
)
# a problem a paper says stays open ("there is still ample room for improvement", "it is still an
# open problem to ...", "the most significant question that remains is why ..."): work said to
# remain, read like future work
OPEN_PROBLEM = (
    r"(?:room|opportunit(?:y|ies)|scope) for (?:\w+ )?improvements?|"
    r"(?:remains?|is still|still|are still) (?:an? )?(?:open|unsolved|unresolved) (?:problems?|"
    r"questions?|challenges?|issues?)|"
    r"questions? (?:that|which) remains?|"
    r"remains? (?:a |an )?(?:\w+ )?(?:challenge|unclear|unsolved)|"
    rf"{REMAINING}"
)
# the words that name future work, and work a paper says remains to be done ("it could
# benefit from further investigation", "more experiments on X are needed": of the 315 QASPER
# pool papers, 16% use "further research/investigation/study" and 2.9% say more work is needed
# without naming "future work"; what follows "for" a contribution, "facilitate", "encourage" is
# left out by `future_enabled`, released data by RELEASES)
FUTURE_WORDS = (
    r"future (?:works?|studies|research|directions?)|in the future|in future|further work|"
    r"(?:future|possible|potential|natural) extensions? (?:of|to) (?:this|our)|"
    r"further (?:research|investigations?|study|studies)|"
    # "Further experiments will include ...": 3 odd-half sentences in 2 papers, each its plan
    r"(?:further|future) experiments? (?:will|would|could|should|must|needs?)|"
    r"(?:more|additional|further) (?:[\w-]+ ){0,2}?[\w-]+\b[^.;:]{0,40}?\b(?:is|are|would be|"
    r"will be) (?:\w+ )?(?:needed|required|necessary|warranted)|"
    rf"{OPEN_PROBLEM}"
)
# A sentence naming future work states what the paper leaves undone, whatever its verb ("In the
# future, we also consider ...", "leaving X as our future work", "directions remain for future
# research: ..."), unless it names work the paper serves ("facilitates future research").
FUTURE_WORK_CUE = re.compile(
    r"(?:^|;\s+)"
    rf"(?=[^.;:]*\b(?:{FUTURE_WORDS})\b)"
    rf"(?![^.;:]*\b(?:{alternation('future_enabled')}|{alternation('future_announced')})"
    r"(?!\s+from\b)\s+"  # what "benefits from further study" is the work still to be done
    r"(?:(?!that\b)[\w-]+\s+){0,4}?"  # "we suggest that future work could ..." plans
    r"(?:future|further)\b)"
    r"(?P<v>[^.;:]*?\b(?:[^.;:]|\.(?=\d)){8,300})",
    re.I,
)

FUTURE_CUE = 2  # its rank among the limitations cues of prose_aspects.PROSE_CUES
# the verbs of a plan; outside the closing sections a sentence naming future work needs one
# ("allowing unspecified future research" in a method section plans nothing); "X remains an
# avenue for future work" is one (3 odd-half sentences, each a plan of the paper's; the plural
# announces the plans a section lists: "we recognize two main avenues for further research")
PLAN_VERB = re.compile(
    r"\b(?:will|should|could|might|may|would|includes?|plan|want|need|needed|hope|required|"
    rf"warranted|leave|leaves|left|is to|intend|avenue for|{REMAINING})\b",
    re.I,
)
_LIST = re.compile(r"\s*:\s*(?P<v>[^.]{12,})")


MIN_PLAN_WORDS = 4  # "Future work." names no plan


def listed_plans(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of what a future-work sentence lists after its colon ("directions remain for
    future research: (1) the fusion of ..."), else (start, end) unchanged; None when the
    sentence names no plan of its own (a heading-like "Future work.", or it ends on the colon
    that announces the next sentences)."""
    m = _LIST.match(text, end)
    if m and len(m.group("v").split()) >= 3:
        return m.start("v"), m.end("v")
    if text[end:].strip().startswith(":") or len(text[start:end].split()) < MIN_PLAN_WORDS:
        return None
    cut = _ABBREVIATED.search(text, start, end)  # "..., e.g. by exploring": the plan ends before
    if cut and text.startswith(".", end):
        end = cut.start()
    words = _FUTURE_NAMED.search(text, start, end)
    if words and words.start() - start > LATE_PLAN:  # "X could be possible, ..., but we leave
        starts = [c.end() for c in _PLAN_CLAUSE.finditer(text, start, words.start())]
        start = starts[-1] if starts else start  # this to future work as ...": that clause
        if not starts and _OPEN_NAMED.match(text, words.start()):  # "we built X and ran Y,
            start = max(start, _clause_start(text, words.start()))  # showing there is room ..."
            link = _LINK.match(text, start)  # "..., and so it remains to be seen whether ..."
            start = link.end() if link else start
    return start, end


LATE_PLAN = 70  # how far into a sentence its future-work words may stand, the value whole
_FUTURE_NAMED = re.compile(rf"\b(?:{FUTURE_WORDS})\b", re.I)
_OPEN_NAMED = re.compile(rf"\b(?:{OPEN_PROBLEM})\b", re.I)
_LINK = re.compile(r"(?:and|but|so|thus|hence)\s+(?:(?:so|thus|hence|therefore)\s+)?", re.I)
# where a clause holding the plan starts: ", but we leave ...", "; we leave ..."
_PLAN_CLAUSE = re.compile(
    r"(?:[,;]\s+(?:but|and|so|yet|while|although)?\s*)(?=we\b|our\b|this\b)", re.I
)


# a clause stopped by the point of an abbreviation ("e.g.", "i.e.", "cf.")
_ABBREVIATED = re.compile(r",?\s*\b(?:e|i|cf|viz)$")


LIMITED_CUE = 1  # "is limited to/by ...", "is not able/designed to ..." among PROSE_CUES
_OWN_REFERENCE = re.compile(rf"\b(?:{alternation('own_reference')})\b", re.I)


def limits_own_work(text: str, start: int, rank: int = LIMITED_CUE) -> bool:
    """Whether the limitations cue of rank `rank` whose value starts at `start` is said of the
    paper's own work. "limited to/by/in" must name it in its clause ("we are limited by the
    coverage of ..."): a corpus, a setting or others' work "limited to English" is not the
    paper's limitation. A drawback or "suffers from" said of a compared system ("prior
    approaches suffer from", "the vanilla model suffers from"; 3.5% of the pool papers) is that
    system's. "not able/designed to" must name it in its sentence ("our detector is not able
    to ..."): of the odd half's 10 such sentences, the 7 naming no "we/our/the model" all speak
    of others' work (a compared method, a probed model, a background system). Plans pass."""
    if rank in (FUTURE_CUE, PLAN_CUE):
        return True
    if _SERVES_FUTURE.search(text):  # "however, ... the results may serve as references for
        return False  # future work": what the paper offers, whatever its cue
    clause = text[_clause_start(text, start) : start]
    if _COMPARED.search(clause):
        return False
    if rank != LIMITED_CUE:
        return True
    if not text[start:].lower().startswith("limited"):  # "not able to": the sentence names it
        return bool(_OWN_REFERENCE.search(text))
    return bool(_OWN_REFERENCE.search(clause))


PLAN_CUE = 4  # "we plan to ..." among the limitations cues of prose_aspects.PROSE_CUES
_SERVES_FUTURE = re.compile(
    rf"\b(?:{alternation('future_enabled')})\s+(?:(?!that\b)[\w-]+\s+){{0,4}}?"
    r"(?:future|further)\s+(?:work|research|studies|investigations?|stud(?:y|ies)|efforts?)\b",
    re.I,
)
# the words naming a system the paper compares with rather than its own
_COMPARED = re.compile(rf"\b(?:{alternation('compared_systems')})\b", re.I)


# A shortcoming stated where a paper reports its results counts only when the clause states it
# of the paper's own work ("our tagger performs poorly on ...", "the proposed model can still
# get confused ..."), not of a baseline ("X performs worse than our model") nor of an ablated
# variant ("without the memory, our model fails to ...").
_SHORTCOMING = re.compile(
    rf"\b(?:{alternation('own_shortcomings')}|{alternation('result_shortcomings')})\b", re.I
)
_OWN_SUBJECT = re.compile(
    r"\b(?:our|ours|the proposed|this model|the (?:full |final )?model|this system|the system|"
    r"this method|"
    r"we (?:cannot|can not|could not|were unable|are unable|were not able|are not able)|"
    r"we (?:still\s+)?(?:see|saw|observe|observed|notice|noticed|find|found) "
    r"(?:a|an|only|some)\b)\b",
    re.I,
)
_NOT_SUBJECT = re.compile(r"\b(?:than|over|compared|unlike|baselines?)\b", re.I)
_VARIANT = re.compile(r"\b(?:without|w/o|removing|removed|ablat\w*)\b", re.I)
# "the techniques we use to avoid overfitting": a shortcoming the paper's work remedies
_REMEDY = re.compile(rf"\b(?:{alternation('remedy_verbs')})\s+(?:\w+\s+)?$", re.I)
_CONDITION = re.compile(r"^(?:if|when|whenever|unless|in case)\b", re.I)
# a sentence offering something to others ("we release the code"): never a shortcoming
RELEASES = re.compile(r"\b(?:release|publish|make (?:\w+ ){0,3}available)\b", re.I)
RESULT_SHORTCOMING_SCORE = 1.5  # as an admission outside the closing sections
_CLAUSE_START = re.compile(r"(?:^|[,;]\s+|\s(?:but|although|though|while|whereas)\s+)", re.I)


def _clause_start(text: str, at: int) -> int:
    """Where the clause holding position `at` starts: after the last comma, semicolon or
    "but/although/while ..." before it, else at the sentence's start."""
    starts = [c.end() for c in _CLAUSE_START.finditer(text, 0, at)]
    return starts[-1] if starts else 0


def weighs_results(section: str) -> bool:
    """Whether a heading of the section's path is one where a paper reports and weighs its
    results (results, experiments, evaluation, analysis, discussion: the "results" role of
    agent/data/section_roles.yaml) and none is one describing other systems (baselines,
    ablations)."""
    words = set(re.findall(r"[a-z]+", section.lower()))
    return bool(words & section_roles()["results"]) and not words & word_list("compared_headings")


def result_shortcomings(unit: Unit, early: float, closing: bool = False) -> list[Finding]:
    """The clause of a sentence in a section reporting results (or in a closing section,
    `closing`) that admits a shortcoming of the paper's own work, the work named in that
    clause; scored as an admission (`early`: 1 at the paper's start)."""
    if not (closing or weighs_results(unit.section)) or RELEASES.search(unit.text):
        return []
    for m in _SHORTCOMING.finditer(unit.text):
        start = _clause_start(unit.text, m.start())
        clause = unit.text[start : m.start()]
        own = _OWN_SUBJECT.search(clause)
        if own is None or _VARIANT.search(unit.text, 0, m.start()) or _REMEDY.search(clause):
            continue
        if _NOT_SUBJECT.search(clause, 0, own.start()) or _CONDITION.match(clause):
            continue
        end = clause_end(unit.text, m.end())
        value, was_cut = shorten(unit.text[start:end].strip(" ,"))
        if len(value.split()) < 3 or value not in unit.text:
            continue
        cut = was_cut or clause_continues(unit.text, end)
        return [Finding("limitations", value, unit.text, unit.page, unit.block_id, unit.section,
                        RESULT_SHORTCOMING_SCORE + closing + 0.5 * early, cut)]  # fmt: skip
    return []


# a sentence that weighs the paper's own work and admits a shortcoming: "the training speed of
# the proposed models slightly decreased", "this noise cannot handle long-range reordering"
_ADMISSION = re.compile(rf"\b(?:{alternation('own_shortcomings')})\b", re.I)
SHORTCOMING_SCORE = 1.5  # below a limitation cue in its section, a cue outside it about level


def own_shortcoming(unit: Unit, in_section: bool, early: float) -> list[Finding]:
    """The clause of a sentence about the paper's own work that admits a shortcoming, cue
    words or not, scored higher where papers weigh their work (discussion, conclusion); a
    clause starting mid-phrase is the caller's to drop."""
    m = _ADMISSION.search(unit.text)
    if not m or not _OWN_REFERENCE.search(unit.text) or RELEASES.search(unit.text):
        return []
    if _CONDITION.match(unit.text):
        return []  # "if the algorithm cannot link it, ...": a case handled, not a shortcoming
    start = 0
    if m.start() > MAX_LEAD:  # a long sentence: the clause the admission stands in
        start = _clause_start(unit.text, m.start())
    end = clause_end(unit.text, m.end())
    value, was_cut = shorten(unit.text[start:end].strip(" ,"))
    if len(value.split()) < 3 or value not in unit.text:
        return []
    score = SHORTCOMING_SCORE + (1.0 if in_section else 0.0) + 0.5 * early
    return [Finding("limitations", value, unit.text, unit.page, unit.block_id, unit.section, score,
                    was_cut or clause_continues(unit.text, end))]  # fmt: skip


MAX_LEAD = 70  # how far into a sentence its admission may stand and the sentence still be whole


def states_limitations(section: str) -> bool:
    """Whether the section is one where a paper states its own limitations (a "Limitations"
    heading), not one of a system it compares with ("Baseline > XOR limitation")."""
    if not in_sections(section, "limitation_sections"):
        return False
    words = set(re.findall(r"[a-z]+", section.lower()))
    return not words & word_list("compared_headings")


# a limitations section's sentence that announces what follows rather than stating a
# limitation: "to reveal the limitations of the models, we analyze ...", "... as follows:"
_ANNOUNCING = re.compile(
    r"\b(?:reveal|discuss|analy[sz]e|examine|investigate|understand|explore|study|identify|"
    r"highlight|outline|describe|present)\s+(?:the\s+|some\s+|its\s+|their\s+|our\s+)?"
    r"(?:\w+\s+)?(?:limitations?|shortcomings?|weaknesses)\b|:\s*$",
    re.I,
)
# the words by which a limitations section's sentence admits a shortcoming
_ADMITS = re.compile(  # the phrases first: "not able to" is one admission, not a bare "not"
    rf"\b(?:{alternation('own_shortcomings')}|{alternation('shortcoming_words')})\b", re.I
)
STATING_WEIGHT = 0.5  # above the section's other sentences, below a cue elsewhere's margin


def announces(text: str) -> bool:
    """Whether a limitations section's sentence only announces limitations."""
    return bool(_ANNOUNCING.search(text))


def stating_weight(text: str) -> float:
    """What a limitations section's sentence gains for admitting a shortcoming in words
    ("came with some bias", "we are not able to verify"): the section's first sentence often
    only sets the scene ("In this work we combined multiple datasets")."""
    words = {m.group(0).lower() for m in _ADMITS.finditer(text)}
    return STATING_WEIGHT if words - limitation_words("weak_admissions") else 0.0


LIMITATION_WORDS = "limitation_words.txt"


def limitation_words(name: str) -> frozenset[str]:
    """One "[name]" list of agent/data/limitation_words.txt, lower case; a list missing or
    without its provenance line is an error (WORDS_INVALID)."""
    return listed(LIMITATION_WORDS, name)


# a sentence remedying the problem the sentence before it states: "To address these
# shortcomings, we propose ...", "We alleviate this issue by ..." (66 of the 315 pool papers
# follow a sentence with one under the same heading)
_REMEDIES = re.compile(
    r"^(?:to|in order to|we(?:\s+\w+ly)?|our\s+(?:\w+\s+)?(?:model|method|approach|system|"
    rf"framework)s?)\s+(?:{alternation('remedy_verbs')})\s+(?:this|these|such|the above|those|"
    r"both|the)\s+(?:\w+\s+)?(?:limitations?|shortcomings?|drawbacks?|weakness(?:es)?|"
    r"problems?|issues?|deficienc(?:y|ies)|disadvantages?)\b",
    re.I,
)


def remedied(paper_units: list[Unit]) -> set[int]:
    """The positions of the sentences whose problem one of the next two sentences under the
    same heading remedies: the gap the paper fills ("one drawback of this approach is ... To
    address these shortcomings, we propose ..."), not a limitation of its own."""
    out: set[int] = set()
    before: list[int] = []  # the two sentences before, under the same heading
    for n, unit in enumerate(paper_units):
        if unit.kind == "table":
            continue
        before = [b for b in before if paper_units[b].section == unit.section]
        if _REMEDIES.search(unit.text):
            out.update(before)
        before = [*before[-1:], n]
    return out


def limitation_clause(text: str, start: int, end: int) -> int:
    """Where a limitations value starts: at its main clause when it opens with a subordinate
    clause and is too long for a cell ("while the tagger reads printed forms well, its accuracy
    on handwriting is low"), unless the subordinate clause is the one admitting the shortcoming
    or naming the work left ("although more data would be needed to be sure, ...")."""
    main = main_clause(text, start, end)
    held = _FUTURE_NAMED.search(text, start, main) or _ADMITS.search(text, start, main)
    return start if main != start and held else main


# what a sentence following one that cites others' work names by a demonstrative: "In [3]'s work,
# ... . The main limitation of this method is ...", "Their model cannot ..." (39 sentences in 30
# of the odd half's 158 papers, all but one a cited work's drawback)
_CITED_SUBJECT = re.compile(
    r"\b(?:this|that|these|those|their|such)\s+(?:\w+\s+)?(?:methods?|approach(?:es)?|models?|"
    r"works?|systems?|techniques?|frameworks?|algorithms?|architectures?)\b",
    re.I,
)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us)\b", re.I)


def about_cited(paper_units: list[Unit]) -> set[int]:
    """The positions of the sentences that name, by a demonstrative and without the first
    person, the work an earlier sentence of their paragraph cites, with no sentence in the first
    person between: its drawbacks are not the paper's ("In [3]'s work, ... The main limitation
    of this method is ..."). A plan stays ("combining such methods with ours remains future
    work")."""
    out: set[int] = set()
    block, cited = "", False  # the paragraph, and whether others' work is what it speaks of
    for n, unit in enumerate(paper_units):
        if unit.kind == "table":
            continue
        if unit.block_id != block:
            block, cited = unit.block_id, False
        if (
            cited
            and _CITED_SUBJECT.search(unit.text)
            and not _FIRST_PERSON.search(unit.text)
            and not FUTURE_WORK_CUE.search(unit.text)
        ):
            out.add(n)
        if cites_others(unit.text):
            cited = True
        elif _FIRST_PERSON.search(unit.text):
            cited = False
    return out
