"""Comparative and multi-paper questions: one cited answer per paper, grouped by paper.

"Compare X in A and B", "which papers ...", "across all papers": each paper is asked the
same question within itself; a paper whose best draft would be refused says "not stated".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from citewise.agent.ask.answer import AnswerSentence
from citewise.agent.ask.question import Question

# Asking for a side-by-side: "compare/contrast ...", "how do A and B differ", "A vs B",
# "differences between", "across all papers". ("Which papers ..." lists, it does not compare.)
_CUE = re.compile(
    r"^\W*(?:please\s+)?(?:compare|contrast)\b|(?<!-)\bdiffer(?:s|ed|ence|ences)?\b|\b(?:vs\.?|versus)"
    r"\s|\bacross (?:all |the |both |each |every )?(?:of the )?(?:papers|documents|studies|"
    r"articles|library)\b|\b(?:all|each|every|both) (?:of )?(?:the )?(?:papers|documents|"
    r"studies|articles)\b",
    re.IGNORECASE,
)


def asks_to_compare(text: str) -> bool:
    """Cheap first look: does the question ask for a side-by-side at all? (Here, not in
    compare_answer.py, so a question that does not loads none of the comparison code.)"""
    return bool(_CUE.search(text))


# Ask every paper only in a library this small, when the question names none.
MAX_PAPERS = 12
NOT_STATED = "not stated"
# Words that frame the comparison, not what each paper is asked about.
FRAMING = frozenset(
    """compare compared comparison papers paper documents document studies study articles
    article each both every across differ difference between library""".split()
)


@dataclass
class PaperAnswer:
    """One paper's part of a comparative answer (sentences empty: not stated)."""

    document: str
    sentences: list[AnswerSentence]
    support: float


def grouped_text(parts: list[PaperAnswer]) -> str:
    """ "doc-a: <span> doc-b: not stated" in the papers' order."""
    lines = []
    for part in parts:
        said = " ".join(s.text for s in part.sentences) if part.sentences else NOT_STATED
        lines.append(f"{part.document}: {said}")
    return "\n".join(lines)


def papers_to_ask(scope: tuple[str, ...], library: list[str]) -> list[str]:
    """The papers a comparative question is put to: those it names, else (in a small
    library) all of them."""
    if len(scope) >= 2:
        return list(scope)
    return library if 2 <= len(library) <= MAX_PAPERS else []


def per_paper_question(question: Question, document: str) -> Question:
    """The question as one paper is asked it: scoped to it, without the framing words."""
    keep = [t for t in question.terms if t not in FRAMING]
    return replace(
        question,
        scope=(document,),
        terms=keep or question.terms,
        attribute=[t for t in question.attribute if t not in FRAMING],
    )
