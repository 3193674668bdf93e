"""Plans of tool calls for `ask --trace`: a `reason` model's steps, or deterministic routing.

The model may emit only `{"action", "params", "next_step"}` JSON (agent/tools.py PlanStep,
asked for with its JSON schema); Python validates every step against the registry and runs
it. Without a model, or when none of its steps succeeds, one step is routed by code from
the question's analysis: a comparison, a table or equation of one paper, else a search.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from citewise.agent.compare_answer import comparison_request
from citewise.agent.question import Question
from citewise.agent.scope import ScopeChoice
from citewise.agent.tools import REGISTRY, PlanStep, ToolOutcome, run_step
from citewise.llm.base import Params
from citewise.llm.client import ModelClient
from citewise.llm.structured import structured_call

MAX_STEPS = 3
RESULT_CHARS = 600  # of a step's result, shown to the model planning the next step
_TABLE = re.compile(r"\bTable\s+([A-Z]?\d+(?:\.\d+)?)\b", re.I)
_EQUATION = re.compile(r"\b(?:Eq\.?|Equation|Formula)\s*\(?([A-Z]?\d+(?:\.\d+)?)\)?", re.I)


@dataclass(frozen=True)
class TraceStep:
    """One executed step: who chose it, what was asked, what came back."""

    source: Literal["model", "route"]
    step: PlanStep
    outcome: ToolOutcome

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, **self.outcome.model_dump(), "params": self.step.params}


def route(question: Question, scope: list[ScopeChoice], library: list[str]) -> PlanStep:
    """The one step plain code picks for a question."""
    docs = [s.document for s in scope]
    request = comparison_request(question, scope, library)
    if request is not None:
        params: dict[str, Any] = {"documents": request.documents, "aspects": request.aspects or []}
        return PlanStep(action="compare_methods", params=params)
    if len(docs) == 1 and (m := _TABLE.search(question.text)):
        return PlanStep(action="lookup_table", params={"document": docs[0], "label": m[0]})
    if len(docs) == 1 and (m := _EQUATION.search(question.text)):
        return PlanStep(action="extract_formula", params={"document": docs[0], "number": m[1]})
    return PlanStep(action="search_library", params={"query": question.text, "k": 5,
                                                      "documents": docs})  # fmt: skip


def _messages(question: str, done: list[TraceStep]) -> list[dict[str, str]]:
    tools = [
        {"action": t.name, "description": t.description,
         "params": t.params.model_json_schema().get("properties", {})}
        for t in REGISTRY.values()
    ]  # fmt: skip
    system = (
        "You plan calls to a research library's tools. Reply with only one JSON object "
        '{"action": ..., "params": {...}, "next_step": ...}; next_step is null when the '
        "question can be answered from the results so far. Tools: " + json.dumps(tools)
    )
    history = "".join(
        f"\nStep {n}: {json.dumps(s.step.model_dump())} -> "
        + json.dumps(s.outcome.model_dump(exclude={"next_step"}))[:RESULT_CHARS]
        for n, s in enumerate(done, start=1)
    )
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": f"Question: {question}{history}\nNext step:"},
    ]


def run_plan(
    lib: Any, question: str, fallback: PlanStep, model: ModelClient | None = None
) -> list[TraceStep]:
    """The model's steps (at most MAX_STEPS, each validated and run), then the routed step
    when there is no model or none of its steps succeeded."""
    trace: list[TraceStep] = []
    while model is not None and len(trace) < MAX_STEPS:
        reply = structured_call(model, _messages(question, trace), PlanStep, Params(max_tokens=200))
        if reply.value is None:
            break
        trace.append(TraceStep("model", reply.value, run_step(lib, reply.value.model_dump())))
        if trace[-1].outcome.ok and not reply.value.next_step:
            break
    if not any(s.outcome.ok for s in trace):
        trace.append(TraceStep("route", fallback, run_step(lib, fallback.model_dump())))
    return trace
