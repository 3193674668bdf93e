"""Killing an ingest mid-way loses nothing: a rerun completes with no duplicate rows."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.pdfs import write_paper


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_kill_during_ingest_then_rerun_finishes_without_duplicates(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    for n in range(40):
        write_paper(folder / f"paper{n:02d}.pdf", title=f"Granite Study Number {n}")
    library = tmp_path / "library"
    env = {**os.environ, "CITEWISE_LIBRARY": str(library)}
    command = [sys.executable, "-m", "citewise", "ingest", "--no-embed", str(folder)]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    database = library / "library.db"
    deadline = time.time() + 60
    stored = 0
    while time.time() < deadline and stored < 3:  # kill once some documents are in
        time.sleep(0.05)
        if database.exists():
            try:
                with sqlite3.connect(database, timeout=1) as db:
                    stored = db.execute("SELECT count(*) FROM documents").fetchone()[0]
            except sqlite3.OperationalError:
                stored = 0
    workers = children(process.pid)  # parse workers (one per core)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.time() + 10
    while any(alive(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers), "parse workers outlived the killed ingest"
    with sqlite3.connect(database) as db:
        partial = db.execute("SELECT count(*) FROM documents").fetchone()[0]
        orphans = db.execute(
            "SELECT count(*) FROM blocks b LEFT JOIN documents d ON d.id = b.document_id "
            "WHERE d.id IS NULL"
        ).fetchone()[0]
    assert 0 < partial < 40 and orphans == 0  # killed part-way, no half-stored document

    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    with sqlite3.connect(database) as db:
        docs = db.execute("SELECT count(*) FROM documents").fetchone()[0]
        paths = db.execute("SELECT count(DISTINCT path) FROM documents").fetchone()[0]
        blocks = db.execute("SELECT count(*) FROM blocks").fetchone()[0]
        empty = db.execute(
            "SELECT count(*) FROM documents d "
            "WHERE NOT EXISTS (SELECT 1 FROM blocks b WHERE b.document_id = d.id)"
        ).fetchone()[0]
    assert docs == paths == 40
    assert blocks > 0 and empty == 0
