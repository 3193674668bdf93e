"""Metrics a paper names as such, beside the metric patterns (agent/comparison/patterns.py):
its own list ("two automatic metrics: Distinct-1 and Distinct-2"), a name it calls a metric
("the LEA metric"), what it uses as its evaluation metric ("we use cosine similarity as the
evaluation metric")."""

from __future__ import annotations

import re
from dataclasses import replace

from citewise.agent.comparison.aspect_readers.matrix_cells import word_list
from citewise.agent.comparison.aspect_readers.matrix_datasets import LISTED_SCORE
from citewise.agent.comparison.aspect_readers.matrix_metrics_terms import in_terms_of
from citewise.agent.comparison.extraction import Finding, Unit, find_in_unit, section_bonus
from citewise.agent.comparison.gazetteer import NAME, PLACEHOLDER, is_name
from citewise.agent.comparison.patterns import METRIC_NAMES

__all__ = [
    "caption_metrics",
    "changed_metrics",
    "listed_metrics",
    "metric_long_forms",
    "set_aside",
]

_NAME_TOKEN = re.compile(NAME)
# "two automatic metrics: Distinct-1 and Distinct-2", "five automatic evaluation metrics: MRR,
# ...", "The evaluation metrics are: ..." (~6% of pool papers)
_METRICS_HEAD = (
    r"(?:\b(?:two|three|four|five|six|seven|several|following|\d+)\s+(?:[\w-]+\s+){0,2}|"
)
_METRICS_HEAD += r"\b(?:evaluation|automatic|performance)\s+)"
_LISTED_METRICS = re.compile(
    rf"{_METRICS_HEAD}(?:metrics|measures)\s*(?:are|were|include|used\s+are)?\s*:\s*"
    r"(?P<v>[^.;]{3,200})",
    re.I,
)
# "the LEA metric", "using the MUC, B3 and CEAF measures": a name the paper calls a metric
_METRIC_LIST = rf"{NAME}(?:\s*,\s*{NAME})*(?:,?\s+and\s+{NAME})?"
_NAMED_METRICS = re.compile(
    rf"\b(?:the|using|with|by|of|and|on|in)\s+(?P<v>{_METRIC_LIST})\s+(?:metrics?|measures?)\b"
)


# "we use cosine similarity as the evaluation metric", "chose the F1 score as our main
# performance measure" (~10% of pool papers): the words between the verb and "as" are the metric
_USED_AS_METRIC = re.compile(
    r"\b(?:use[sd]?|using|chose|choose|adopt\w*|report\w*|calculated?|compute[sd]?|employ\w*)"
    r"\s+(?:the\s+)?(?:widely[- ]used\s+|standard\s+|common\s+)?(?P<v>[^,;.()]{2,40}?)"
    r"(?:\s+BIBREF\d+)?(?:\s+scores?)?\s+as\s+(?:the|our|an?)\s+(?:[\w-]+\s+)?"
    r"(?:evaluation|performance|automatic|automated)\s+(?:metric|measure)s?\b",
    re.I,
)

# a list after words that qualify the metrics, in a sentence that evaluates: "For human
# evaluation, we consider three metrics for the generated questions: relatedness, fluency, and
# correctness", "an evaluation that uses only metrics that quantify ... [cite]: categorization
# measure, ..." (~3% of odd-half pool papers; without an evaluating word the colon lists
# predicates or features): each item of up to four words, before any citation, is a metric
_QUALIFIED_LIST = re.compile(r"\b(?:metrics|measures)\b[^.:;]{1,80}?:\s*(?P<v>[^.;]{3,200})")
_EVALUATING = re.compile(r"evaluat|quantif|assess", re.I)
_MET_SCORE = 1.5  # = CAPTION_SCORE, a metric named in a sentence that measures
_TERMS_SCORE = 1.0  # a measure named only after "in terms of": below any known metric
_ITEM = re.compile(
    r"(?:^|,\s*(?:and\s+)?|\s+and\s+)(?P<v>(?:[\w'-]+\s+){0,3}?[\w'-]+)"
    r"(?=\s*(?:BIBREF\d+\s*)?(?:,|\s+and\s|$))"
)


def _qualified_list(text: str) -> list[tuple[int, int]]:
    """The spans of a qualified list's items in the text."""
    m = _QUALIFIED_LIST.search(text)
    if not m or not _EVALUATING.search(text[: m.start("v")]):
        return []
    out = []
    for item in _ITEM.finditer(m.group("v")):
        if not PLACEHOLDER.match(item.group("v")):
            out.append((m.start("v") + item.start("v"), m.start("v") + item.end("v")))
    return out


