"""Literature commands on saved or single works: export (the library's documents as
CSL-JSON, BibTeX or RIS), watch (saved searches), graph (citation networks) and fetch (an
open-access PDF into the library). `search` and the record table live in cli/search.py."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out, settings
from citewise.cli.options import JsonOption, SourcesConfigOption
from citewise.cli.search import literature_for, print_records, split_values


@app.command("export")
def export_library(
    fmt: Annotated[
        str | None,
        cli.Option("--format", "-f", help="csl-json, bibtex or ris (default: from --out)."),
    ] = None,
    out_file: Annotated[
        Path | None,
        cli.Option("--out", "-o", help="Write here: .json, .bib or .ris (default: stdout)."),
    ] = None,
) -> None:
    """Export the library's own documents as CSL-JSON, BibTeX or RIS."""
    from citewise.api.literature import Literature, format_for
    from citewise.report.terminal import plain, safe
    from citewise.report.words import plural

    fmt = format_for(fmt, out_file)
    exported = Literature(settings().library, database=settings().database).export_library(fmt)
    if out_file is None:
        sys.stdout.write(plain(exported.text))
    else:
        out_file.write_text(exported.text, "utf-8")
        err.print(
            f"wrote {plural(exported.count, 'document')} to {safe(out_file)}", highlight=False
        )


@app.command()
def watch(
    query: Annotated[str, cli.Argument(help="The saved query; the same words run the same watch.")],
    sources: Annotated[
        list[str] | None,
        cli.Option("--sources", "-s", help="Comma-separated (default: arxiv,pubmed)."),
    ] = None,
    limit: Annotated[int, cli.Option("--limit", "-n", help="Records to look at per run.")] = 50,
    as_json: JsonOption = False,
    sources_config: SourcesConfigOption = None,
) -> None:
    """Run a saved search: only records new since its last run."""
    from citewise.api.literature import Query, SearchResult
    from citewise.report.terminal import safe
    from citewise.report.words import plural

    run = literature_for(sources_config).watch(
        Query.parse(query), split_values(sources) or None, limit
    )
    for notice in run.result.notices:
        err.print(f"notice: {safe(notice)}", highlight=False)
    for warning in run.result.warnings:
        err.print(f"warning: {safe(warning)}", style="yellow", highlight=False)
    if as_json:
        emit_json(run.to_dict())
        return
    since = f" since {safe(run.previous_run)}" if run.previous_run else ""
    if not run.new:
        out.print(f"No new records{since}.")
        return
    out.print(f"{plural(len(run.new), 'new record')}{since}:")
    print_records(SearchResult(records=run.new, sources=run.result.sources))


@app.command()
def graph(
    target: Annotated[str, cli.Argument(help="A DOI or OpenAlex ID (online), or a document ID.")],
    out_file: Annotated[Path, cli.Option("--out", "-o", help="FILE.gexf or FILE.graphml.")],
    depth: Annotated[int, cli.Option("--depth", min=1, max=2, help="1 or 2 levels.")] = 1,
    sources_config: SourcesConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Citation network: a library document's references (offline), or a work's references
    and citations from OpenAlex."""
    from citewise.api.literature import GRAPH_FORMATS
    from citewise.report.terminal import safe

    if out_file.suffix.lower() not in GRAPH_FORMATS:
        raise cli.BadParameter("use a .gexf or .graphml file", param_hint="--out")
    written = literature_for(sources_config).graph(target, depth, out_file)
    summary = written.summary()
    if as_json:
        emit_json(written.to_dict())
    else:
        out.print(
            f"wrote {summary['nodes']} works and {summary['edges']} citations to {safe(out_file)}"
        )


@app.command()
def fetch(
    target: Annotated[str, cli.Argument(help="DOI, arXiv:ID, PMID or PMCID.")],
    no_embed: Annotated[bool, cli.Option("--no-embed", help="Skip embeddings.")] = False,
    as_json: JsonOption = False,
    sources_config: SourcesConfigOption = None,
    pdf_url: Annotated[
        str | None,
        cli.Option("--pdf-url", help="Download this PDF link (yours) instead of the sources'."),
    ] = None,
) -> None:
    """Find an open-access PDF (arXiv, Europe PMC, OpenAlex, Semantic Scholar), download it
    and ingest it with the sources' metadata. Links the sources name are downloaded only from
    hosts known to serve their PDFs (pdf_hosts in sources.yaml); --pdf-url names any other."""
    from citewise.api.literature import FetchFailedError
    from citewise.report.terminal import safe

    literature = literature_for(sources_config)

    def warn(warning: str) -> None:
        err.print(f"warning: {safe(warning)}", style="yellow", highlight=False)

    def print_failures(failures: list[tuple[str, str]]) -> None:
        for path, reason in failures:
            err.print(f"error: {safe(path)}: {safe(reason)}", highlight=False)

    try:
        fetched = literature.fetch(
            target, lambda: open_library(embeddings=not no_embed), pdf_url, warn
        )
    except FetchFailedError as exc:
        print_failures(exc.failures)
        raise cli.Exit(1) from None
    print_failures(fetched.failures)
    if as_json:
        emit_json(fetched.to_dict())
    else:
        out.print(
            f"fetched {safe(fetched.document)}: {safe(fetched.title)}\n"
            f"  from {safe(fetched.pdf_url)}\n  saved as {safe(fetched.path)}"
        )
