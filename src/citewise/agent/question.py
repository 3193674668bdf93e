"""Question analysis: what kind of answer is wanted, about which terms, labels and papers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.retrieval.terms import content_terms

_LABEL = re.compile(
    r"\b(table|tab\.|figure|fig\.|equation|eq\.|section|sec\.)\s*\(?([A-Z]?\d+(?:\.\d+)*)\)?",
    re.IGNORECASE,
)
_LABEL_NAMES = {
    "table": "Table", "tab.": "Table", "figure": "Figure", "fig.": "Figure",
    "equation": "Eq.", "eq.": "Eq.", "section": "Section", "sec.": "Section",
}

# "How many ...", or a what/which question about a measurable quantity.
_NUMERIC = re.compile(r"\bhow (many|much|long|often|large|big|fast|old)\b", re.IGNORECASE)
_QUANTITY_WORDS = re.compile(
    r"\b(percentage|proportion|share|fraction|number|count|rate|ratio|score|accuracy|f1|"
    r"precision|recall|value|size|mean|average|median|risk|error|yield|time|duration|"
    r"likelihood|estimate|cost|speed|throughput|capacity|total|amount|age|length|perplexity|"
    r"agreement|auc|bleu|rouge|p-value|odds)\b",
    re.IGNORECASE,
)
_WH = re.compile(r"^\s*(\w+\W+){0,6}?(what|which)\b", re.IGNORECASE)
_DEFINITION = re.compile(
    r"\b(what (does|do|is|are) .* (stand for|mean)|define|definition of|what is meant by)\b",
    re.IGNORECASE,
)
_METHOD = re.compile(r"^\s*(how (were|was|did|do|does|is|are)|which (method|approach|model|tool))",
                     re.IGNORECASE)


@dataclass
class Question:
    """A question, analysed: its type, the terms to look for, and labels it points at."""

    text: str
    type: str  # numeric | definition | method | factual
    terms: list[str]
    labels: list[str] = field(default_factory=list)

    @property
    def expects_number(self) -> bool:
        return self.type == "numeric"


def analyse(text: str) -> Question:
    """Classify the question and pull out its key terms and referenced labels."""
    labels = [f"{_LABEL_NAMES[m.group(1).lower()]} {m.group(2)}" for m in _LABEL.finditer(text)]
    if _DEFINITION.search(text):
        kind = "definition"
    elif _NUMERIC.search(text) or (_WH.search(text) and _QUANTITY_WORDS.search(text)):
        kind = "numeric"
    elif _METHOD.search(text):
        kind = "method"
    else:
        kind = "factual"
    return Question(text=text, type=kind, terms=content_terms(text), labels=labels)
