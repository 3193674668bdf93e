"""Opening a library: two processes at once, a read-only library, a full disk."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citewise.errors import CitewiseError
from citewise.store.sqlite.library import LibraryStore
from citewise.store.sqlite.migrations import MIGRATIONS
from tests.commands import citewise as _citewise
from tests.pdfs import write_paper
from tests.retrieval.test_vector_index import _document
from tests.store.mounts import read_only, tiny_disk

# Waits for a common start time, then opens (creating and migrating) the library.
OPEN_AT = """
import sys, time
from pathlib import Path
from citewise.store.sqlite.db import connect
start = float(sys.argv[2])
while time.time() < start:
    pass
connect(Path(sys.argv[1]) / "library.db").close()
"""


def test_two_processes_opening_a_new_library_at_once_both_succeed(tmp_path: Path) -> None:
    failures = []
    for pair in range(20):
        library = tmp_path / f"library{pair}"
        start = str(time.time() + 0.3)  # both processes past their imports by then
        processes = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_AT, str(library), start],
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        for process in processes:
            _, stderr = process.communicate(timeout=60)
            if process.returncode:
                failures.append(stderr.strip().splitlines()[-1])
        with sqlite3.connect(library / "library.db") as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert failures == []


def test_a_read_only_library_can_be_listed_and_asked(tmp_path: Path) -> None:
    library = tmp_path / "library"
    ingested = _citewise(library, "ingest", str(write_paper(tmp_path / "granite.pdf")))
    assert ingested.returncode == 0, ingested.stderr
    # Without index files (say, after an upgrade changed their format) both indexes are
    # built in memory from SQLite.
    shutil.rmtree(library / "vectors")
    shutil.rmtree(library / "keywords")
    with read_only(library):
        assert not os.access(library, os.W_OK)
        listed = _citewise(library, "list", "--json")
        assert listed.returncode == 0, listed.stderr
        assert [d["title"] for d in json.loads(listed.stdout)] == [
            "Granite Sorting with Acoustic Probes"
        ]
        question = "What accuracy did the classifier reach on the held-out test set?"
        asked = _citewise(library, "ask", "--json", question)
        assert asked.returncode == 0, asked.stderr
        assert "93.4%" in json.loads(asked.stdout)["answer"]

        checked = _citewise(library, "doctor", "--check", "--json")
        assert checked.returncode == 0, checked.stderr
        assert json.loads(checked.stdout)["index"]["remaining"] == 0

        more = _citewise(library, "ingest", str(write_paper(tmp_path / "more.pdf", title="More")))
        assert more.returncode == 1
        assert "LIBRARY_READ_ONLY" in more.stderr and "Traceback" not in more.stderr


def test_a_write_to_a_read_only_library_names_the_cause(tmp_path: Path) -> None:
    LibraryStore(tmp_path).close()
    store = LibraryStore(tmp_path, read_only=True)  # as when the folder is not writable
    try:
        assert store.documents() == []
        with pytest.raises(CitewiseError) as raised:
            store.save_document(_document("basalt", 3))
        assert raised.value.code == "LIBRARY_READ_ONLY"
    finally:
        store.close()


def _large_document(name: str) -> object:
    # Bigger than SQLite's page cache, so the full disk is hit mid-transaction, where
    # SQLite rolls the transaction back by itself.
    doc = _document(name, 2000)
    for block in doc.blocks:
        block.text = (block.text + " granite ") * 100
    return doc


def test_a_full_disk_gives_disk_full_and_keeps_the_library_consistent(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    try:
        (pages,) = store.db.execute("PRAGMA page_count").fetchone()
        store.db.execute(f"PRAGMA max_page_count = {pages + 200}")  # the disk fills up
        with pytest.raises(CitewiseError) as raised:  # 9c3a9ec: "cannot rollback - no ..."
            store.save_document(_large_document("basalt"))  # type: ignore[arg-type]
        assert raised.value.code == "DISK_FULL"
        assert "full" in raised.value.message and raised.value.hint
        assert store.documents() == []  # nothing half-stored
        store.db.execute("PRAGMA max_page_count = 1073741823")  # space freed
        store.save_document(_document("schist", 3))
        assert [d.title for d in store.documents()] == ["On schist"]
    finally:
        store.close()


def test_ingest_onto_a_full_disk_reports_disk_full(tmp_path: Path) -> None:
    text = tmp_path / "notes.md"
    paragraphs = (f"Paragraph {n} on granite sorting, sample {n * 13}. " * 40 for n in range(3000))
    text.write_text("# Notes\n\n" + "\n\n".join(paragraphs))
    library = tmp_path / "library"
    with tiny_disk(library, "3m"):
        done = _citewise(library, "ingest", "--no-embed", str(text))
        assert done.returncode == 1
        assert "DISK_FULL" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and "cannot rollback" not in done.stderr
        listed = _citewise(library, "list", "--json")
        assert listed.returncode == 0 and json.loads(listed.stdout) == []


def test_opening_a_library_on_a_full_disk_reports_disk_full(tmp_path: Path) -> None:
    library = tmp_path / "library"
    with tiny_disk(library, "2m"):
        assert _citewise(library, "list", "--json").returncode == 0
        for companion in ("library.db-wal", "library.db-shm"):  # a clean close leaves neither
            (library / companion).unlink(missing_ok=True)
        filler = library / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as grow:
            while True:  # the disk fills up, as from another program
                grow.write(b"\0" * 4096)
                grow.flush()
        opened = _citewise(library, "list", "--json")
        assert opened.returncode != 0
        assert "DISK_FULL" in opened.stderr, opened.stderr
        assert "Traceback" not in opened.stderr and "disk I/O error" not in opened.stderr
        filler.unlink()  # space freed: the library opens again
        assert _citewise(library, "list", "--json").returncode == 0


def test_a_library_from_a_newer_citewise_is_refused_untouched(tmp_path: Path) -> None:
    import sqlite3

    from citewise.store.sqlite.migrations import MIGRATIONS

    LibraryStore(tmp_path).close()
    db_path = tmp_path / "library.db"
    with sqlite3.connect(db_path) as db:  # as a later build's migration leaves it
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    for only_read in (False, True):
        with pytest.raises(CitewiseError) as raised:
            LibraryStore(tmp_path, read_only=only_read)
        assert raised.value.code == "LIBRARY_TOO_NEW"
        assert str(tmp_path) in raised.value.message and raised.value.hint
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1
    done = _citewise(tmp_path, "list")
    assert done.returncode == 1
    assert "LIBRARY_TOO_NEW" in done.stderr and "Traceback" not in done.stderr
