"""`research --out report.docx|.odt`: the report through pandoc --citeproc when pandoc is
installed, and one clear error when it is not."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.pdfs import write_paper


def research(library: Path, out: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", **({"PATH": path} if path is not None else {})}
    return subprocess.run(
        [sys.executable, "-m", "citewise", "--library", str(library), "research",
         "granite sorting accuracy", "--sources", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "papers"
    folder.mkdir()
    write_paper(folder / "granite.pdf")
    library = tmp_path / "lib"
    done = subprocess.run(
        [sys.executable, "-m", "citewise", "--library", str(library), "ingest", "--no-embed",
         str(folder)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return library


@pytest.mark.skipif(shutil.which("pandoc") is None, reason="pandoc is not installed")
@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_research_writes_word_and_opendocument_through_pandoc(
    library: Path, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / "out" / f"report{suffix}"
    result = research(library, out)
    assert result.returncode == 0, result.stderr
    with zipfile.ZipFile(out) as document:
        part = "word/document.xml" if suffix == ".docx" else "content.xml"
        text = document.read(part).decode("utf-8")
    assert "Research report: granite sorting accuracy" in text
    assert "93.4%" in text  # a claim quoted from the paper
    assert "[@" not in text  # citations were processed by citeproc


def test_without_pandoc_a_docx_report_is_one_clear_error(library: Path, tmp_path: Path) -> None:
    result = research(library, tmp_path / "report.docx", path=str(tmp_path / "no-bin"))
    assert result.returncode == 1
    assert "error: PANDOC_ERROR: pandoc is needed to write report.docx" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "report.docx").exists()
