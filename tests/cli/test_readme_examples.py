"""The README's example output is the program's real output: the quickstart's commands
(examples/quickstart.sh) run as written on a fresh library of the bundled papers, each ends
as the script expects, and every `$ command` of the README's example block prints exactly
the text under it (paths to the checkout shown as `…`)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
QUICKSTART = ROOT / "examples" / "quickstart.sh"
EXAMPLE_HEADING = "Example output (from `citewise ask`, on the bundled examples):"
REFUSED = 3  # the exit code of a question the library cannot answer


def example_block(readme: str) -> str:
    """The fenced block that follows the README's example heading."""
    after = readme.split(EXAMPLE_HEADING, 1)[1]
    opening = after.index("```")
    body = after[after.index("\n", opening) + 1 :]
    return body[: body.index("```")]


def examples(block: str) -> list[tuple[str, str]]:
    """(command, the output shown under it) for each `$ ` line of the block."""
    found: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
    return [(command, "\n".join(lines).strip("\n")) for command, lines in found]


def quickstart_commands() -> list[str]:
    """The `citewise …` lines of the quickstart, in order, as the script runs them."""
    return [ln for ln in QUICKSTART.read_text().splitlines() if ln.startswith("citewise ")]


def shell(command: str, library: Path) -> subprocess.CompletedProcess[str]:
    """`command` in bash from the checkout, `citewise` being this interpreter's, on a
    terminal-less 80-column output as in a pipe."""
    env = {
        **os.environ,
        "CITEWISE_LIBRARY": str(library),
        "HF_HUB_OFFLINE": "1",
        "COLUMNS": "80",
        "XDG_CONFIG_HOME": str(library.parent / "config"),
    }
    env.pop("CITEWISE_CONFIG", None)
    define = f'citewise() {{ {shlex.quote(sys.executable)} -m citewise "$@"; }}; '
    return subprocess.run(
        ["bash", "-c", define + command],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def as_shown(output: str) -> str:
    """Output as the README shows it: the checkout's path as `…`, no trailing spaces."""
    output = output.replace(f"file://{ROOT}/", "file:///…/")
    return "\n".join(line.rstrip() for line in output.splitlines()).strip("\n")


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library made by the quickstart's own commands, each ending as the script expects."""
    library = tmp_path_factory.mktemp("readme") / "example-library"
    for command in quickstart_commands():
        done = shell(command, library)
        expected = {0, REFUSED} if "|| [ $? -eq 3 ]" in command else {0}
        assert done.returncode in expected, (command, done.stderr[-2000:])
    return library


def test_the_readme_has_examples_and_the_quickstart_commands() -> None:
    shown = examples(example_block(README.read_text()))
    assert len(shown) >= 2 and all(output for _, output in shown)
    # the README shows what the quickstart runs
    run = {c.split(" || ")[0] for c in quickstart_commands()}
    assert all(command.split(";")[0] in run for command, _ in shown)


@pytest.mark.parametrize("number", [0, 1])
def test_each_readme_example_prints_what_the_readme_shows(library: Path, number: int) -> None:
    command, expected = examples(example_block(README.read_text()))[number]
    done = shell(command, library)
    assert as_shown(done.stdout) == expected, done.stderr[-2000:]
