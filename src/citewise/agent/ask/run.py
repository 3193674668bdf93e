"""The pipeline's stages after retrieval: propose -> check -> score -> choose -> settle
(answer or refuse) -> revise, over the one state (state.py)."""

from __future__ import annotations

import time

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.checks import run_checks
from citewise.agent.ask.pick import STOPS_EARLY, choose, score
from citewise.agent.ask.refusal import NOT_ANSWERED, RefusalPolicy
from citewise.agent.ask.registry import Registry, checked_candidates
from citewise.agent.ask.state import KIND_REFUSAL, AskState, Candidate
from citewise.agent.ask.trace import DISABLED, FIRED, NOTHING, REVISED, SKIPPED, UNCHANGED
from citewise.agent.sentences.draft import Draft


def run(state: AskState, registry: Registry, policy: RefusalPolicy) -> Answer:
    """Every enabled proposer adds candidates (each checked and scored as it comes); one
    is chosen, settled into an answer or a refusal, then the revisers restate it."""
    propose(state, registry, policy)
    state.winner = choose(state.candidates, [p.name for p in registry.proposers])
    return revise(state, registry, settle(state, state.winner))


def propose(state: AskState, registry: Registry, policy: RefusalPolicy) -> None:
    """Each enabled proposer in order; the precedence scorer stops at the first candidate
    that passes its checks, unless the run is traced (exhaustive)."""
    decided = False
    for proposer in registry.proposers:
        if not registry.enabled(proposer.name):
            state.ran[proposer.name] = DISABLED
            continue
        if decided:
            state.ran[proposer.name] = SKIPPED
            continue
        found = checked_candidates(proposer, proposer.propose(state))
        for candidate in found:
            run_checks(candidate, state)
        score(found, policy)
        state.candidates += found
        state.ran[proposer.name] = FIRED if found else NOTHING
        decided = STOPS_EARLY and not state.exhaustive and any(c.passed for c in found)


def settle(state: AskState, winner: Candidate | None) -> Answer:
    """The winner as the answer: a drafted one is refused or answered by its signals (the
    refusal decision), a refusal stands, any other answers with its support."""
    answerer, question = state.answerer, state.question
    if winner is None:  # every proposer disabled, or every candidate failed a check
        return answerer.absent(question, [], state.hits, NOT_ANSWERED)
    answer = winner.answer
    support = winner.support or 0.0
    draft = winner.basis.get("draft")
    if isinstance(draft, Draft):
        blocks = winner.basis["blocks"]
        answer = answerer.settle_draft(question, draft, state.hits, blocks, answer, support)
        answer.timings_ms = {
            "retrieve": round((state.retrieved_at - state.started) * 1000),
            "answer": round((time.perf_counter() - state.retrieved_at) * 1000),
        }
    elif winner.kind != KIND_REFUSAL:
        answer.support_score = support
    return answer


def revise(state: AskState, registry: Registry, answer: Answer) -> Answer:
    """Each enabled reviser in order may restate the answer."""
    for reviser in registry.revisers:
        if not registry.enabled(reviser.name):
            state.ran[reviser.name] = DISABLED
            continue
        before = _said(answer)
        revised = reviser.revise(state, answer)
        answer = answer if revised is None else revised
        changed = revised is not None and _said(answer) != before
        state.ran[reviser.name] = REVISED if changed else UNCHANGED
        if changed:
            state.revised_by.append(reviser.name)
    return answer


def _said(answer: Answer) -> str:
    """What an answer says and how (its text, refusal, lead words), to see a revision."""
    leads = "".join(s.lead for s in answer.sentences)
    return f"{answer.refused}|{answer.refusal_kind}|{leads}|{answer.answer}"
