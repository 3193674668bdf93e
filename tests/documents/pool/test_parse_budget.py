"""Every file is parsed under a time and memory budget; one hostile file costs only itself."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pymupdf
import pytest

from citewise.documents import Document
from citewise.documents.bounds import check_text_operators
from citewise.documents.pdf.ocr import tesseract_command
from citewise.documents.pool.parallel import ParseBudget, ParseOptions, ParsePool
from citewise.errors import TooComplexError
from tests.hostile import (
    write_form_bomb,
    write_giant_page,
    write_stacked_lines,
    write_text_operator_bomb,
)
from tests.pdfs import write_paper


def outcomes(pool: ParsePool) -> dict[str, str]:
    """File name -> 'doc' or the error code, for every file the pool was given."""
    return {
        path.name: "doc" if isinstance(result, Document) else getattr(result, "code", "?")
        for path, result in pool.results()
    }


def test_text_operator_bomb_is_refused_before_layout(tmp_path: Path) -> None:
    bomb = write_text_operator_bomb(tmp_path / "bomb.pdf", operators=120_000)
    with ParsePool([bomb], ParseBudget(text_ops_per_page=100_000)) as pool:
        [(_, error)] = list(pool.results())
    assert getattr(error, "code", None) == "TOO_COMPLEX"
    assert "page 1 has 120,000 text operators" in str(error)


def test_parse_past_its_memory_budget_is_too_large(tmp_path: Path) -> None:
    # a 3 KB file of 200,000 spans (~400 MB in get_text("dict")); the budget allows 120 MB.
    # The text is in a form XObject, which the page's operator count does not see.
    bomb = write_form_bomb(tmp_path / "bomb.pdf", operators=2000, repeats=100)
    with ParsePool([bomb], ParseBudget(memory_mb=120)) as pool:
        [(_, error)] = list(pool.results())
    assert getattr(error, "code", None) == "TOO_LARGE"
    assert "120 MB memory budget" in str(error)


@pytest.mark.skipif(tesseract_command() is None, reason="OCR needs tesseract")
def test_giant_scanned_page_is_too_large_to_render_for_ocr(tmp_path: Path) -> None:
    # 10,000 pt at the OCR resolution is a 770 MB image, then as much again as PNG
    scan = write_giant_page(tmp_path / "scan.pdf", scanned=True)
    with ParsePool([scan], ParseBudget(memory_mb=400)) as pool:
        [(_, error)] = list(pool.results())
    assert getattr(error, "code", None) == "TOO_LARGE"


def test_parse_past_its_time_budget_is_stopped_and_named(tmp_path: Path) -> None:
    slow = write_stacked_lines(tmp_path / "slow.pdf", lines=40_000)  # over a second of layout
    budget = ParseBudget(seconds=0.2, seconds_per_page=0.0)
    with ParsePool([slow], budget) as pool:
        [worker] = [job.pid for job in pool._running]
        [(_, error)] = list(pool.results())
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)  # stopped and reaped, not left running
    assert getattr(error, "code", None) == "TOO_COMPLEX"
    assert "longer than its 0.2 s budget" in str(error)


def test_a_killed_or_crashed_worker_fails_only_its_own_file(tmp_path: Path) -> None:
    killed = write_stacked_lines(tmp_path / "killed.pdf", lines=40_000)  # seconds of work
    crashed = write_stacked_lines(tmp_path / "crashed.pdf", lines=40_001)
    good = [write_paper(tmp_path / f"good{i}.pdf", title=f"Good paper {i}") for i in range(2)]
    with ParsePool([good[0], killed, crashed, good[1]], options=ParseOptions(workers=4)) as pool:
        workers = {job.path: job.pid for job in pool._running}
        os.kill(workers[killed], signal.SIGKILL)  # what the OOM killer does
        os.kill(workers[crashed], signal.SIGTERM)  # any other death: a crash, an abort
        got = outcomes(pool)
    assert got == {
        "good0.pdf": "doc",
        "killed.pdf": "TOO_LARGE",
        "crashed.pdf": "PARSER_CRASHED",
        "good1.pdf": "doc",
    }


def test_budget_follows_the_environment() -> None:
    environ = {
        "CITEWISE_PARSE_SECONDS": "7.5",
        "CITEWISE_PARSE_MEMORY_MB": "300",
        "CITEWISE_PARSE_TEXT_OPS": "nonsense",
    }
    budget = ParseOptions.from_environ(environ).budget
    assert (budget.seconds, budget.memory_mb) == (7.5, 300)
    assert budget.text_ops_per_page == ParseBudget().text_ops_per_page
    assert budget.deadline(pages=1) == 7.5 and budget.deadline(pages=100) == 200.0


def test_every_spelling_of_a_text_operator_counts_toward_the_budget(tmp_path: Path) -> None:
    """Tj, TJ, ' and " each show text: a page of 100 of each has 400 text operators."""
    doc = pymupdf.open()
    page = doc.new_page()
    show = b"(a) Tj [(b) 2 (c)] TJ (d) ' 1 2 (e) \" "
    page.insert_text((72, 72), "x")  # a font resource for the stream below
    font = page.get_fonts()[0][4]
    stream = b"BT /" + font.encode() + b" 10 Tf 72 700 Td 12 TL " + show * 100 + b"ET"
    doc.update_stream(page.get_contents()[0], stream)
    doc.save(tmp_path / "ops.pdf")
    pages = list(pymupdf.open(tmp_path / "ops.pdf"))
    check_text_operators(pages, 400)  # at the budget: allowed
    with pytest.raises(TooComplexError, match="page 1 has 400 text operators"):
        check_text_operators(pages, 399)
