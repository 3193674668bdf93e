"""The checks every candidate goes through, whichever proposer made it.

- `cited`: every sentence cites evidence the answer carries;
- `numbers`: a cell sentence's value is in the quote it cites, a computed sentence redoes
  from its cited operands (agent/numeric/numeric_check.py);
- `scope`: with --doc, every cited passage is from those documents.

Each check returns its problems (empty: passed); a candidate with any problem cannot win
(pick.py). A refusal candidate quotes nothing and passes them all.
"""

from __future__ import annotations

from collections.abc import Callable

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.state import AskState, Candidate
from citewise.agent.numeric.numeric_check import numeric_problems


def cited(answer: Answer, state: AskState) -> list[str]:
    """Sentences that cite nothing the answer's evidence holds."""
    held = {e.id for e in answer.evidence}
    return [
        f"sentence {i + 1} cites no evidence of the answer"
        for i, s in enumerate(answer.sentences)
        if not any(c in held for c in s.citations)
    ]


def numbers(answer: Answer, state: AskState) -> list[str]:
    """Cell and computed sentences that do not reproduce from their cited quotes."""
    return numeric_problems(answer)


def scope(answer: Answer, state: AskState) -> list[str]:
    """Passages cited from outside the documents --doc named."""
    if not state.documents:
        return []
    where = {e.id: e.document for e in answer.evidence}
    outside = {
        where[c]
        for s in answer.sentences
        for c in s.citations
        if c in where and where[c] not in state.documents
    }
    return [f"cites {d}, outside --doc" for d in sorted(outside)]


CHECKS: dict[str, Callable[[Answer, AskState], list[str]]] = {
    "cited": cited,
    "numbers": numbers,
    "scope": scope,
}


def run_checks(candidate: Candidate, state: AskState) -> Candidate:
    """Every check on the candidate's answer; the problems are kept on the candidate."""
    for name, check in CHECKS.items():
        candidate.problems[name] = check(candidate.answer, state)
    return candidate
