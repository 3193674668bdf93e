"""Reports as Word, OpenDocument or PDF: the Markdown report through `pandoc --citeproc`,
so `[@key, p. 3]` citations become a formatted bibliography. Pandoc is optional."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from citewise.errors import CitewiseError

FORMATS = (".docx", ".odt", ".pdf")
TIMEOUT = 300.0


class PandocError(CitewiseError):
    """Pandoc is missing or could not write the file."""

    code = "PANDOC_ERROR"


def pandoc_command() -> str | None:
    return shutil.which("pandoc")


def convert(markdown: Path, out: Path) -> Path:
    """Write `out` (.docx, .odt, .pdf) from `markdown`, whose front matter names its
    CSL-JSON bibliography (relative to the Markdown's folder)."""
    command = pandoc_command()
    if command is None:
        raise PandocError(
            f"pandoc is needed to write {out.name}",
            "install pandoc (apt-get install pandoc, brew install pandoc), or write "
            "--out report.md and --html report.html",
        )
    out = out.expanduser().resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    args = [command, markdown.name, "--citeproc", "--standalone", "-o", str(out)]
    try:
        done = subprocess.run(
            args, cwd=markdown.parent, capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired as exc:
        raise PandocError(f"pandoc took over {TIMEOUT:g} s writing {out.name}") from exc
    if done.returncode != 0:
        detail = " ".join(done.stderr.split())[:300] or f"exit code {done.returncode}"
        hint = "a PDF needs a LaTeX engine (e.g. texlive); .docx and .odt need none"
        raise PandocError(f"pandoc could not write {out.name}: {detail}", hint)
    return out