def listed_metrics(paper_units: list[Unit]) -> list[Finding]:
    """The metrics a paper introduces as a list ("two automatic metrics: Distinct-1 and
    Distinct-2") or calls metrics ("the LEA metric"), each name a finding scored like the
    paper's own list of its data."""
    found = []
    for unit in paper_units:
        if unit.kind == "table":
            continue
        score = LISTED_SCORE + section_bonus("metrics", unit)
        for named in _NAMED_METRICS.finditer(unit.text):
            for t in _NAME_TOKEN.finditer(named.group("v")):
                if _metric_name(t.group()):
                    found.append(Finding("metrics", t.group(), unit.text, unit.page,
                                         unit.block_id, unit.section, score))  # fmt: skip
        used = _USED_AS_METRIC.search(unit.text)
        if used:
            found.append(Finding("metrics", used.group("v"), unit.text, unit.page,
                                 unit.block_id, unit.section, score))  # fmt: skip
        m = _LISTED_METRICS.search(unit.text)
        bonus = section_bonus("metrics", unit)
        for start, end in in_terms_of(unit.text):  # below any metric named as such
            found.append(Finding("metrics", unit.text[start:end], unit.text, unit.page,
                                 unit.block_id, unit.section, _TERMS_SCORE + bonus))  # fmt: skip
        if not m:
            for start, end in _qualified_list(unit.text):  # as a metric met where one measures
                found.append(Finding("metrics", unit.text[start:end], unit.text, unit.page,
                                     unit.block_id, unit.section, _MET_SCORE + bonus))  # fmt: skip
            continue
        listed = m.group("v")
        known = set()
        for f in find_in_unit("metrics", unit):  # "accuracy, precision and recall" of the list
            if re.search(rf"(?<![\w-]){re.escape(f.value)}(?![\w-])", listed):  # not "Self-BLEU"
                found.append(replace(f, score=LISTED_SCORE + bonus))
                known.add(f.value)
        for t in _NAME_TOKEN.finditer(m.group("v")):
            if PLACEHOLDER.match(t.group()) or t.group() in known:
                continue  # a citation of the paper that defined the metric, or a known name
            if is_name(t.group(), "model") or "-" in t.group():
                found.append(Finding("metrics", t.group(), unit.text, unit.page, unit.block_id,
                                     unit.section, LISTED_SCORE + bonus))  # fmt: skip
    return found


def _metric_name(token: str) -> bool:
    """An acronym or a coined name ("LEA", "BLEU-4", "CIDEr"), not a sentence word or a
    converted placeholder."""
    if PLACEHOLDER.match(token) or token.lower() in word_list("name_openers"):
        return False
    return is_name(token, "model") or "-" in token


_ACRONYM = re.compile(r"^[A-Z]{2,6}$")


def metric_long_forms(found: list[Finding], paper_units: list[Unit]) -> list[Finding]:
    """A metric found by its acronym ("NST", "MRR") shown as the paper defines it, "Neighbour
    Similarity Test (NST)", from the sentence that defines it (the words before the bracket
    whose initials spell the acronym; ~7% of pool papers define a metric so), at the finding's
    own score; unchanged where the paper defines no long form."""
    forms: dict[str, Finding | None] = {}
    out = []
    for f in found:
        if _ACRONYM.match(f.value):
            if f.value not in forms:
                forms[f.value] = _defined(f.value, paper_units)
            long = forms[f.value]
            if long is not None:
                f = replace(long, score=f.score)
        out.append(f)
    # a part of a long form ("error rate" of "Word error rate (WER)") is shown as the long form
    longs = [g for g in forms.values() if g is not None]
    return [_within(f, longs) for f in out]


def _within(f: Finding, longs: list[Finding]) -> Finding:
    low = f.value.lower()
    for g in longs:
        if len(g.value) > len(f.value) and re.search(
            rf"(?<![\w-]){re.escape(low)}(?![\w-])", g.value.lower()
        ):
            return replace(g, score=f.score)
    return f


