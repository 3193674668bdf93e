"""What the pipeline did for one question (`ask --trace`, the `pipeline` field of `ask --json`
and of the API's answer): per proposer whether it ran and fired, its candidates with their
features, check problems and support, which one won; per reviser whether it changed the
answer.
"""

from __future__ import annotations

from typing import Any, cast

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.registry import Registry
from citewise.agent.ask.state import AskState, Candidate

SHOWN_CHARS = 200
# what `ran` says of a proposer or reviser
FIRED, NOTHING, DISABLED, SKIPPED = "fired", "nothing", "disabled", "skipped"
REVISED, UNCHANGED = "revised", "unchanged"


def _said(answer: Answer) -> str:
    text = " ".join(answer.answer.split())
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def _candidate(candidate: Candidate, winner: Candidate | None) -> dict[str, object]:
    return {
        "kind": candidate.kind,
        "answer": _said(candidate.answer),
        "support": candidate.support,
        "features": {k: round(v, 3) for k, v in candidate.features.items()},
        "problems": {k: v for k, v in candidate.problems.items() if v},
        "won": candidate is winner,
    }


def trace_of(state: AskState, registry: Registry) -> dict[str, object]:
    """The trace of one pipeline run, as JSON-shaped data."""
    proposers = [
        {
            "name": p.name,
            "status": state.ran.get(p.name, SKIPPED),
            "candidates": [_candidate(c, state.winner) for c in state.of(p.name)],
        }
        for p in registry.proposers
    ]
    revisers = [
        {"name": r.name, "status": state.ran.get(r.name, SKIPPED)} for r in registry.revisers
    ]
    return {
        "proposers": proposers,
        "revisers": revisers,
        "winner": state.winner.proposer if state.winner else None,
        "exhaustive": state.exhaustive,
    }


def fired(trace: dict[str, object]) -> set[str]:
    """The proposers that returned a candidate and the revisers that changed the answer."""
    shapes = shapes_of(trace, "proposers") + shapes_of(trace, "revisers")
    return {s["name"] for s in shapes if s["status"] in (FIRED, REVISED)}


def shapes_of(trace: dict[str, object], group: str) -> list[dict[str, Any]]:
    """The trace's proposers or revisers (empty for an answer given outside the pipeline)."""
    return cast(list[dict[str, Any]], trace.get(group) or [])
