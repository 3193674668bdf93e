"""Question analysis: what kind of answer is wanted, about which terms, labels and papers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property

from citewise.agent.ask.table_reading import Ask, read
from citewise.retrieval.terms import content_terms

_LABEL = re.compile(
    r"\b(table|tab\.|figure|fig\.|equation|eq\.|section|sec\.)\s*\(?([A-Z]?\d+(?:\.\d+)*)\)?",
    re.IGNORECASE,
)
_LABEL_NAMES = {
    "table": "Table",
    "tab.": "Table",
    "figure": "Figure",
    "fig.": "Figure",
    "equation": "Eq.",
    "eq.": "Eq.",
    "section": "Section",
    "sec.": "Section",
}

# "How many ...", or a what/which question about a measurable quantity.
# (a dimension: "how thick", "how deep", "how far" is a number with its unit)
_NUMERIC = re.compile(
    r"\bhow (many|much|long|often|large|big|fast|old|thick|deep|tall|wide|high|far|heavy)\b",
    re.IGNORECASE,
)
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
_METHOD = re.compile(
    r"^\s*(how (were|was|did|do|does|is|are)|which (method|approach|model|tool))", re.IGNORECASE
)


_AUX = frozenset(
    """was were is are did do does can could has have had will would should of for in on
    with from between when that according to""".split()
)
_WHO_DID = re.compile(r"\bwho(?:m)?\s+([a-z]+(?:ed|led|ote|ew|ve|ght|id|ook|ent))\b", re.I)
_WH_START = re.compile(
    r"\b(?:how (?:many|much)|what|which)\s+(?:(?:was|were|is|are)\s+)?(?:(?:the|a|an)\s+)?",
    re.IGNORECASE,
)
# Heads that any quantity or named thing satisfies: they say what kind of answer, not what about.
_GENERIC_HEADS = frozenset(
    """share percentage proportion fraction number count amount value score rate ratio many
    much long two three four five method approach program programs tool tools technique
    software package kind type way sort""".split()
)


# "What happens to ...", "what causes ...": a verb right after "what" means no attribute.
_VERBS_AFTER_WHAT = frozenset(
    """happens happened happen causes caused cause makes made explains explained limits
    limited affects affected drives drove remains changes changed determines determined
    influences leads led prevents prevented""".split()
)


# After the noun asked about, a verb in the past ("how many stakeholders took part", "how
# many papers cited it") says what was done with it, not what is asked about.
_IRREGULAR_PAST = frozenset(
    """took gave came went made got saw ran won lost left held kept met sent spent found
    became began chose drew fell felt grew knew paid put said sat stood told thought wrote
    brought bought caught taught underwent""".split()
)


def _past_verb(word: str) -> bool:
    return word in _IRREGULAR_PAST or (
        len(word) > 4 and word.endswith("ed") and not word.endswith("eed")
    )


def _acts_on(bare: str, word: str, following: list[str]) -> bool:
    """A past verb after the noun, going on to its complement ("took part in"); an -ed word
    closing the clause ("interest related,") or a participle with its agent ("companies
    acquired by Pfizer") still modifies the noun."""
    if not _past_verb(bare) or word != word.rstrip(",?;:()"):
        return False
    return not (following and following[0].lower() == "by")


def attribute_terms(text: str) -> list[str]:
    """Content words of the thing a question asks about ("mean age" in "What was the mean age
    of the participants?"), minus heads that only name the answer's type."""
    match = _WH_START.search(text)
    who = _WHO_DID.search(text)
    if who and (not match or who.start() < match.start()):
        # "Who funded the study?": what is asked about is the act ("funded")
        return [w for w in content_terms(who.group(1)) if w not in _AUX]
    if not match:
        return []
    phrase: list[str] = []
    rest = re.split(r"\s+", text[match.end() :])
    for n, word in enumerate(rest):
        bare = word.strip(",?;:()").lower()
        if (
            not bare
            or bare in _AUX
            or len(phrase) == 4
            or (not phrase and bare in _VERBS_AFTER_WHAT)
            or (phrase and _acts_on(bare, word, rest[n + 1 : n + 2]))
        ):
            break
        phrase.append(bare)
        if word != word.rstrip(",?;:("):
            break  # punctuation closes the phrase
    return [w for w in content_terms(" ".join(phrase)) if w not in _GENERIC_HEADS]


_PART_SPLIT = re.compile(
    r",?\s+and\s+(?=(?:what|which|who|whom|how|when|where|why)\b)", re.IGNORECASE
)


# Questions that want several sentences: a list, an explanation, a procedure, an account
# ("what does the company say about X": what the passage says, not one sentence of it).
_WANTS_LIST = re.compile(
    r"^\s*(why|explain|describe|summari[sz]e|list|how (were|was|did|do|does|is|are)\b)"
    r"|\b(what are the|which \w+s (are|were|do|did)|steps|reasons|limitations)\b"
    r"|\b(say|says|said|state|states|write|writes)\s+(about|regarding)\b",
    re.IGNORECASE,
)
_WHO = re.compile(r"^\s*(\w+\W+){0,4}?(who|whom|which (individual|person|author|people))\b", re.I)
# What only the image shows: colours, drawn marks, positions of curves and items.
_VISUAL = re.compile(
    r"\b(colou?rs?|red|green|blue|yellow|grey|gray|black|white|purple|orange|pink|italic|"
    r"bold|background|shaded|drawn|depicted|pictured|plotted|curves?|arrows?|icons?|stamp|"
    r"photo(graph)?s?|images?|pictures?|top of page|bottom of page|leftmost|rightmost)\b",
    re.IGNORECASE,
)
_FIGURE_WORDS = re.compile(r"\b(figures?|fig\.|charts?|plots?|diagrams?)\b", re.I)
# "Compare X in A and B", "which papers ...", "across all papers": one answer per paper.
_COMPARATIVE = re.compile(
    r"^\s*compare\b|\bwhich (papers|documents|studies|articles)\b|\b(across|in) (all|each|"
    r"both|every) (of the )?(papers|documents|studies|articles)\b|\b(differ|difference) between\b",
    re.IGNORECASE,
)


@dataclass
class Question:
    """A question, analysed: its type, the terms to look for, and labels it points at.

    The one shared analysis: answer selection, refusal, figure handling and table/number
    answers all read it. `scope` is filled in by the answerer (agent/ask/scope.py)."""

    text: str
    type: str  # numeric | definition | method | factual
    terms: list[str]
    labels: list[str] = field(default_factory=list)
    attribute: list[str] = field(default_factory=list)  # what exactly is asked about
    scope: tuple[str, ...] = ()  # documents the question names (or --doc), if any
    # learned from the library (agent/ask/vocabulary.py): extra search terms, and per term stem
    # the stem sets that also cover it ("lr" for "learning rate")
    expansion: list[str] = field(default_factory=list)
    aliases: dict[str, list[frozenset[str]]] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.type

    @property
    def expects_number(self) -> bool:
        return self.type == "numeric"

    @property
    def expects_name(self) -> bool:
        """ "Who led ...", "which individual ...": the answer is a person's name."""
        return bool(_WHO.search(self.text))

    @property
    def wants_list(self) -> bool:
        """A list, explanation or procedure: may take more than one sentence."""
        return bool(_WANTS_LIST.search(self.text)) or self.type == "method"

    @property
    def is_visual(self) -> bool:
        """Asks about what a figure shows as an image (colours, drawn items, positions)."""
        return bool(_VISUAL.search(self.text)) or (
            bool(_FIGURE_WORDS.search(self.text)) and bool(re.search(r"\bshown|show\b", self.text))
        )

    @property
    def figure_labels(self) -> list[str]:
        return [label for label in self.labels if label.startswith("Figure")]

    @property
    def is_comparative(self) -> bool:
        return bool(_COMPARATIVE.search(self.text))

    @cached_property
    def table(self) -> Ask:
        """What it asks of a table's figures: operation, periods, row phrase, comparison,
        condition, rounding, rows to list (agent/ask/table_reading.py), read once; the table
        proposer's handlers take this, not the text."""
        return read(self.text)

    def parts(self) -> list[Question]:
        """The sub-questions of "How many X, and what Y?"; just [self] for a simple question."""
        pieces = [p.strip(" ,") for p in _PART_SPLIT.split(self.text) if p.strip(" ,")]
        if len(pieces) < 2:
            return [self]
        # each part keeps the whole question's scope and the library's vocabulary for it
        return [
            replace(analyse(p), scope=self.scope, expansion=self.expansion, aliases=self.aliases)
            for p in pieces
        ]


def analyse(text: str) -> Question:
    """Classify the question and pull out its key terms and referenced labels."""
    labels = [f"{_LABEL_NAMES[m.group(1).lower()]} {m.group(2)}" for m in _LABEL.finditer(text)]
    asking = focus_sentence(text)
    if _DEFINITION.search(asking):
        kind = "definition"
    elif _NUMERIC.search(asking) or (_WH.search(asking) and _QUANTITY_WORDS.search(asking)):
        kind = "numeric"
    elif _METHOD.search(asking):
        kind = "method"
    else:
        kind = "factual"
    focus = focus_sentence(text)
    return Question(
        text=text,
        type=kind,
        terms=content_terms(focus),
        labels=labels,
        attribute=attribute_terms(focus),
    )


_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def focus_sentence(text: str) -> str:
    """The asking sentence of "S2ORC uses ScienceParse. What F1 does ... report?": a lead
    statement sets the context, the question says what to find."""
    pieces = [p for p in _SENTENCES.split(text.strip()) if p]
    asking = [p for p in pieces if p.rstrip().endswith("?")]
    if len(pieces) < 2 or not asking:
        return text
    return asking[-1]