def _defined(acronym: str, paper_units: list[Unit]) -> Finding | None:
    """The first sentence's "Long Form (ACR)" for the acronym, as a metrics finding."""
    n = len(acronym)
    pattern = re.compile(rf"(?P<v>(?:[A-Za-z][\w'-]*\s+){{{n}}})\({re.escape(acronym)}\)")
    for unit in paper_units:
        if unit.kind == "table" or f"({acronym})" not in unit.text:
            continue
        for m in pattern.finditer(unit.text):
            words = m.group("v").split()
            if "".join(w[0] for w in words).lower() == acronym.lower():
                value = unit.text[m.start() : m.end()]
                return Finding("metrics", value, unit.text, unit.page, unit.block_id,
                               unit.section, 0.0)  # fmt: skip
    return None


# a table or figure whose caption opens with what it reports: "Table 2: Accuracy on all
# instances", "Table 1: The average accuracy on the reef domains", "Figure 3: Mean squared
# error per epoch" (the metric within the caption's first words); a caption may name its
# accuracy in the plural ("Table 2: Test accuracies on ...", ~3% of odd-half pool papers), which
# in a sentence more often counts values ("the accuracies of 100 models")
_METRIC = rf"(?:(?:root\s+)?mean\s+(?:squared|absolute)\s+error|accuracies|{METRIC_NAMES})(?![\w-])"
_CAPTION_METRIC = re.compile(
    r"^(?:[Tt]able|TABLE|[Ff]igure|FIGURE|Fig\.?)\s*\d+\s*[:.]\s*(?:\S+\s+){0,3}?"
    rf"(?P<v>\b{_METRIC})"
)
# the list the caption's first metric opens: "Table 4: Precision, recall and F1 values of ...",
# "Table 2: Accuracy and macro-F1 (%) for ..." (~4% of odd-half pool papers)
_CAPTION_MORE = re.compile(
    rf"(?:\s*,\s*(?:the\s+)?{_METRIC})*(?:,?\s+(?:and|&)\s+(?:the\s+)?{_METRIC})?"
)
# a caption's key of its columns' abbreviations: "Acc: Accuracy. Sen: Sensitivity.",
# "Acc=Accuracy, P=Precision", "(F1m = F1 macro)" (~3% of odd-half pool papers)
_CAPTION_KEY = re.compile(
    rf"(?:^|(?<=[.;,(])|(?<=[.;,(]\s))[A-Za-z][\w@-]{{0,5}}\s*[:=]\s*(?P<v>{_METRIC}(?:\s+[a-z]+)?)"
    r"(?=\s*(?:[.;,)]|$))"
)
_TITLE_WORD = re.compile(r"\b[A-Z](?=[a-z])")  # "Accuracy", "Mean": capitalised, not an acronym
CAPTION_SCORE = 1.5  # as a metric named in a sentence that measures (extraction.find_in_unit)
# a key spelling out what a table's columns report is the paper's own list of its metrics: above
# a metric named in a results sentence (2.5), below a list the paper introduces there
KEY_SCORE = LISTED_SCORE + 0.5


def caption_metrics(paper_units: list[Unit]) -> list[Finding]:
    """The metrics a table's or figure's caption opens with, as the caption writes them
    ("Accuracy" read as "accuracy" is, an acronym only in its own capitals: no "mAP" in
    "Heat map"), the list it opens taken whole ("Precision, recall and F1 values"); and the
    metrics its key of abbreviations spells out ("Acc: Accuracy. Spe: Specificity."). The
    words before an opening metric ("The average") are read as its qualifiers by
    `aspects.qualified`."""
    found = []
    for unit in paper_units:
        opens = unit.text[:3].lower() in ("tab", "fig")
        if not (opens or unit.kind == "caption" or "caption" in unit.section.lower()):
            continue  # a caption's later sentences are units of their own ("Acc: Accuracy.")
        lowered = _TITLE_WORD.sub(lambda c: c.group().lower(), unit.text)  # same offsets
        spans = []
        m = _CAPTION_METRIC.match(lowered[:1].upper() + lowered[1:80]) if opens else None
        if m:
            more = _CAPTION_MORE.match(lowered, m.end("v"))
            spans.append((m.start("v"), more.end() if more else m.end("v"), CAPTION_SCORE))
        spans += [(*k.span("v"), KEY_SCORE) for k in _CAPTION_KEY.finditer(lowered)]
        for start, end, score in spans:
            found.append(Finding("metrics", unit.text[start:end], unit.text, unit.page,
                                 unit.block_id, unit.section, score))  # fmt: skip
    return found


