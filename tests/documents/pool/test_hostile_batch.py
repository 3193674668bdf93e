"""A batch of hostile files mixed with good ones: every good file is stored, every hostile
one is named with its reason, and a rerun completes the job with nothing lost."""

from __future__ import annotations

from pathlib import Path

from citewise.documents.bounds import MAX_BLOCK_CHARS
from citewise.documents.pool.parallel import WORKERS_VARIABLE, ParseBudget, ParseOptions
from citewise.ingest import FILE_MB_VARIABLE, ingest
from citewise.store.sqlite.library import LibraryStore
from tests.hostile import (
    write_form_bomb,
    write_giant_page,
    write_one_line_markdown,
    write_stacked_lines,
    write_text_operator_bomb,
)
from tests.pdfs import write_paper


def hostile_batch(folder: Path) -> dict[str, str | None]:
    """File name -> the error code it must get (None: it must be stored), hostile first."""
    folder.mkdir()
    write_text_operator_bomb(folder / "a-bomb.pdf", operators=150_000)
    write_form_bomb(folder / "a-form-bomb.pdf", operators=2000, repeats=200)
    write_stacked_lines(folder / "b-stacked.pdf", lines=20_000)
    write_giant_page(folder / "c-giant.pdf")
    write_one_line_markdown(folder / "d-one-line.md", megabytes=1.0)
    write_one_line_markdown(folder / "e-oversized.md", megabytes=3.0)
    for i in range(3):
        write_paper(folder / f"f-good{i}.pdf", title=f"Good paper number {i}")
    return {
        "a-bomb.pdf": "TOO_COMPLEX",  # past the text-operator check
        "a-form-bomb.pdf": "TOO_LARGE",  # hides from that check, not from the memory limit
        "b-stacked.pdf": None,  # linear layout now: seconds, not minutes
        "c-giant.pdf": None,  # a large page is not a crime; its text is small
        "d-one-line.md": None,  # stored in bounded blocks
        "e-oversized.md": "TOO_LARGE",  # above the (lowered) file cap
        "f-good0.pdf": None,
        "f-good1.pdf": None,
        "f-good2.pdf": None,
    }


def test_hostile_files_cost_only_themselves_and_a_rerun_loses_nothing(
    tmp_path: Path,
) -> None:
    expected = hostile_batch(tmp_path / "batch")
    environ = {WORKERS_VARIABLE: "2", FILE_MB_VARIABLE: "2"}  # as a face's Settings read them
    options = ParseOptions.from_environ(environ)
    budget = ParseBudget(seconds=60, memory_mb=250)
    store = LibraryStore(tmp_path / "lib")
    try:
        first = ingest(store, [tmp_path / "batch"], budget=budget, options=options)
        failed = {Path(f.path).name: f.code for f in first.failed}
        stored = {Path(d.path).name: d for d in store.documents()}
        assert failed == {name: code for name, code in expected.items() if code}
        assert set(stored) == {name for name, code in expected.items() if code is None}
        assert all(f.reason for f in first.failed)
        longest = max(len(b.text) for d in stored.values() for b in store.blocks(d.id))
        assert longest <= MAX_BLOCK_CHARS

        again = ingest(store, [tmp_path / "batch"], budget=budget, options=options)
        assert again.added == [] and len(again.unchanged) == len(stored)
        assert {Path(f.path).name: f.code for f in again.failed} == failed
        assert {Path(d.path).name for d in store.documents()} == set(stored)
    finally:
        store.close()
