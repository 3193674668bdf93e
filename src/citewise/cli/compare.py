"""Comparison commands: `compare DOC DOC…`, `matrix --out FILE`, `setup DOC`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from citewise.api.names import DEFAULT_COLUMNS
from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out, progress_bar
from citewise.cli.options import JsonOption, JsonSummaryOption

Llm = Annotated[
    str | None,
    cli.Option("--llm", help="BACKEND:MODEL for cells the patterns miss (else: extract role)."),
]
LlmUrl = Annotated[str | None, cli.Option("--llm-url", help="Base URL of the model server.")]
Aspects = Annotated[
    str | None,
    cli.Option(
        "--aspects", help="Comma-separated, e.g. 'optimizer,learning rate schedule,clipping'."
    ),
]


@app.command()
def compare(
    docs: Annotated[list[str], cli.Argument(help="Two or more document IDs.")],
    aspects: Aspects = None,
    as_json: JsonOption = False,
    as_markdown: Annotated[bool, cli.Option("--markdown")] = False,
    as_csv: Annotated[bool, cli.Option("--csv")] = False,
    llm: Llm = None,
    llm_url: LlmUrl = None,
) -> None:
    """Compare papers aspect by aspect: one cited cell per paper, 'not stated' when absent."""
    from citewise.api.aspects import parse_aspects
    from citewise.report.compare_view import print_comparison
    from citewise.report.matrix import comparison_csv, comparison_markdown

    with open_library(embeddings=False) as lib:
        wanted = parse_aspects(aspects, ()) if aspects else None
        result = lib.compare(docs, wanted, lib.extract_model(llm, llm_url))
    if as_json:
        emit_json(result.to_dict())
    elif as_markdown:
        sys.stdout.write(comparison_markdown(result))
    elif as_csv:
        sys.stdout.write(comparison_csv(result))
    else:
        print_comparison(out, result)


@app.command()
def matrix(
    out_file: Annotated[Path, cli.Option("--out", help="FILE.csv, .xlsx, .md or .json.")],
    all_docs: Annotated[bool, cli.Option("--all", help="Every paper in the library.")] = False,
    docs: Annotated[str | None, cli.Option("--docs", help="ID,ID,… (default: all).")] = None,
    columns: Annotated[
        str | None, cli.Option("--columns", help=f"Default: {','.join(DEFAULT_COLUMNS)}.")
    ] = None,
    as_json: JsonSummaryOption = False,
    llm: Llm = None,
    llm_url: LlmUrl = None,
) -> None:
    """The literature matrix: one row per paper, one cited cell per column."""
    from rich.markup import escape

    from citewise.api.aspects import parse_aspects
    from citewise.report.matrix import write_matrix

    if all_docs and docs:
        raise cli.BadParameter("give --all or --docs, not both", param_hint="--docs")
    wanted = parse_aspects(columns, DEFAULT_COLUMNS)
    with open_library(embeddings=False) as lib:
        ids = [d.strip() for d in docs.split(",") if d.strip()] if docs else None
        total = len(ids) if ids else len(lib.documents())
        with progress_bar(sys.stderr.isatty()) as bar:
            task = bar.add_task("matrix", total=total)
            model = lib.extract_model(llm, llm_url)
            result = lib.matrix(ids, wanted, lambda doc: bar.advance(task), model)
    write_matrix(result, out_file)
    summary = {
        "out": str(out_file),
        "rows": len(result.rows),
        "columns": list(result.columns),
        "fill_rate": round(result.fill_rate, 3),
        "computed": result.computed,
        "cached": result.cached,
    }
    if as_json:
        emit_json(summary)
    else:
        from citewise.report.words import plural

        err.print(
            f"{escape(str(out_file))}: {plural(len(result.rows), 'paper')} × "
            f"{plural(len(result.columns), 'column')}, "
            f"{result.fill_rate:.0%} filled ({result.computed} computed, {result.cached} cached)"
        )


@app.command()
def setup(
    doc: Annotated[str, cli.Argument(help="Document ID (see 'citewise list').")],
    as_json: JsonOption = False,
    as_yaml: Annotated[bool, cli.Option("--yaml")] = False,
) -> None:
    """Everything needed to rerun a paper's experiments, each setting cited."""
    import yaml
    from rich.markup import escape
    from rich.table import Table as RichTable

    from citewise.api.aspects import NOT_STATED

    with open_library(embeddings=False) as lib:
        result = lib.setup(doc)  # every setup aspect
    if as_json:
        emit_json(result.to_dict())
        return
    if as_yaml:
        sys.stdout.write(yaml.safe_dump(result.to_dict(), sort_keys=False, allow_unicode=True))
        return
    view = RichTable("aspect", "value", "page", "quote", title=result.title, show_lines=True)
    for item in result.items:
        if not item.findings:
            view.add_row(item.aspect, f"[dim]{NOT_STATED}[/]", "", "")
        for f in item.findings:
            view.add_row(item.aspect, escape(f.value), str(f.page), escape(f.quote))
    out.print(view)
