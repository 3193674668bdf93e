"""Bytes that are not text, named .txt or .csv, are refused the same way whichever store the
library is on (SQLite stored 200 KB of random bytes as 154 blocks with NUL bytes in them,
PostgreSQL failed on them as UNREADABLE)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from citewise.ingest import ingest
from citewise.store.protocols import Store


def noise(path: Path, size: int = 200_000) -> Path:
    path.write_bytes(random.Random(7).randbytes(size))
    return path


@pytest.mark.parametrize("name", ["notes.txt", "table.csv", "page.md"])
def test_random_bytes_named_as_text_are_refused_alike(
    store: Store, tmp_path: Path, name: str
) -> None:
    report = ingest(store, [noise(tmp_path / name)])
    [failure] = report.failed
    assert failure.code == "NOT_TEXT"
    assert failure.reason.startswith("not a text file (a NUL byte at byte ")
    assert store.documents() == []


def test_utf16_text_with_its_byte_order_mark_is_read(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "field_notes.txt"
    path.write_bytes("Granite cores from the north face\n\nAll were wet.\n".encode("utf-16"))
    report = ingest(store, [path])
    assert not report.failed
    [doc] = store.documents()
    assert doc.title == "Granite cores from the north face"
