"""The app every command module registers on (cli/parsing.py), and the helpers they share.

The faces import only what `--help` needs at start-up (the parser, Rich, the errors); the API,
the agent, PyMuPDF, numpy and the models are imported by the command that uses them
(tests/cli/test_startup.py holds this).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

from rich.console import Console
from rich.progress import Progress, TaskID

from citewise.cli import parsing as cli
from citewise.errors import CitewiseError

# `import pymupdf` also imports pymupdf4llm and PyMuPDF's layout analyser whenever they are
# installed (PyMuPDF 2 brings both), which load onnxruntime and an ONNX model: ~0.5 s of every
# command that reads a PDF. citewise calls neither (its layout analysis is documents/), so the
# command's own process goes without them; code importing citewise as a library keeps PyMuPDF
# as it is.
if "pymupdf" not in sys.modules:
    for _unused in ("pymupdf.layout", "pymupdf4llm"):
        sys.modules.setdefault(_unused, None)  # type: ignore[arg-type]  # None means absent

if TYPE_CHECKING:
    from citewise.api import Library
    from citewise.config import Settings

app = cli.App(
    help="citewise: ask your PDF library questions, get verifiable page-level citations.",
    no_args_is_help=True,
)
out = Console()
err = Console(stderr=True)


EXIT_REFUSED = 3


class State:
    library: str | None = None
    embed: str | None = None
    embed_url: str | None = None
    settings: Settings | None = None  # built once per command, on first use


def open_library(embeddings: bool = True) -> Library:
    """The library chosen by --library / $CITEWISE_LIBRARY / the default."""
    from citewise.api import Library

    return Library(State.library, embeddings=embeddings, settings=settings())


def settings() -> Settings:
    """The configuration this command runs with (environment and citewise.toml read once)."""
    if State.settings is None:
        from citewise.config import Settings

        State.settings = Settings.load(State.library, State.embed, State.embed_url)
    return State.settings


def emit_json(data: object) -> None:
    from citewise.report.terminal import json_text

    sys.stdout.write(json_text(data) + "\n")


class PlainProgress(Progress):
    """Progress for a log or a pipe: no bar, one plain stderr line each time the stage
    (the task's description) changes."""

    def __init__(self) -> None:
        super().__init__(console=err, disable=True)
        self._last: str | None = None

    def update(self, task_id: TaskID, **changes: Any) -> None:
        super().update(task_id, **changes)
        task = self._tasks[task_id]  # the task's stage shows with its first step, not before
        count = f" ({task.completed:g}/{task.total:g})" if task.total else ""
        self._stage(task.description, count)

    def _stage(self, description: str | None, count: str = "") -> None:
        if description and description != self._last:
            from citewise.report.terminal import plain

            self._last = description
            sys.stderr.write(f"{plain(description)}{count}\n")


def progress_bar(enabled: bool) -> Progress:
    """A progress bar on stderr (stdout stays clean for --json) on a terminal; elsewhere a
    plain line per stage (no carriage returns filling a log)."""
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

    if enabled and not err.is_terminal:
        return PlainProgress()
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
        from importlib.metadata import version as package_version

        sys.stdout.write(f"citewise {package_version('citewise')}\n")
        raise cli.Exit(0)


@app.callback()
def main_options(
    version: Annotated[
        bool,
        cli.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
    library: Annotated[
        str | None,
        cli.Option(
            "--library",
            "-L",
            metavar="DIR",
            help="Library directory (default: $CITEWISE_LIBRARY "
            "or ~/.local/share/citewise/default).",
        ),
    ] = None,
    embed: Annotated[
        str | None,
        cli.Option(
            "--embed",
            metavar="MODEL",
            help="Embedding model: ollama:MODEL, openai:MODEL or a bundled one "
            "(default: [embed] in citewise.toml, else the bundled model). A new model re-embeds.",
        ),
    ] = None,
    embed_url: Annotated[
        str | None,
        cli.Option("--embed-url", metavar="URL", help="Base URL of the embedding server."),
    ] = None,
) -> None:
    State.library = library
    State.embed, State.embed_url, State.settings = embed, embed_url, None


def main() -> None:
    try:
        app()
    except CitewiseError as exc:
        from citewise.report.terminal import plain

        sys.stderr.write(f"error: {plain(exc)}\n")
        sys.exit(exc.exit_code)
    except Exception as exc:
        from citewise.api import storage_error
        from citewise.report.terminal import plain

        error = storage_error(exc)  # a full disk or a read-only library, wherever it struck
        if error is None:
            raise
        sys.stderr.write(f"error: {plain(error)}\n")
        sys.exit(error.exit_code)
