"""A kill -9 between the vector index's files, then more ingests: nothing is lost.

The cut is real: the ingest runs in its own process with an audit hook that sends it
SIGKILL the moment it opens the named index file for writing (so the files written before
it hold rows the manifest does not list yet). Then another ingest, then dense search.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from citewise.store.quantize import unit_rows
from citewise.store.sqlite.library import LibraryStore
from citewise.store.sqlite.vector_index import VectorIndex
from citewise.store.sqlite.vectors import load_matrix
from tests.pdfs import write_paper

# Kills the process when it opens a file under vectors/ ending in argv[1] for writing,
# then runs the citewise CLI with the remaining arguments.
KILL_ON_OPEN = """
import os, signal, sys
suffix = sys.argv[1]
def hook(event, args):
    if event != "open" or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    path = os.fsdecode(args[0])
    writing = isinstance(args[2], int) and args[2] & (os.O_WRONLY | os.O_RDWR)
    if writing and os.sep + "vectors" + os.sep in path and path.endswith(suffix):
        os.kill(os.getpid(), signal.SIGKILL)
sys.addaudithook(hook)
sys.argv = ["citewise", *sys.argv[2:]]
from citewise.cli import main
main()
"""

ROCKS = ["basalt", "granite", "schist", "marble", "gneiss", "slate", "quartzite", "obsidian"]


def _papers(folder: Path, first: int, count: int) -> Path:
    """`count` one-page papers whose every paragraph is unique (no two equal vectors)."""
    folder.mkdir(parents=True)
    for n in range(first, first + count):
        rock = ROCKS[n % len(ROCKS)]
        sections = [
            (
                f"{s} Part {s} of study {n}",
                [
                    f"Study {n} measured {rock} sample {s} at depth {n * 7 + s} metres.",
                    f"The {rock} cores of study {n}, batch {s}, held {n + s * 3}% quartz.",
                ],
            )
            for s in range(1, 4)
        ]
        write_paper(folder / f"study{n}.pdf", title=f"Study {n} of {rock}", sections=sections)
    return folder


def _citewise(library: Path, *args: str, cut: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "CITEWISE_LIBRARY": str(library)}
    prefix = [sys.executable, "-c", KILL_ON_OPEN, cut] if cut else [sys.executable, "-m"]
    command = [*prefix, *([] if cut else ["citewise"]), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def _model(library: Path) -> str:
    store = LibraryStore(library)
    try:
        (model,) = [r[0] for r in store.db.execute("SELECT DISTINCT model FROM block_vectors")]
    finally:
        store.close()
    return str(model)


def assert_dense_search_finds_every_block(library: Path) -> int:
    """Every embedded block sits in the index with its own vector, and searching with
    that vector finds it. Returns the number of blocks checked."""
    store = LibraryStore(library)
    try:
        model = _model(library)
        index = VectorIndex(library, model)
        index.refresh(store.db)
        rowids, matrix = load_matrix(store.db, model)
        assert len(rowids) > 0
        missing = [int(r) for r in rowids if len(index.positions(np.asarray([r]))) == 0]
        assert missing == [], f"{len(missing)} of {len(rowids)} blocks missing from the index"
        wrong = [
            int(r)
            for r, vector in zip(rowids, matrix, strict=True)
            if not np.allclose(index.vectors([int(r)]), unit_rows(vector[None, :]), atol=1e-7)
        ]
        assert wrong == [], f"{len(wrong)} positions carry another block's vector"
        for rowid, vector in zip(rowids, matrix, strict=True):
            twins = int((matrix == vector).all(axis=1).sum())  # every paper's author line
            found, sims = index.search(vector, twins)
            # The query is the stored float16 row itself: a unit vector to ~1e-4.
            assert int(rowid) in found.tolist() and np.allclose(sims, 1.0, atol=1e-3)
        return len(rowids)
    finally:
        store.close()


def _doctor_check(library: Path) -> dict:
    done = _citewise(library, "doctor", "--check", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)["index"]


@pytest.mark.parametrize("cut", [".f16", ".bits", ".tmp"])
def test_kill_between_index_files_then_ingest_keeps_every_vector(tmp_path: Path, cut: str) -> None:
    library = tmp_path / "library"
    first = _citewise(library, "ingest", str(_papers(tmp_path / "a", 0, 2)))
    assert first.returncode == 0, first.stderr

    killed = _citewise(library, "ingest", str(_papers(tmp_path / "b", 2, 2)), cut=cut)
    assert killed.returncode == -signal.SIGKILL, killed.stderr  # cut mid-append

    again = _citewise(library, "ingest", str(_papers(tmp_path / "c", 4, 3)))
    assert again.returncode == 0, again.stderr
    checked = assert_dense_search_finds_every_block(library)
    assert checked >= 7 * 6  # seven papers' paragraphs

    report = _doctor_check(library)
    assert report["mismatches"] == 0, report
    assert report["vectors"] == checked


def test_doctor_check_finds_and_repairs_a_cut_append(tmp_path: Path) -> None:
    library = tmp_path / "library"
    assert _citewise(library, "ingest", str(_papers(tmp_path / "a", 0, 2))).returncode == 0
    killed = _citewise(library, "ingest", str(_papers(tmp_path / "b", 2, 1)), cut=".bits")
    assert killed.returncode == -signal.SIGKILL

    report = _doctor_check(library)  # before anything else touched the index
    assert report["mismatches"] >= 1 and report["repaired"], report
    assert _doctor_check(library)["mismatches"] == 0
    assert_dense_search_finds_every_block(library)
