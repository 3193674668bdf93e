"""Layout analysis stays linear on hostile pages (lines stacked a hair apart)."""

from __future__ import annotations

import sys
from pathlib import Path

from citewise.documents.pdf.reader import read_pdf
from tests.hostile import WORDS, write_stacked_lines, write_text_operator_bomb


def profiled_events(path: Path) -> int:
    """Python and C function calls made while parsing `path`: a machine-independent
    measure of work (a timed test would depend on the machine's load)."""
    events = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal events
        events += 1

    sys.setprofile(count)
    try:
        read_pdf(path, ocr=False)
    finally:
        sys.setprofile(None)
    return events


def test_work_grows_linearly_with_lines_stacked_on_one_row(tmp_path: Path) -> None:
    small = profiled_events(write_stacked_lines(tmp_path / "small.pdf", lines=250))
    large = profiled_events(write_stacked_lines(tmp_path / "large.pdf", lines=1000))
    # four times the lines: linear work is ~4x; the old per-gap style recount was ~15x
    assert large < 6 * small, (small, large)


def test_work_grows_linearly_with_table_like_spans_on_a_page(tmp_path: Path) -> None:
    small = profiled_events(write_text_operator_bomb(tmp_path / "small.pdf", operators=2000))
    large = profiled_events(write_text_operator_bomb(tmp_path / "large.pdf", operators=8000))
    # linear is ~4x; re-measuring a growing table's box for every unit it met was ~8x
    assert large < 5.5 * small, (small, large)


def test_stacked_lines_still_read_as_text(tmp_path: Path) -> None:
    doc = read_pdf(write_stacked_lines(tmp_path / "stacked.pdf", lines=400), ocr=False)
    text = "".join(b.text for b in doc.blocks).replace(" ", "")
    # overlapping segments run together; every letter of every line is kept
    assert len(text) == sum(len(WORDS[i % len(WORDS)]) for i in range(400))
    assert all(word in text for word in WORDS)
