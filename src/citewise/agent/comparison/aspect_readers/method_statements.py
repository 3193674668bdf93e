"""Which of a paper's method statements says what the authors do.

A paper often opens with a proposal in general words ("we present a system that can generate
speeches", "simple yet effective methods to improve word-by-word translation", "an extension,
which measures ...", "our participation in the shared task") and states the means in the next
sentences ("we integrate a language model ... and use a denoising autoencoder"). The proposal
in general words names a kind of thing and what it is for, never how it works: its head noun
is a general one and nothing after it says how (no "based on", "using", "with", no coined
name). Such a statement gives way to the one right after it that states the means (the
paper's own elaboration of it, in the next sentence or two of the same section); where the
paper states none there, it stays the cell.

Papers that coin nothing and propose nothing in those words state their method in later-ranked
forms (LATE_METHOD_CUES, each counted over the QASPER pool's openings): a proposal after an
adverb or a first verb, the study a paper conducts, the means a "by ...ing" clause gives, how
the authors tackled the problem or what their system rests on, what a review discusses.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    alternation,
    cites_others,
    listed,
    shorten,
    stems_alternation,
)
from citewise.agent.comparison.extraction import Finding, Unit

# Method cues ranked after prose_aspects' own (appended to PROSE_CUES["method"]): they fill a
# cell only where no proposal or means cue does, or take over from a general proposal.
_CLAUSE = r"(?P<v>(?:[^.;:]|[.:](?=\d)){8,400})"
_SUBJECT = (
    r"(?:we|I|this (?:paper|article|study|work|review|thesis|proposal)|"
    r"the (?:present|current) study|here we)"
)
# a proposal after an adverb or a first verb: "we then propose", "we further develop",
# "we derive a dataset ... and develop a method" (each in 6% of the pool's openings)
_METHOD_ADVERB = r"(?:also|then|further|here|thus|therefore|additionally)\s+"
_AND_THEN = r"[a-z]+\b[^.;:]{3,150}?,?\s+and\s+(?:then\s+|also\s+|further\s+)?"
# the verbs of a proposal, a past one named apart ("in this paper we proposed ..."; 11 of 313
# pool openings): it is earlier work's where the sentence cites that work; "we devised a
# pipeline", "we attempt to develop a profile" propose too (odd half: 4 and 1 sentences)
PROPOSAL_VERBS = (
    r"(?:(?:attempt(?:s|ed)?|tr(?:y|ies|ied)|seek(?:s)?)\s+to\s+)?"
    r"(?:presents?|proposes?|introduces?|describes?|(?P<past>presented|proposed|introduced|"
    r"described)|develop(?:s|ed)?|construct(?:s|ed)?|design(?:s|ed)?|devise(?:s|d)?)"
)
# a sentence pointing at one of the paper's sections states its roadmap, not its method ("In
# Section 2 we present related work", 22 of 313 pool openings write one with a method verb)
_ROADMAP = re.compile(r"\b(?:[Ss]ections?\s+(?:\d|[a-z]+:)|SECREF|[Ss]ec\.\s*\d)")
# what a paper reports is not what it does: "we present some of our computed results over three
# architectures", "we describe two novel observations" (6 of 315 pool openings besides roadmaps)
_REPORTED = re.compile(
    r"(?:(?!(?:approach|method|model|system|framework)\b)[\w-]+\s+){0,4}?"
    r"(?:results|findings|observations)\b",
    re.I,
)
# a task the paper proposes is its task, not its method: "we propose the task of question
# rewriting", "we introduce the problem of multi-hop question generation" (6 of 315 openings)
_TASK_OBJECT = re.compile(
    r"(?:a|an|the)\s+(?:new\s+|novel\s+)?(?:[\w-]+\s+){0,2}?(?:task|problem)(?:\s+of\b|\s*:)",
    re.I,
)
# the measures a paper evaluates with are not its method: "we propose two metrics inspired by
# ...", "we devise automatic metrics to measure ..." (odd half: 5 proposals, none the method);
# one measure ("a new metric for ...") may be what a paper proposes, so only plurals
_MEASURES = re.compile(
    r"(?:(?:a|an|the|our|two|three|four|five|several|some|new|novel|number\s+of)\s+)*"
    r"(?:[\w-]+\s+){0,3}?(?:metrics|measures|scores)\b",
    re.I,
)
# a clause that is only a bare noun phrase, no name and nothing after its head: "an
# alternative", "two new metrics" (1 of 158 odd-half method cells, 1 of the develop parts)
_BARE = re.compile(r"^(?:(?:a|an|the|our|some|several|two|three|four)\s+)?(?:[a-z]+\s+)?[a-z]+\s*$")
# a condition or a time the cue's "we" stands in: "if we use ...", "as soon as we apply ..."
_CONDITION = re.compile(r"\b(?:if|when|whenever|once|as soon as|unless|until)\s+$", re.I)
STUDY_RANK = 1  # where STUDY_CUE stands among the method cues
# where the study-design cue ("a cross-sectional study", "a qualitative analysis") stands; a
# design named beside a citation is the cited work's ("according to the case study in [5]",
# "research has traditionally carried out the quantitative analysis of ... [4]": 4 of the 11
# pool papers whose opening names a design cite it so)
DESIGN_RANK = 4


def not_the_method(m: re.Match[str], text: str, rank: int = 0) -> bool:
    """Whether a method cue's match `m` in `text` (the cue at `rank`) is no statement of the
    paper's method: the sentence is the paper's roadmap, a past proposal citing the earlier work
    it was made in, a study design named beside a citation (another's study), or a proposal of
    the measures the paper evaluates with."""
    if rank == DESIGN_RANK and cites_others(text):
        return True
    if _ROADMAP.search(text) or _REPORTED.match(m.group("v")) or _TASK_OBJECT.match(m.group("v")):
        return True
    if rank == 0 and _MEASURES.match(m.group("v")):
        return True  # the proposal cue's object is the evaluation's measures
    if _BARE.match(m.group("v")):
        return True  # "we introduce two new metrics.": what they are is said elsewhere
    if _CONDITION.search(text, 0, m.start()):
        return True  # "as soon as we apply our technologies to the real world, ..."
    return bool(m.groupdict().get("past")) and cites_others(text)


def cue_step(rank: int) -> int:
    """The scoring step of the method cue at `rank`: the study cue scores as the cue after the
    proposal, and the cues after it as they did before it was added."""
    return rank - 1 if rank > STUDY_RANK else rank


# a study's design where a paper compares rather than proposes: "we compare eleven similarity
# metrics", "we investigate four learning strategies" (18 of 313 pool papers' openings); ranked
# right after the proposal, so a paper that proposes something and compares it keeps its proposal
STUDY_CUE = re.compile(
    r"\b(?:we|I|this (?:paper|article|study|work))\s+(?:also\s+|first\s+|then\s+|further\s+|"
    r"[a-z]+ly\s+)?"  # "we directly compare", "we empirically evaluate" (11 of 315 openings)
    rf"(?:{alternation('study_verbs')})\s+(?P<v>(?:{alternation('study_sets')}|\d+)\s+"
    rf"(?:[\w-]+\s+){{0,3}}?(?:{alternation('studied_heads')})\b(?:[^.;:]|\.(?=\d)){{0,200}})",
    re.I,
)

LATE_METHOD_CUES: list[re.Pattern[str]] = [
    re.compile(  # ranked last: sequels and roadmaps share these forms
        rf"\b(?:we|I)\s+(?:{_METHOD_ADVERB}|{_AND_THEN})(?:propose|present|introduce|develop|"
        r"design|devise|construct)\s+(?!(?:\w+\s+){0,2}?(?:evaluations?|metrics?|results|"
        rf"experiments?|directions|guidelines|analys[ie]s)\b){_CLAUSE}",
        re.I,
    ),
    re.compile(  # a study's own method: "we conduct an empirical study of ..." (8% of papers)
        r"\b(?:we|I)\s+(?:also\s+|first\s+)?"
        r"(?:conduct|perform|carr(?:y|ied) out|undert(?:ake|ook))(?:ed|s)?\s+"
        r"(?P<v>(?:a|an|the\s+first)\s+(?:[\w-]+\s+){0,4}?(?:study|studies|analysis|evaluation|"
        r"comparison|investigation|survey|review)\b(?:[^.;:]|\.(?=\d)){0,200})",
        re.I,
    ),
    re.compile(  # the means a first-person sentence gives: "we ... by treating it as ..." (30%)
        r"\b(?:we|I)\s+(?!(?:conclude|finish|end|start|begin|close|summari[sz]e)\b)"
        r"(?P<v>[a-z]+\b[^.;:]{3,150}?\bby\s+(?!means\b)[a-z]+ing\b"
        r"(?:[^.;:]|\.(?=\d)){3,200})",
        re.I,
    ),
    re.compile(  # "we tackled the problem using ...", "our system relies on ..." (3-4% each)
        r"(?P<v>\b(?:(?:we|I)\s+(?:tackle|address|approach|solve|attack)(?:d|ed|es|s)?\s+"
        r"(?:the|this|these)\s+[^.;:]{0,60}?\b(?:using|with|by|via)\b|"
        r"(?:the|our|this)\s+(?:proposed\s+|new\s+)?(?:system|model|method|approach|framework|"
        r"architecture|algorithm|pipeline|work|study)\s+(?:relies on|is based on|builds on|"
        r"is built on|consists of|combines|uses|employs|leverages|exploits|utili[sz]es|"
        r"incorporates|applies|extends|integrates|adopts)\b)"
        r"(?:[^.;:]|\.(?=\d)){3,200})",
        re.I,
    ),
    re.compile(  # a review's own method: "in this paper, we discuss/review ..." (6%)
        rf"\b{_SUBJECT}\s+(?:also\s+)?(?P<v>(?:review|survey|discuss)(?:es|s|ed)?\s+"
        r"(?!(?:the\s+)?(?:related|previous|prior|future)\b)(?:[^.;:]|\.(?=\d)){8,200})",
        re.I,
    ),
]

ELABORATION_GAP = 2  # how many sentences after a general proposal its means may be stated
TAKEOVER = 0.05  # the means statement scores just above the proposal it elaborates


# a statement about data or the evaluation, not the means: "the released corpus", "an experiment";
# the word heads the phrase: "sentiment analysis systems", "data augmentation methods" are means
# (3 of 158 odd-half papers state a means so, all read right; 1 cell changes)
@cache
def _not_means() -> re.Pattern[str]:
    return re.compile(
        r"^(?:\S+\s+){0,5}?(?:data ?sets?|corpus|corpora|data|experiments?|evaluations?|results|"
        r"stud(?:y|ies)|analys[ie]s|comparisons?|surveys?)\b"
        r"(?!\s+(?:(?!(?:of|for|in|on|to|from|with)\b)[\w-]+\s+)?"
        rf"(?:{alternation('general_method_heads')})\b)",
        re.I,
    )


_TOKEN = re.compile(r"(?<![\w-])[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?![\w-])")


def _general_head() -> re.Pattern[str]:
    return re.compile(
        r"^(?:(?:a|an|the|our|this|these|two|three|several|some)\s+)?"
        r"(?:(?!(?:of|for|in|on|to|from)\b)[\w-]+,?\s+){0,4}?"
        rf"(?:{alternation('general_method_heads')})(?P<rest>\b.*)$",
        re.I | re.S,
    )


def _means() -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{alternation('method_means_words')})(?![\w-])", re.I)


def in_general_words(value: str) -> bool:
    """Whether a method value names only a kind of thing and its purpose: a general head
    noun ("system", "approach", "extension") followed by nothing that says how it works, and
    no coined name before it ("a BiLSTM model") or given to it ("(VarNDRR)", "called X")."""
    m = _general_head().match(value.strip())
    if not m:
        return False
    rest = m.group("rest")
    if _means().search(rest) or _NAMED.match(rest):
        return False
    before = value[: m.start("rest")]
    return not _MADE_FROM.search(before) and not any(_coined(t) for t in _TOKEN.findall(before))


# a modifier that says what the method rests on: "a graph-based approach", "a data-driven model"
_MADE_FROM = re.compile(r"\w-(?:based|driven|guided|augmented|enhanced|aware)\b", re.I)
# a name given right after the head ("(VarNDRR)", "called X"), or its means as a gerund
# ("the approach of introducing thesaurus knowledge into topic models")
_NAMED = re.compile(r"^\s*(?:\(|,?\s*(?:called|named|dubbed|termed)\b|of\s+[a-z]+ing\b)", re.I)


def _coined(token: str) -> bool:
    return len(token) >= 2 and any(c.isupper() or c.isdigit() for c in token[1:])


def prefer_means(found: list[Finding], paper_units: list[Unit]) -> list[Finding]:
    """Method findings where a proposal in general words hands its score to the statement of
    the means that follows it (within ELABORATION_GAP sentences of the same section)."""
    at = {(u.block_id, u.text): n for n, u in enumerate(paper_units)}
    out = list(found)
    if not found:
        return out
    g = max(found, key=lambda f: f.score)  # only the proposal that would fill the cell
    if (g.block_id, g.quote) in at and in_general_words(_object(g.value)):
        n = at[(g.block_id, g.quote)]
        for k, f in enumerate(out):
            m = at.get((f.block_id, f.quote), -1)
            if not n < m <= n + ELABORATION_GAP or f.section != g.section:
                continue
            if in_general_words(_object(f.value)) or _not_means().match(_object(f.value)):
                continue
            out[k] = replace(f, score=max(f.score, g.score + TAKEOVER))
            break
        else:
            told = _subject_elaboration(g, paper_units, n)
            out = [*out, told] if told else _abstract_means(out, g)
    top = max(out, key=lambda f: f.score)  # the statement that fills the cell now
    if (top.block_id, top.quote) in at:
        told = _elaboration(top, paper_units, at[(top.block_id, top.quote)])
        out += [told] if told else []
    return out


_ABSTRACT = re.compile(r"\babstract\b", re.I)


SUBJECT_WORDS = 6  # the fewest words of a sentence stating what the proposal does


def _subject_elaboration(g: Finding, paper_units: list[Unit], n: int) -> Finding | None:
    """The sentence after a proposal in general words (within ELABORATION_GAP, in its
    paragraph) whose subject is the proposal itself and whose verb says what it does ("The
    parser includes ...", "If ..., the system rates ...", "Our model jointly reads
    ..."), from that subject on, as a method finding just above the proposal; None when no
    such sentence follows or its verb reports a result ("This system outperforms ...")."""
    head = _general_head().match(_object(g.value))
    if head is None:
        return None
    subject = _subject(_object(g.value)[: head.start("rest")].split()[-1].lower())
    for unit in paper_units[n + 1 : n + 1 + ELABORATION_GAP]:
        if unit.block_id != g.block_id:
            break
        m = subject.match(unit.text)
        if m is None or cites_others(unit.text) or unit.kind not in ("paragraph", "list"):
            continue
        told, was_cut = shorten(unit.text[m.start("s") :].rstrip(" ."))
        if len(told.split()) < SUBJECT_WORDS or told not in unit.text:
            continue  # "Our systems ranked first": too short to say what it does
        return Finding("method", told, unit.text, unit.page, unit.block_id, unit.section,
                       g.score + TAKEOVER, was_cut)  # fmt: skip
    return None


@cache
def _subject(head: str) -> re.Pattern[str]:
    """The proposal as a sentence's subject, after at most a short opening clause ("If the
    possibility exists, the system ..."), with at most a short phrase saying which one ("our
    entry to the second track"), then a finite verb (an adverb allowed; no auxiliary: "the
    model was trained ...") that reports no result, or "is based on", "is composed of"."""
    return re.compile(
        r"^(?:[^,.;:]{0,60},\s+)?(?P<s>(?:the|this|our)\s+(?:proposed\s+|new\s+)?"
        rf"(?:{re.escape(head)}|{alternation('general_method_heads')})\s+"
        r"(?:(?:to|for|in|on)\s+[^,.;:()]{1,50}?\s+)?"
        r"(?:(?:is|are|was|were)\s+(?:based\s+on|built\s+on|composed\s+of|made\s+up\s+of)\b|"
        rf"(?:[a-z]+ly\s+)?(?!(?:is|was|has|does|{_result_verbs()})\b)[a-z]+(?:s|ed)\b))",
        re.I,
    )


def _result_verbs() -> str:
    return stems_alternation(listed("method_elaboration.txt", "result_verbs"))


def _abstract_means(found: list[Finding], g: Finding) -> list[Finding]:
    """Where a proposal in general words outside the abstract is elaborated nowhere in its
    section, the abstract's best statement of the means takes over from it."""
    if _ABSTRACT.search(g.section or ""):
        return found
    best = None
    for k, f in enumerate(found):
        if not _ABSTRACT.search(f.section or "") or f.quote == g.quote:
            continue
        if in_general_words(_object(f.value)) or _not_means().match(_object(f.value)):
            continue
        if best is None or f.score > found[best].score:
            best = k
    if best is None:
        return found
    out = list(found)
    out[best] = replace(found[best], score=max(found[best].score, g.score + TAKEOVER))
    return out


def _elaboration(proposal: Finding, paper_units: list[Unit], n: int) -> Finding | None:
    """The sentence right after an unnamed proposal, in its paragraph, that says it elaborates
    it ("In more detail, ...", "In the first stage, ...", "These include ..."), as a method
    finding just above the proposal; None when there is none, the proposal names its method
    or proposes data, an experiment or a study."""
    value = _object(proposal.value)
    if n + 1 >= len(paper_units) or _not_means().match(value) or _named(value):
        return None
    unit = paper_units[n + 1]
    if unit.block_id != proposal.block_id or not _elaborates().match(unit.text):
        return None
    if cites_others(unit.text) or unit.kind not in ("paragraph", "list"):
        return None
    told, was_cut = shorten(unit.text.rstrip(" ."))
    if len(told.split()) < 4 or told not in unit.text:
        return None
    return Finding("method", told, unit.text, unit.page, unit.block_id, unit.section,
                   proposal.score + TAKEOVER, was_cut)  # fmt: skip


def _named(value: str) -> bool:
    """Whether a proposal's object opens with a coined name ("WikiRank, an unsupervised
    method", "LadaBERT (...)"): the name and what it is are the cell."""
    return any(w[:1].isupper() and _coined(w.strip(",()")) for w in value.split()[:3])


@cache
def _elaborates() -> re.Pattern[str]:
    return re.compile(rf"^(?:{alternation('elaboration_openers')})\b", re.I)


def _object(value: str) -> str:
    """A means statement's value without the verb it opens with ("model the context" states
    what is modelled: "model" there is no head noun)."""
    return _MEANS_VERB.sub("", value, count=1)


_MEANS_VERB = re.compile(rf"^(?:{alternation('means_verbs')})\s+", re.I)
