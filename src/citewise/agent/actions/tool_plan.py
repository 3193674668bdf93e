"""Plans of tool calls for `ask --trace`: a `reason` model's steps, or deterministic routing.

The model may emit only `{"action", "params", "next_step"}` JSON (agent/actions/tools.py PlanStep,
asked for with its JSON schema); Python validates every step against the registry and runs
it. Without a model, or when none of its steps succeeds, one step is routed by code from
the question's analysis: a comparison, a table or equation of one paper, else a search.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from citewise.agent.actions.tools import REGISTRY, PlanStep, ToolOutcome, run_step
from citewise.agent.ask.question import Question
from citewise.agent.ask.scope import ScopeChoice
from citewise.agent.comparison.compare_answer import comparison_request
from citewise.llm.base import Params
from citewise.llm.client import ModelClient
from citewise.llm.structured import structured_call

MAX_STEPS = 3
MAX_LISTED = 30  # document IDs named to the model
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


# what the model may write (a small model rambles): characters of a string, list items
MAX_STRING = 120
MAX_ITEMS = 6
REPLY_TOKENS = 400  # room for the longest reply the caps allow, so the JSON always closes


def _bounded(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's parameter schema with every string and list capped in length, and no
    `pattern`: llama.cpp's schema-to-grammar converter refuses the regex syntax the
    matrix's "preset or free phrase" pattern uses ("(?:", an AssertionError), so the model
    step failed; the registry validates each call against the full schema anyway."""
    out = {k: v for k, v in schema.items() if k != "pattern"}
    if out.get("type") == "string":
        out["maxLength"] = MAX_STRING
    if out.get("type") == "array":
        out["maxItems"] = MAX_ITEMS
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: _bounded(v) for k, v in out["properties"].items()}
    if isinstance(out.get("items"), dict):
        out["items"] = _bounded(out["items"])
    if isinstance(out.get("anyOf"), list):
        out["anyOf"] = [_bounded(v) for v in out["anyOf"]]
    return out


def _one_of_the_tools(schema: dict[str, Any]) -> None:
    """The reply's JSON schema: one object per tool, its action a constant and its params
    that tool's parameter schema, so a grammar-constrained model can only write a call the
    registry knows (which still validates it)."""
    schema.clear()
    schema["anyOf"] = [
        {
            "type": "object",
            "properties": {
                "action": {"const": name},
                "params": _bounded(tool.params.model_json_schema()),
                "next_step": {
                    "anyOf": [{"type": "string", "maxLength": MAX_STRING}, {"type": "null"}]
                },
            },  # fmt: skip
            "required": ["action", "params", "next_step"],
        }
        for name, tool in REGISTRY.items()
    ]


class PlanReply(BaseModel):
    """What the model is asked for; validated as a PlanStep, then by the registry."""

    model_config = ConfigDict(json_schema_extra=_one_of_the_tools)

    action: str
    params: dict[str, Any] = Field(default_factory=dict)
    next_step: str | None = None


def _signature(name: str) -> str:
    """`compare_methods(documents: array, aspects?: array): An aspect x paper table ...`"""
    tool = REGISTRY[name]
    schema = tool.params.model_json_schema()
    required = set(schema.get("required", []))
    args = ", ".join(
        f"{k}{'' if k in required else '?'}: {v.get('type', 'any')}"
        for k, v in schema.get("properties", {}).items()
    )
    return f"{name}({args}): {tool.description}"


def _messages(question: str, done: list[TraceStep], library: list[str]) -> list[dict[str, str]]:
    system = (
        "You plan calls to a research library's tools. Reply with only one JSON object "
        '{"action": ..., "params": {...}, "next_step": ...}; next_step is null when the '
        "question can be answered from the results so far. Tools:\n"
        + "\n".join(_signature(n) for n in REGISTRY)
    )
    history = "".join(
        f"\nStep {n}: {json.dumps(s.step.model_dump())} -> "
        + json.dumps(s.outcome.model_dump(exclude={"next_step"}))[:RESULT_CHARS]
        for n, s in enumerate(done, start=1)
    )
    return [
        {"role": "system", "content": system},
        {
            "role": "user",
            "content": f"Documents: {', '.join(library[:MAX_LISTED])}\n"
            f"Question: {question}{history}\nNext step:",
        },  # fmt: skip
    ]


def run_plan(
    lib: Any,
    question: str,
    fallback: PlanStep,
    model: ModelClient | None = None,
    library: list[str] | None = None,
    max_steps: int = MAX_STEPS,
) -> list[TraceStep]:
    """The model's steps (at most max_steps, each validated and run), then the routed step
    when there is no model or none of its steps succeeded."""
    trace: list[TraceStep] = []
    while model is not None and len(trace) < max_steps:
        messages = _messages(question, trace, library or [])
        reply = structured_call(model, messages, PlanReply, Params(max_tokens=REPLY_TOKENS))
        if reply.value is None:
            break
        step = PlanStep.model_validate(reply.value.model_dump())
        trace.append(TraceStep("model", step, run_step(lib, step.model_dump())))
        if trace[-1].outcome.ok and not step.next_step:
            break
    if not any(s.outcome.ok for s in trace):
        trace.append(TraceStep("route", fallback, run_step(lib, fallback.model_dump())))
    return trace
