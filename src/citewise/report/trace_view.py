"""`ask --trace`: each answer shape's candidates (agent/ask/trace.py), then each tool
step, who chose it, and what it returned, one line each."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from citewise.report.safe_text import safe

if TYPE_CHECKING:  # `ask` imports this module whether or not it traces: no tool registry
    from rich.console import Console

    from citewise.agent.actions.tool_plan import TraceStep

SHOWN_CHARS = 160


def _summary(step: TraceStep) -> str:
    outcome = step.outcome
    if outcome.error is not None:
        return f"[red]{outcome.error.code}[/]: {safe(outcome.error.message)}"
    result = outcome.result or {}
    sizes = ", ".join(f"{len(v)} {k}" for k, v in result.items() if isinstance(v, list))
    return "[green]ok[/]" + (f" ({sizes})" if sizes else "")


def print_trace(console: Console, trace: list[TraceStep]) -> None:
    for n, step in enumerate(trace, start=1):
        params = json.dumps(step.step.params, ensure_ascii=False)[:SHOWN_CHARS]
        line = f"[dim]step {n} · {step.source}[/] {safe(step.step.action)} {safe(params)} → "
        console.print(line + _summary(step))
        if step.step.next_step:
            console.print(f"    [dim]next: {safe(step.step.next_step)}[/]")


def print_pipeline(console: Console, pipeline: dict[str, object] | None) -> None:
    """Each answer shape: whether it fired, its candidates with support and problems, the
    one that won; each reviser: whether it changed the answer."""
    from citewise.agent.ask.trace import shapes_of

    if not pipeline:
        return  # answered outside the pipeline (a comparison table, a model)
    for shape in shapes_of(pipeline, "proposers"):
        console.print(f"[dim]shape[/] {safe(shape['name'])}: {shape['status']}")
        for c in shape["candidates"]:
            mark = "[green]won[/] " if c["won"] else ""
            problems = "; ".join(p for found in c["problems"].values() for p in found)
            checks = f" [red]{safe(problems)}[/]" if problems else ""
            said = safe(str(c["answer"]))[:SHOWN_CHARS]
            console.print(f"    {mark}{c['kind']} support {c['support']}{checks}: {said}")
    for reviser in shapes_of(pipeline, "revisers"):
        console.print(f"[dim]reviser[/] {safe(reviser['name'])}: {reviser['status']}")
