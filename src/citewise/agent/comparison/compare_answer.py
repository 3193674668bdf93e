"""Comparative questions answered with the compare table.

"Compare the optimizer settings in A and B", "compare X across all papers", "how do A and
B differ in learning rate schedule": when the question names aspects a comparison knows
(or names only papers), `ask` answers with the aspect x paper table of cited cells and the
key-differences paragraph built from them (agent/comparison/compare.py). A comparative question
about
something no aspect covers ("the number of boosting rounds") keeps the per-paper answer of
agent/comparison/compare_questions.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from citewise.agent.ask.answer import Answer, AnswerSentence, Evidence
from citewise.agent.ask.question import Question
from citewise.agent.ask.refusal import NOT_ANSWERED
from citewise.agent.ask.scope import ScopeChoice
from citewise.agent.comparison.aspects import aspects_in_question
from citewise.agent.comparison.compare import Comparison
from citewise.agent.comparison.compare_questions import FRAMING, MAX_PAPERS, asks_to_compare
from citewise.retrieval.terms import stem

# The whole library is meant (when the question names fewer than two papers).
_ALL = re.compile(
    r"\b(?:all|each|every|both) (?:of )?(?:the )?(?:papers|documents|studies|articles)\b"
    r"|\bacross (?:the )?(?:papers|documents|studies|articles|library)\b",
    re.IGNORECASE,
)
# Words that ask for a comparison or mean "their aspects", not a topic of their own.
_GENERIC = frozenset(
    """compare contrast differ differs differed differences vs versus how settings setting
    configuration configurations setups setup details choices respect terms regard
    approaches""".split()
)


@dataclass(frozen=True)
class ComparisonRequest:
    """The papers to compare and the aspects asked for (None: the default aspects)."""

    documents: list[str]
    aspects: list[str] | None


def comparison_request(
    question: Question, scope: list[ScopeChoice], library: list[str]
) -> ComparisonRequest | None:
    """What a comparative question asks of the compare table, or None when it is not such
    a question (the answerer then answers it as usual)."""
    text = question.text
    if not asks_to_compare(text):
        return None
    papers = [s.document for s in scope]
    if len(papers) < 2:
        if not _ALL.search(text) or not 2 <= len(library) <= MAX_PAPERS:
            return None
        papers = library
    aspects = aspects_in_question(text)
    if aspects:
        return ComparisonRequest(papers, aspects)
    named = set().union(*(s.words for s in scope)) | {stem(d.lower()) for d in papers}
    topic = [
        t
        for t in question.terms
        if t.lower() not in FRAMING | _GENERIC and stem(t.lower()) not in named
    ]
    # "compare A and B": the default aspects; a topic no aspect covers: not the table
    return None if topic else ComparisonRequest(papers, None)


@dataclass
class ComparativeAnswer(Answer):
    """An answer whose body is a comparison: `comparison` is the `compare --json` object."""

    comparison: Comparison | None = None

    def to_dict(self) -> dict[str, object]:
        out = Answer.to_dict(replace(self, comparison=None))
        out["comparison"] = self.comparison.to_dict() if self.comparison else None
        return out


def answer_text(comparison: Comparison) -> str:
    """One line per aspect ("optimizer: a: AdamW (p. 2); b: SGD (p. 3)"), then the key
    differences."""
    lines = []
    for aspect in comparison.aspects:
        said = []
        for doc, _ in comparison.documents:
            c = comparison.cell(aspect, doc)
            said.append(f"{doc}: {c.value}" + (f" (p. {c.finding.page})" if c.finding else ""))
        lines.append(f"{aspect}: " + "; ".join(said))
    if comparison.key_differences:
        lines.append("Key differences: " + comparison.key_differences)
    return "\n".join(lines)


def comparative_answer(
    question: str,
    comparison: Comparison,
    evidence_of: Callable[[str], Evidence | None],
    closest: Callable[[], list[Evidence]],
) -> ComparativeAnswer:
    """The table as an answer: one cited sentence per stated cell and per difference; a
    refusal (with the closest passages) when no paper states any aspect asked for."""
    # the support: the share of the asked cells (each paper x aspect) a paper states
    stated = round(sum(1 for c in comparison.cells if c.finding) / max(1, len(comparison.cells)), 3)
    sentences = [
        AnswerSentence(
            f"{c.document}: {c.aspect}: {c.value}",
            [c.finding.block_id],
            stated,  # each value occurs verbatim in its quote (Finding checks it)
            kind="compared",
            cell={"aspect": c.aspect, "document": c.document, "value": c.value},
        )
        for c in comparison.cells
        if c.finding
    ]
    sentences += [
        AnswerSentence(d.text, list(d.citations), stated, kind="difference")
        for d in comparison.differences
    ]
    cited = dict.fromkeys(b for s in sentences for b in s.citations)
    evidence = [e for e in map(evidence_of, cited) if e is not None]
    if not sentences:
        refusal = "None of the papers states " + ", ".join(comparison.aspects) + "."
        return ComparativeAnswer(
            question, True, refusal, [], closest(), 0.0,
            refusal_kind=NOT_ANSWERED, comparison=comparison,
        )  # fmt: skip
    return ComparativeAnswer(
        question, False, answer_text(comparison), sentences, evidence, stated,
        comparison=comparison,
    )  # fmt: skip
