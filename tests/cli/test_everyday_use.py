"""Everyday-use conventions: usage errors exit 2 with one clear line, an empty library says
so and how to fill it, links stay one line when piped, counts read "1 document", and
`doctor` shows what the library holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.pdfs import write_paper


def run(library: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citewise", "--library", str(library), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "COLUMNS": "80"},
        timeout=300,
    )


def test_an_empty_question_is_a_usage_error_not_a_refusal(tmp_path: Path) -> None:
    result = run(tmp_path / "lib", "ask", "   ")
    assert result.returncode == 2
    assert result.stderr.startswith("error: EMPTY_QUESTION: the question is empty")
    assert result.stdout == ""


def test_ingest_of_a_folder_without_supported_files_exits_2(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    result = run(tmp_path / "lib", "ingest", "--no-embed", str(folder))
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: NO_SUPPORTED_FILES: no supported files in {folder}")


def test_an_empty_library_says_so_and_how_to_fill_it(tmp_path: Path) -> None:
    library = tmp_path / "mistyped"
    listed = run(library, "list", "--json")
    assert listed.returncode == 0 and json.loads(listed.stdout) == []
    assert f"notice: the library at {library} was just created" in listed.stderr
    assert "citewise ingest FOLDER" in listed.stderr
    asked = run(library, "ask", "What does the granite classifier reach?")
    assert asked.returncode == 3  # still a refusal: nothing to cite
    assert f"the library at {library} holds no documents" in asked.stderr


def test_links_are_one_line_and_counts_are_singular_for_one(tmp_path: Path) -> None:
    folder = tmp_path / ("a-folder-with-a-long-name-" * 4)
    folder.mkdir()
    write_paper(folder / "granite.pdf")
    library = tmp_path / "lib"
    ingested = run(library, "ingest", "--no-embed", str(folder))
    assert ingested.returncode == 0, ingested.stderr
    assert ingested.stdout.startswith("1 document (1 new,")
    assert "1 documents" not in ingested.stdout
    answer = run(library, "ask", "What accuracy does the granite classifier reach?")
    assert answer.returncode == 0, answer.stderr
    links = [line.strip() for line in answer.stdout.splitlines() if "file://" in line]
    assert links, answer.stdout
    target = (folder / "granite.pdf").resolve().as_uri()
    assert all(link.startswith(target + "#page=") for link in links), links
    assert all(len(link) > 80 for link in links)  # longer than the width, yet one line


def test_doctor_shows_the_library_path_and_what_it_holds(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    write_paper(folder / "granite.pdf")
    library = tmp_path / "lib"
    assert run(library, "ingest", str(folder)).returncode == 0
    result = run(library, "doctor", "--json")
    stats = json.loads(result.stdout)["library"]
    assert stats["path"] == str(library.resolve())
    assert (stats["documents"], stats["pages"]) == (1, 1)
    assert stats["blocks"] > 3 and stats["size_bytes"] > 10_000
    ((model, embedded),) = stats["embedding_models"].items()
    assert 0 < embedded <= stats["blocks"]
    text = run(library, "doctor").stdout
    assert f"library: {library.resolve()}" in text
    assert "1 document, 1 page," in text
    assert model in text


def test_options_show_what_to_type_not_python_types(tmp_path: Path) -> None:
    ask = run(tmp_path / "lib", "ask", "--help").stdout
    assert "--doc DOC" in ask and "-k N" in ask and "--llm BACKEND:MODEL" in ask
    assert "<list[str]>" not in ask and "<int>" not in ask
    ingest = run(tmp_path / "lib", "ingest", "--help").stdout
    assert "--zotero DIR" in ingest and "--manifest FILE" in ingest
    assert "<path>" not in ingest
    sync = run(tmp_path / "lib", "sync", "zotero", "--help").stdout
    assert "--collection NAME" in sync


def test_piped_progress_is_a_plain_line_per_stage(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    write_paper(folder / "granite.pdf")
    result = run(tmp_path / "lib", "ingest", str(folder))
    assert result.returncode == 0
    assert "\r" not in result.stderr and "\x1b" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == "granite.pdf (1/1)"
    assert lines[-1].startswith("embedding (") and len(lines) == 2


def test_every_json_flag_says_what_it_does() -> None:
    from citewise.cli import app
    from citewise.cli.parsing import App, Command

    flags: list[tuple[str, str | None]] = []

    def walk(command: App | Command, name: str) -> None:
        if isinstance(command, App):
            for sub_name, sub in command.commands.items():
                walk(sub, f"{name} {sub_name}")
            command = command.options or Command(name, lambda: None)
        for param in command.params():
            if "--json" in param.opts:
                flags.append((name, param.help))

    walk(app, "citewise")
    assert len(flags) > 20  # the walk reached the subcommands
    assert [name for name, text in flags if not text] == []