# a metric whose change the paper reports: "precision has been greatly increased from 0.6 to
# 0.7", "the accuracy drops as ...", "a minor drop in BLEU", "improvements in top-1 accuracy"
_CHANGE_VERB = re.compile(
    r"\b(?:increase[sd]?|improve[sd]?|decrease[sd]?|drop(?:s|ped)?|rose|rises|fell|falls)\b"
)
_METRIC_BEFORE = re.compile(
    rf"(?P<v>\b(?:{METRIC_NAMES}))(?![\w-])\s+(?:scores?\s+)?(?:(?:has|have)\s+been\s+|"
    r"(?:was|were|is|are)\s+)?(?:\w+ly\s+)?$"
)
_CHANGE_NOUN = re.compile(
    r"\b(?:improvements?|increases?|gains?|drops?|decreases?|reductions?)\s+(?:in|of)\s+"
    r"(?:the\s+)?"
)
_METRIC_HERE = re.compile(rf"(?:[\w-]+\s+)??(?P<v>\b(?:{METRIC_NAMES}))(?![\w-])")
_BEFORE_CHARS = 60  # how far before a change verb its metric is looked for


def _changed(text: str) -> list[str]:
    """The metrics the text reports a change of, left to right as found."""
    out = []
    for verb in _CHANGE_VERB.finditer(text):
        m = _METRIC_BEFORE.search(text[max(0, verb.start() - _BEFORE_CHARS) : verb.start()])
        if m:
            out.append(m.group("v"))
    for noun in _CHANGE_NOUN.finditer(text):
        m = _METRIC_HERE.match(text, noun.end())
        if m:
            out.append(m.group("v"))
    return out


def changed_metrics(paper_units: list[Unit]) -> list[Finding]:
    """The metrics whose rise or fall the paper's sentences report, scored as a metric named
    where something is measured (extraction.find_in_unit)."""
    found = []
    for unit in paper_units:
        if unit.kind == "table":
            continue
        for value in _changed(unit.text):
            found.append(Finding("metrics", value, unit.text, unit.page, unit.block_id,
                                 unit.section, CAPTION_SCORE))  # fmt: skip
    return found


# a metric the paper sets aside: "We do not use BLEU because ...", "Many commonly used metrics,
# such as BLEU ..., are not useful here", "using accuracy as the evaluation metric is not
# appropriate" (~2% of odd-half pool papers): the metric right after the refusal or before the
# verdict, so a metric the paper turns to after it stays
_NOT_USED = re.compile(r"\b(?:do|does|did)\s+not\s+(?:use|report|adopt|employ)\s+(?:the\s+)?")
# a metric the paper contrasts its own with: "we used the F1 score rather than the accuracy",
# "a more complete picture compared to reporting precision, recall, or F-scores" (~1% of
# odd-half pool papers), each item of the list the contrast opens
_CONTRASTED = re.compile(
    r"\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|compared\s+(?:to|with)\s+"
    r"(?:reporting|using))\s+(?:the\s+)?(?:[\w-]+(?:\s+[\w-]+)?\s*,\s*(?:and\s+|or\s+)?)*$"
)
_UNSUITED = re.compile(
    r"\b(?:is|are)\s+not\s+(?:\w+\s+)?(?:useful|suitable|appropriate|adequate|reliable|"
    r"informative|meaningful)\b|\bunsuitable\b"
)

# a metric named in another's description, not reported itself: "perplexity, which indicates
# the error rate of ...", "a score which considers both precision and recall" (~1% of odd-half
# pool papers)
_DESCRIBES = re.compile(
    r"\b(?:which|that)\s+(?:\w+ly\s+)?(?:indicates?|measures?|reflects?|considers?|combines?|"
    r"captures?|balances?)\s+(?:both\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}$"
)


def set_aside(found: list[Finding]) -> list[Finding]:
    """The findings without the metrics their sentences set aside or name in describing
    another."""
    return [f for f in found if not _set_aside(f)]


def _set_aside(f: Finding) -> bool:
    at = f.quote.find(f.value)
    if any(m.end() == at for m in _NOT_USED.finditer(f.quote)):
        return True
    if at > 0 and _CONTRASTED.search(f.quote[max(0, at - 80) : at]):
        return True
    if at > 0 and _DESCRIBES.search(f.quote[max(0, at - 60) : at]):
        return True
    verdict = _UNSUITED.search(f.quote)
    return verdict is not None and 0 <= at < verdict.start()
