"""`citewise sync zotero`: the library kept in step with the user's Zotero library."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from citewise.cli.app import app, emit_json, err, open_library, out, progress_bar

sync_app = typer.Typer(
    help="Keep the library in step with a library of record (Zotero).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(sync_app, name="sync")

DEFAULT_ZOTERO = Path("~/Zotero")


@sync_app.command("zotero")
def sync_zotero(
    directory: Annotated[
        Path,
        typer.Argument(
            help="Zotero data directory holding zotero.sqlite and storage/ (default ~/Zotero)."
        ),
    ] = DEFAULT_ZOTERO,
    collection: Annotated[
        str | None,
        typer.Option(
            "--collection",
            metavar="NAME",
            help="Only items in this collection (or a path 'Thesis / Chapter 2') and below.",
        ),
    ] = None,
    no_embed: Annotated[bool, typer.Option("--no-embed", help="Skip embeddings.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Add new Zotero attachments, update changed items, re-read changed files and remove
    items deleted in Zotero; a rerun with no change touches nothing. Zotero's files are only
    read. Better BibTeX citation keys become document IDs."""
    from citewise.report.terminal import plain, plural, safe

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
        raise typer.Exit(1)
