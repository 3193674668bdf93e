"""The faces load only what a command needs: importing the CLI (all it takes for `--help`)
pulls no PDF parser, no model stack, no web framework, no HTTP client and not the agent.
Checked on a fresh interpreter's sys.modules, so it holds whatever the test run imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).parents[2] / "src"
HEAVY = (
    "fitz",
    "pymupdf",
    "torch",
    "sentence_transformers",
    "fastapi",
    "uvicorn",
    "httpx",
    "psycopg",
    "numpy",
    "pydantic",
    "citewise.agent.qa",
    "citewise.api",
    "citewise.documents.pdf",
    "citewise.store.library",
)


def loaded_after(statement: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    probe = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    modules = set(json.loads(done.stdout))
    return [name for name in heavy if name in modules]


def test_importing_the_cli_loads_no_parser_model_server_or_agent() -> None:
    assert loaded_after("import citewise.cli.app") == []
    assert loaded_after("import citewise.cli") == []  # every command module registered


def test_the_help_of_every_command_is_built_without_them() -> None:
    # Typer builds every command's options (and their help) for any --help
    for argv in (["--help"], ["search", "--help"], ["matrix", "--help"], ["ask", "--help"]):
        statement = (
            "import contextlib, io\n"
            "from citewise.cli import app\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    app({argv!r}, standalone_mode=False)"
        )
        # (Typer itself loads pydantic to build a subcommand's options)
        assert loaded_after(statement, tuple(n for n in HEAVY if n != "pydantic")) == [], argv


def test_listing_a_library_loads_no_numpy_parser_or_agent(paper: Path, library_dir: Path) -> None:
    from citewise.api import Library

    with Library(library_dir, embeddings=False) as lib:
        assert not lib.ingest([paper]).failed
    statement = (
        "import contextlib, io\n"
        "from citewise.cli import app\n"
        "shown = io.StringIO()\n"
        "with contextlib.redirect_stdout(shown):\n"
        f"    app(['-L', {str(library_dir)!r}, 'list', '--json'], standalone_mode=False)\n"
        "assert 'granite' in shown.getvalue(), shown.getvalue()"
    )
    # `list` opens the store and reads the documents table: no vectors, no structure
    # readers (rapidfuzz, documents.structure), no agent; Typer loads pydantic itself.
    light = (*(n for n in HEAVY if n not in ("pydantic", "citewise.api", "citewise.store.library")),
             "citewise.agent.chat", "citewise.agent.aspects", "citewise.documents.structure",
             "citewise.store.vectors", "citewise.ingest", "rapidfuzz")  # fmt: skip
    assert loaded_after(statement, light) == []


def test_parsing_a_document_model_does_not_load_pymupdf() -> None:
    assert "pymupdf" not in loaded_after("import citewise.documents.model")
    assert "pymupdf" not in loaded_after("import citewise.ingest")
