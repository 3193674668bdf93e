"""`ask --trace`: each tool step, who chose it, and what it returned, one line each."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from citewise.report.safe_text import safe

if TYPE_CHECKING:  # `ask` imports this module whether or not it traces: no tool registry
    from rich.console import Console

    from citewise.agent.tool_plan import TraceStep

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
