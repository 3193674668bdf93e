"""The Typer app every command module registers on, and the helpers they share."""

from __future__ import annotations

import os
import sys
from importlib.metadata import version as package_version
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from citewise.api import Library, storage_error
from citewise.errors import CitewiseError
from citewise.report.terminal import json_text, plain

app = typer.Typer(
    help="citewise: ask your PDF library questions, get verifiable page-level citations.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help: flags read as flags (`--json`, not `--json <bool>`) and "[embed]" stays text.
    rich_markup_mode=None,
)
out = Console()
err = Console(stderr=True)

EXIT_REFUSED = 3


class State:
    library: str | None = None


def open_library(embeddings: bool = True) -> Library:
    """The library chosen by --library / $CITEWISE_LIBRARY / the default."""
    return Library(State.library, embeddings=embeddings)


def emit_json(data: object) -> None:
    sys.stdout.write(json_text(data) + "\n")


def progress_bar(enabled: bool) -> Progress:
    """A progress bar on stderr (stdout stays clean for --json)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not enabled,
    )


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"citewise {package_version('citewise')}\n")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
    library: Annotated[
        str | None,
        typer.Option(
            "--library",
            "-L",
            metavar="DIR",
            help="Library directory (default: $CITEWISE_LIBRARY "
            "or ~/.local/share/citewise/default).",
        ),
    ] = None,
    embed: Annotated[
        str | None,
        typer.Option(
            "--embed",
            metavar="MODEL",
            help="Embedding model: ollama:MODEL, openai:MODEL or a bundled one "
            "(default: [embed] in citewise.toml, else the bundled model). A new model re-embeds.",
        ),
    ] = None,
    embed_url: Annotated[
        str | None,
        typer.Option("--embed-url", metavar="URL", help="Base URL of the embedding server."),
    ] = None,
) -> None:
    State.library = library
    # The library reads these when it opens its embedder (citewise.embed.settings).
    if embed:
        os.environ["CITEWISE_EMBED"] = embed
    if embed_url:
        os.environ["CITEWISE_EMBED_URL"] = embed_url


def main() -> None:
    try:
        app()
    except CitewiseError as exc:
        sys.stderr.write(f"error: {plain(exc)}\n")
        sys.exit(exc.exit_code)
    except Exception as exc:
        error = storage_error(exc)  # a full disk or a read-only library, wherever it struck
        if error is None:
            raise
        sys.stderr.write(f"error: {plain(error)}\n")
        sys.exit(error.exit_code)
