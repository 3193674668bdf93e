"""Titles and text from files never drive the terminal: no raw control characters in the
CLI's output, and Rich markup in them is shown as written, not interpreted."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pymupdf

from tests.commands import citewise
from tests.pdfs import write_paper

MARKUP = "[bold red]Loud[/bold red]"
TITLE = f"Granite \x1b[31mRed\x1b[0m {MARKUP} Probes"
QUOTE = "[bold red]on wet granite[/bold red]"
NOTES = (
    f"# Basalt \x1b[31mRed\x1b[0m {MARKUP} Notes\n\n"
    "The basalt \x1b]0;owned\x07 probe \x1b[2J\r\x9b1mreached an accuracy of 91.2% "
    "[bold red]on dry basalt[/bold red] in tests.\n"
)


def _citewise(library: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # Not a terminal, so Rich adds no escape sequences of its own: any ESC came from a file.
    return citewise(library, *args, COLUMNS="400")


def _hostile_files(folder: Path) -> list[Path]:
    folder.mkdir()
    pdf = write_paper(
        folder / "granite.pdf",
        title=TITLE,
        sections=[
            (
                "1 Results",
                [f"The probe reached \x1b[2J\x1b[31m an accuracy of 93.4% {QUOTE} in tests."],
            )
        ],
    )
    with pymupdf.open(pdf) as doc:
        doc.set_metadata({"title": TITLE})
        doc.saveIncr()
    notes = folder / "basalt.md"
    notes.write_text(NOTES)
    return [pdf, notes]


def _assert_inert(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    for stream in (done.stdout, done.stderr):
        controls = sorted({c for c in stream if (ord(c) < 32 or 127 <= ord(c) < 160)} - set("\n\t"))
        assert controls == [], f"control characters reached the terminal: {controls}"


def test_list_show_and_ask_print_hostile_titles_and_text_inert(tmp_path: Path) -> None:
    library = tmp_path / "library"
    ingested = _citewise(
        library, "ingest", "--no-embed", *map(str, _hostile_files(tmp_path / "in"))
    )
    _assert_inert(ingested)

    listed = _citewise(library, "list")
    _assert_inert(listed)
    assert listed.stdout.count(MARKUP) == 2  # both titles, brackets and all

    # answers are one sentence now: ask for each paper's sentence by what only it names
    asked = _citewise(library, "ask", "What accuracy did the basalt probe reach on dry basalt?")
    _assert_inert(asked)
    assert "[bold red]on dry basalt[/bold red]" in asked.stdout
    assert "owned" in asked.stdout  # the text around a stripped sequence is kept
    granite = _citewise(library, "ask", "What accuracy did the probe reach on wet granite?")
    _assert_inert(granite)
    assert QUOTE in granite.stdout

    as_json = _citewise(
        library, "ask", "--json", "What accuracy did the basalt probe reach on dry basalt?"
    )
    _assert_inert(as_json)  # JSON escapes them: the same value, nothing raw on the terminal
    assert any("\x9b" in e["quote"] for e in json.loads(as_json.stdout)["evidence"])

    shown = _citewise(library, "show", "basalt.md")
    _assert_inert(shown)
    assert MARKUP in shown.stdout
