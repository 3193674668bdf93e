"""Definition questions about an acronym or a term: "What does OLMo stand for?" is answered
by the sentence that spells it out, "What is a X?" by one that defines X."""

from __future__ import annotations

import re

from citewise.agent.ask.question import Question
from citewise.agent.sentences.answer_shapes import defined_term, defines
from citewise.agent.sentences.extractive import Candidate
from citewise.regex import lazy

_ACRONYM = lazy(r"^(?=(?:.*[A-Z]){2})[A-Za-z0-9-]{2,12}$")


def expands(acronym: str, text: str) -> bool:
    """Whether the text spells the acronym out ("Open Language Model" for "OLMo"): words
    in a row whose initials are its capitals (a lower-case tail may be dropped)."""
    letters = [c.lower() for c in acronym if c.isalnum()]
    capitals = [c.lower() for c in acronym if c.isupper() or c.isdigit()]
    words = re.findall(r"[A-Za-z][\w-]*", text)
    for wanted in {tuple(letters), tuple(capitals)}:
        n = len(wanted)
        if n < 2:
            continue
        for i in range(len(words) - n + 1):
            if tuple(w[0].lower() for w in words[i : i + n]) == wanted:
                return True
    return False


def _acronyms(question: Question) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z][\w-]+", question.text) if _ACRONYM.match(w)]


def spells_out_the_name(question: Question, text: str) -> bool:
    """A definition question's span that spells out the acronym it asks about."""
    return question.type == "definition" and any(expands(n, text) for n in _acronyms(question))


def defining_first(
    question: Question, chosen: list[Candidate], ranked: list[Candidate]
) -> list[Candidate]:
    """For "What does X stand for?", a sentence that spells X out goes first; for "What
    is a X?" / "What does X mean?", one that defines X ("a X is a ...", "X refers to")."""
    names = _acronyms(question) if question.type == "definition" else []
    term = defined_term(question)
    if not (names or term) or not ranked:
        return chosen
    floor = 0.5 * ranked[0].score
    for candidate in ranked[:30]:
        if candidate.score < floor:
            break
        if any(expands(n, candidate.text) for n in names) or (
            term and defines(term, candidate.text)
        ):
            return [candidate, *[c for c in chosen if c.text != candidate.text]]
    return chosen
