"""Keeping the records complete: `citewise sync zotero` (Zotero as the library of record)
and `citewise enrich` (missing bibliographic fields from Crossref and OpenAlex)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out, progress_bar
from citewise.cli.options import JsonSummaryOption

sync_app = cli.App(
    help="Keep the library in step with a library of record (Zotero).",
    no_args_is_help=True,
)
app.add_group(sync_app, name="sync")

DEFAULT_ZOTERO = Path("~/Zotero")


@sync_app.command("zotero")
def sync_zotero(
    directory: Annotated[
        Path,
        cli.Argument(
            metavar="DIR",
            help="Zotero data directory holding zotero.sqlite and storage/ (default ~/Zotero).",
        ),
    ] = DEFAULT_ZOTERO,
    collection: Annotated[
        str | None,
        cli.Option(
            "--collection",
            metavar="NAME",
            help="Only items in this collection (or a path 'Thesis / Chapter 2') and below.",
        ),
    ] = None,
    no_embed: Annotated[bool, cli.Option("--no-embed", help="Skip embeddings.")] = False,
    as_json: JsonSummaryOption = False,
) -> None:
    """Add new Zotero attachments, update changed items, re-read changed files and remove
    items deleted in Zotero; a rerun with no change touches nothing. Zotero's files are only
    read. Better BibTeX citation keys become document IDs."""
    from citewise.report.terminal import plain, safe
    from citewise.report.words import plural

    with open_library(embeddings=not no_embed) as lib, progress_bar(not as_json) as bar:
        task = bar.add_task("syncing", total=None)

        def advance(name: str, done: int, total: int) -> None:
            bar.update(task, description=safe(name[:40]), completed=done, total=total)

        report = lib.sync_zotero(directory.expanduser(), collection, advance)
        for notice in lib.notices:
            err.print(safe(notice), soft_wrap=True)
    for failure in report.failed:
        sys.stderr.write(plain(f"error: {failure.path}: {failure.reason} ({failure.code})") + "\n")
    for path, warning in report.warnings:
        sys.stderr.write(plain(f"warning: {path}: {warning}") + "\n")
    if as_json:
        emit_json(report.to_dict())
    else:
        out.print(
            f"{len(report.added)} added, {len(report.updated)} updated, "
            f"{len(report.replaced)} re-read, {len(report.removed)} removed, "
            f"{report.unchanged} unchanged, {len(report.failed)} failed "
            f"({plural(report.embedded_blocks, 'block')} embedded) in {report.seconds:.1f} s",
            soft_wrap=True,
        )
    if report.failed:
        raise cli.Exit(1)


@app.command()
def enrich(
    docs: Annotated[
        list[str] | None,
        cli.Argument(metavar="DOC", help="Document IDs (default: every document)."),
    ] = None,
    online: Annotated[
        bool,
        cli.Option(
            "--online",
            help="Ask Crossref and OpenAlex (sends each DOI, or title, over the network; "
            "logged and cached). Without it nothing leaves the machine.",
        ),
    ] = False,
    as_json: Annotated[bool, cli.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Complete bibliographic records (journal or proceedings, volume, issue, pages, DOI,
    publisher) from Crossref and OpenAlex; only fields a record lacks are filled. Without
    --online, show what each record lacks and what would be looked up."""
    from citewise.report.terminal import safe

    with open_library(embeddings=False) as lib:
        results = lib.enrich(docs or [], online=online)
    if as_json:
        emit_json([r.to_dict() for r in results])
    else:
        for r in results:
            if online:
                filled = ", ".join(sorted(r.filled)) or "nothing new"
                where = f" from {', '.join(r.sources)}" if r.sources else ""
                line = f"{safe(r.document)}: {safe(filled)}{where}"
                line += f" [yellow]({safe(r.problem)})[/]" if r.problem else ""
            else:
                lacks = ", ".join(r.missing) or "complete"
                ask = f"; would look up {safe(r.lookup)}" if r.lookup and r.missing else ""
                line = f"{safe(r.document)}: lacks {safe(lacks)}{ask}"
            out.print(line, soft_wrap=True, highlight=False)
    if not online and any(r.missing and r.lookup for r in results):
        err.print(
            "notice: nothing was sent; add --online to complete these from Crossref and OpenAlex",
            soft_wrap=True,
        )
