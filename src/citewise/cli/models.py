"""Model commands: usage, doctor, chat."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out
from citewise.cli.options import JsonOption, LlmOption, LlmUrlOption, NoCacheOption


@app.command()
def usage(
    task: Annotated[str | None, cli.Option("--task", help="Only calls of this task.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Model calls logged in this library: tokens, cost, cache hits, latency."""
    from rich.table import Table

    from citewise.report.terminal import safe

    with open_library(embeddings=False) as lib:
        summary = lib.usage(task)
    if as_json:
        emit_json(summary.to_dict())
        return
    table = Table(
        "backend", "model", "role", "calls", "prompt tok", "compl. tok", "cost $", "p50 ms"
    )
    for row in summary.by_model:
        table.add_row(*(safe(v) for v in (
            row.backend, row.model, row.role, row.calls, row.prompt_tokens,
            row.completion_tokens, row.cost_usd, row.latency_ms_p50,
        )))  # fmt: skip
    out.print(table)
    from citewise.report.words import plural

    out.print(
        f"{plural(summary.calls, 'call')} ({summary.cache_hits} from cache), "
        f"{summary.prompt_tokens} prompt + {summary.completion_tokens} completion tokens"
    )


@app.command()
def doctor(
    llm: LlmOption = None,
    llm_url: LlmUrlOption = None,
    check_index: Annotated[
        bool,
        cli.Option(
            "--check", help="Also compare the search indexes with the store and repair them."
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Which model serves each role, and whether it is reachable (exit 1 if one is not);
    with --check, whether the vector index matches the store (repaired where it does not)."""
    from rich.table import Table

    from citewise.report.terminal import print_index_report, safe

    with open_library(embeddings=False) as lib:
        reports = lib.doctor(llm, llm_url)
        source = lib.model_settings.source
        embedding = lib.check_embedding()
        index = lib.check_index() if check_index else None
        stats = lib.stats()
    failing = any(not c.ok for r in reports for c in r.models) or not embedding.ok
    failing = failing or (index is not None and not index.ok)
    if as_json:
        emit_json({
            "config": source, "roles": [asdict(r) for r in reports],
            "embedding": asdict(embedding), "library": stats.to_dict(), "ok": not failing,
            **({"index": index.to_dict()} if index is not None else {}),
        })  # fmt: skip
    else:
        out.print(f"config: {safe(source or 'none (every role uses the extractive backend)')}")
        from citewise.report.terminal import print_library_stats

        print_library_stats(out, stats)
        table = Table("role", "model", "state", "detail")
        table.add_row(
            "embed", safe(embedding.spec),
            "[green]ok[/]" if embedding.ok else "[red]unreachable[/]",
            safe(embedding.detail + (f" — {embedding.hint}" if embedding.hint else "")),
        )  # fmt: skip
        for report in reports:
            if not report.models:
                table.add_row(report.role, "extractive", "[green]ok[/]", "no model needed")
            for check in report.models:
                state = "[green]ok[/]" if check.ok else "[red]unreachable[/]"
                detail = check.detail + (f" — {check.hint}" if check.hint else "")
                table.add_row(report.role, safe(check.spec), state, safe(detail))
        out.print(table)
        if index is not None:
            print_index_report(out, index)
    if failing:
        raise cli.Exit(1)


@app.command()
def chat(
    doc: Annotated[list[str] | None, cli.Option("--doc", help="Only this document.")] = None,
    llm: LlmOption = None,
    llm_url: LlmUrlOption = None,
    no_cache: NoCacheOption = False,
    k: Annotated[int, cli.Option("-k", help="Passages to retrieve.")] = 8,
    as_json: Annotated[bool, cli.Option("--json", help="One JSON object per turn.")] = False,
    trace: Annotated[
        bool, cli.Option("--trace", help="Also print each turn's tool steps (as ask --trace).")
    ] = False,
) -> None:
    """Multi-turn questions (one per line; empty line, 'exit' or end of input ends).
    Every turn searches the library afresh; earlier turns only resolve 'it', 'that method'."""
    from citewise.report.terminal import print_answer, safe
    from citewise.report.trace_view import print_trace

    with open_library() as lib:
        session = lib.chat(doc or [], k, llm, llm_url, not no_cache)
        interactive = sys.stdin.isatty()
        while True:
            if interactive:
                err.print("[bold]?[/] ", end="")
            line = sys.stdin.readline()
            text = line.strip()
            if not text or text.lower() in {"exit", "quit"}:
                break
            turn = session.send(text)
            steps = lib.plan(turn.resolved, doc or [], llm, llm_url) if trace else []
            if as_json:
                row = {**turn.answer.to_dict(), "resolved_question": turn.resolved}
                row |= {"trace": [s.to_dict() for s in steps]} if trace else {}
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
                sys.stdout.flush()
            else:
                if turn.resolved != text:
                    err.print(f"[dim]searching for: {safe(turn.resolved)}[/]")
                print_trace(err, steps)
                print_answer(out, turn.answer)
                out.print()
