"""The app every command module registers on (cli/parsing.py), and the helpers they share.

The faces import only what `--help` needs at start-up (the parser, Rich, the errors); the API,
the agent, PyMuPDF, numpy and the models are imported by the command that uses them
(tests/cli/test_startup.py holds this).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any, cast

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

# numpy's OpenBLAS starts a thread per core, with its buffers, when numpy is imported: ~0.08 s
# of every command that touches vectors (0.30 -> 0.22 CPU s for `import numpy` here). The
# command's vector work needs no BLAS threads: a search compares sign bits and rescores a
# short list, embedding gathers and averages rows. A value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from citewise.api import Library
    from citewise.config import Settings

app = cli.App(
    help="citewise: ask your PDF library questions, get verifiable page-level citations.",
    no_args_is_help=True,
)


class _LazyConsole:
    """A Rich console made when first used: importing Rich costs about 0.1 s, which `--help`,
    `--json` output and plain errors never need."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return getattr(self._console, name)


out = cast("Console", _LazyConsole(stderr=False))
err = cast("Console", _LazyConsole(stderr=True))


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


def progress_bar(enabled: bool) -> Progress:
    """A progress bar on stderr (stdout stays clean for --json) on a terminal; elsewhere a
    plain line per stage (no carriage returns filling a log)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    if enabled and not err.is_terminal:
        from citewise.cli.progress import PlainProgress

        return PlainProgress(err)
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
    import gc

    # What exists now (the CLI's modules) lives as long as the process: no collection needs
    # to look at it again. At the end the same for everything the command made, so that the
    # interpreter's last collection at exit skips it (~50 ms of an `ask` here). Nothing is
    # kept from being freed or finalized: frozen objects are only left out of collections.
    gc.freeze()
    # A command's start imports thousands of objects that live as long as it; with the
    # default young-generation threshold (700) they were collected over and over (~90 ms of
    # an `ask` here). Cyclic garbage is still collected, after 10,000 allocations instead.
    gc.set_threshold(10_000, 20, 10)
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
    finally:
        gc.freeze()
