"""Where the sources disagree: the same metric on the same thing with materially different
numbers, or opposite claims about the same effect, across papers.

Pure functions over evidence quotes. A likely reason is given only when the quotes (or the
papers' years) show one: different datasets or systems, metric definitions, or times.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from citewise.agent.research.model import Disagreement, EvidenceItem
from citewise.retrieval.terms import content_terms, stem

# The words reasons are written in (verification accepts them beside the quotes' own words).
REASON_WORDS = frozenset(
    """different data systems named none metric definitions setups measured times populations
    settings or vs""".split()
)
MATERIAL_DIFFERENCE = 0.2  # relative: 0.89 vs 0.70 disagree, 0.89 vs 0.87 do not
SAME_EFFECT_OVERLAP = 3  # shared content stems that make two claims about one effect
MAX_NUMERIC = 6
MAX_DIRECTION = 4

_METRICS: dict[str, str] = {
    "F1": r"(?-i:F1)(?:[- ]score)?|F-score|F-measure",
    "precision": r"precision",
    "recall": r"recall",
    "accuracy": r"accuracy",
    "AUC": r"AUC|area under the curve",
    "BLEU": r"BLEU",
    "ROUGE": r"ROUGE(?:-\w+)?",
    "perplexity": r"perplexity",
    "error rate": r"error rates?",
    "mortality": r"mortality",
    "incidence": r"incidence",
    "prevalence": r"prevalence",
    "response rate": r"response rates?",
    "coverage": r"coverage",
    "agreement": r"agreement|kappa",
    "sensitivity": r"sensitivity",
    "specificity": r"specificity",
}
_RATIO_METRICS = frozenset(
    {"F1", "precision", "recall", "accuracy", "AUC", "coverage", "sensitivity", "specificity"}
)
_METRIC = re.compile(
    "|".join(f"(?P<m{i}>\\b(?:{p})\\b)" for i, p in enumerate(_METRICS.values())), re.IGNORECASE
)
_METRIC_NAMES = list(_METRICS)
_VALUE = r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(%|percent\b|M\b|million\b|k\b|thousand\b|B\b|billion\b)?"
# "an F1 of 0.89", "accuracy was 91%", "F1: 85.5", "precision (0.7)": a value tied to its metric.
_AFTER_METRIC = re.compile(
    r"^(?:\s*(?:-?score|scores?|of|is|was|were|=|:|at|reach(?:es|ed)?|achiev(?:es|ed|ing)|"
    r"around|about|approximately|roughly|only|just|\(|—|–)){0,3}\s*" + _VALUE,
    re.IGNORECASE,
)
# "0.89 F1", "91% accuracy"
_BEFORE_METRIC = re.compile(_VALUE + r"\s*(?:points? of\s+|in\s+)?$", re.IGNORECASE)
# "S2ORC consists of 81.1M papers": the size of the thing the sentence names.
_COUNTED = re.compile(
    r"\b(?:consists? of|contains?|containing|comprises?|comprising|covers?|covering|includes?|"
    r"including|totals?|with|has|have|of)\s+(?:about |around |over |more than |nearly |"
    r"approximately |roughly )?(\d+(?:,\d{3})*(?:\.\d+)?)\s*(M|million|k|thousand|B|"
    r"billion)?\+?\s+(?:[a-z-]+\s+)?(papers|articles|documents|publications|citations|"
    r"citation links|patients|participants|studies|authors|records)\b",
    re.IGNORECASE,
)
_SCALE = {"m": 1e6, "million": 1e6, "k": 1e3, "thousand": 1e3, "b": 1e9, "billion": 1e9}
_YEAR = re.compile(r"^(19|20)\d\d$")
_QUALIFIERS = re.compile(
    r"\b(token-level|span-level|micro|macro|weighted|test set|dev(?:elopment)? set|"
    r"validation|held-out|out-of-domain|in-domain|zero-shot|fine-tuned)\b",
    re.IGNORECASE,
)
_ENTITY = re.compile(r"\b(?:[A-Z][\w-]*\d[\w-]*|[A-Z]{2,}[\w-]*|[A-Z][a-z]+[A-Z][\w-]*)\b")
_GENERIC_ENTITIES = frozenset({"F1", "AUC", "BLEU", "ROUGE", "PDF", "PDFS", "URL", "ID", "II"})

_EFFECT = re.compile(
    r"\b(improv\w*|increas\w*|reduc\w*|decreas\w*|effective|beneficial|outperform\w*|"
    r"associated with|significant(?:ly)?|helps?|better|worse|lower|higher)\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(no|not|never|without|neither|nor|failed to|fails? to|did not|does not|do not|"
    r"cannot|unclear|insignificant|ineffective|no significant)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Measurement:
    evidence: str
    paper: str
    metric: str
    value: float
    shown: str  # the number as the quote states it ("81.1M", "0.89")
    entities: frozenset[str]
    qualifiers: frozenset[str]


def entities(text: str) -> frozenset[str]:
    """Names a quote mentions: acronyms, CamelCase, words with digits (GROBID, S2ORC)."""
    return frozenset(e for e in _ENTITY.findall(text) if e.upper() not in _GENERIC_ENTITIES)


def _value(number: str, unit: str | None) -> float:
    value = float(number.replace(",", ""))
    return value * _SCALE.get((unit or "").lower(), 1.0)


def states_measurement(text: str) -> bool:
    """Whether a sentence states a metric value or a count ("F1 of 0.89", "81.1M papers")."""
    probe = EvidenceItem(id="", sub_question="", kind="", paper="", quote=text)
    return bool(measurements(probe))


def measurements(item: EvidenceItem) -> list[Measurement]:
    """Metric values a quote states ("an F1 of 0.89", "91% accuracy") and sizes of the
    things it names ("S2ORC consists of 81.1M papers")."""
    text = item.quote
    named = entities(text)
    qualifiers = frozenset(q.lower() for q in _QUALIFIERS.findall(text))
    found: list[Measurement] = []
    for match in _METRIC.finditer(text):
        metric = _METRIC_NAMES[int(next(k for k, v in match.groupdict().items() if v)[1:])]
        after = _AFTER_METRIC.match(text[match.end() :])
        before = None if after else _BEFORE_METRIC.search(text[: match.start()])
        number = after or before
        if number is None or _YEAR.match(number.group(1)):
            continue
        if before is not None and re.search(r"\b(?:by|of)\s*$", text[: before.start()]):
            continue  # "improves by 1.1 F1 points" states a difference, not a value
        value = _value(number.group(1), None)
        unit = (number.group(2) or "").lower()
        if metric in _RATIO_METRICS and unit not in ("%", "percent") and value <= 1.0:
            value *= 100  # 0.89 and 89% are the same F1
        shown = (number.group(1) + (number.group(2) or "")).strip()
        found.append(
            Measurement(item.id, item.paper, metric, value, shown, named - {metric}, qualifiers)
        )
    for match in _COUNTED.finditer(text):
        noun = match.group(3).lower()
        value = _value(match.group(1), match.group(2))
        shown = f"{match.group(1)}{match.group(2) or ''} {match.group(3)}"
        found.append(
            Measurement(item.id, item.paper, f"number of {noun}", value, shown, named, qualifiers)
        )
    return found


def numeric_disagreements(
    items: list[EvidenceItem], years: dict[str, int | None]
) -> list[Disagreement]:
    """Same metric, a shared named subject, different papers, materially different values."""
    found = [m for item in items for m in measurements(item)]
    result: list[Disagreement] = []
    seen: set[tuple[str, str, str]] = set()
    for a, b in itertools.combinations(found, 2):
        if a.paper == b.paper or a.metric != b.metric:
            continue
        shared = a.entities & b.entities
        if not shared:
            continue
        high, low = max(a.value, b.value), min(a.value, b.value)
        if high == 0 or (high - low) / high < MATERIAL_DIFFERENCE:
            continue
        first, second = sorted((a.paper, b.paper))
        pair = (a.metric, first, second)
        if pair in seen:
            continue
        seen.add(pair)
        subject = ", ".join(sorted(shared)[:3])
        result.append(
            Disagreement(
                kind="numbers",
                topic=f"{a.metric} ({subject})",
                evidence=(a.evidence, b.evidence),
                values=(a.shown, b.shown),
                reason=_numeric_reason(a, b, years),
            )
        )
        if len(result) == MAX_NUMERIC:
            break
    return result


def _numeric_reason(a: Measurement, b: Measurement, years: dict[str, int | None]) -> str:
    only_a, only_b = a.entities - b.entities, b.entities - a.entities
    if only_a or only_b:
        left = ", ".join(sorted(only_a)[:2]) or "none"
        right = ", ".join(sorted(only_b)[:2]) or "none"
        return f"different data or systems named ({left} vs {right})"
    if a.qualifiers != b.qualifiers and (a.qualifiers or b.qualifiers):
        left = ", ".join(sorted(a.qualifiers)) or "unqualified"
        right = ", ".join(sorted(b.qualifiers)) or "unqualified"
        return f"different metric definitions or setups ({left} vs {right})"
    year_a, year_b = years.get(a.paper), years.get(b.paper)
    if year_a and year_b and year_a != year_b:
        return f"measured at different times ({year_a} vs {year_b})"
    return ""


def polarity(text: str) -> int:
    """+1 for a claimed effect, -1 for a denied one, 0 when the quote claims no effect."""
    effect = _EFFECT.search(text)
    if effect is None:
        return 0
    before = text[max(0, effect.start() - 40) : effect.start()]
    return -1 if _NEGATION.search(before) or _NEGATION.search(effect.group(0)) else 1


def _effect_terms(text: str) -> set[str]:
    words = content_terms(_NEGATION.sub(" ", _EFFECT.sub(" ", text)))
    return {stem(w) for w in words if not w.isdigit()}


def direction_disagreements(items: list[EvidenceItem]) -> list[Disagreement]:
    """Opposite claims about the same effect (one paper says it holds, another that not)."""
    claims = [(i, polarity(i.quote), _effect_terms(i.quote)) for i in items]
    claims = [c for c in claims if c[1] != 0]
    result: list[Disagreement] = []
    seen: set[tuple[str, str]] = set()
    for (a, pa, ta), (b, pb, tb) in itertools.combinations(claims, 2):
        if a.paper == b.paper or pa == pb:
            continue
        shared = ta & tb
        if len(shared) < SAME_EFFECT_OVERLAP:
            continue
        first, second = sorted((a.paper, b.paper))
        if (first, second) in seen:
            continue
        seen.add((first, second))
        positive, negative = (a, b) if pa > 0 else (b, a)
        only_p, only_n = entities(positive.quote), entities(negative.quote)
        reason = ""
        if only_p - only_n and only_n - only_p:
            reason = (
                f"different populations, data or settings ({', '.join(sorted(only_p)[:2])} vs "
                f"{', '.join(sorted(only_n)[:2])})"
            )
        in_order = [w for w in content_terms(positive.quote) if stem(w) in shared]
        result.append(
            Disagreement(
                kind="direction",
                topic=" ".join(dict.fromkeys(in_order[:5])),
                evidence=(positive.id, negative.id),
                values=("effect reported", "no effect reported"),
                reason=reason,
            )
        )
        if len(result) == MAX_DIRECTION:
            break
    return result


def find_disagreements(
    items: list[EvidenceItem], years: dict[str, int | None]
) -> list[Disagreement]:
    """Numeric disagreements first, then opposite claims; evidence order decides ties."""
    first: dict[str, EvidenceItem] = {}
    for item in items:
        first.setdefault(item.quote, item)
    unique = list(first.values())
    return numeric_disagreements(unique, years) + direction_disagreements(unique)
