"""Parsing a batch in worker processes gives what parsing it here gives, errors included."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.documents import read_document
from citewise.documents.parallel import WORKERS_VARIABLE, ParsePool, worker_count
from citewise.errors import CitewiseError
from tests.pdfs import write_paper


def outcome(parse, path: Path) -> tuple[str, ...]:
    try:
        doc = parse(path)
    except CitewiseError as exc:
        return ("error", type(exc).__name__, exc.code, exc.message, exc.hint)
    return ("doc", doc.title or "", str(doc.pages), *(b.text for b in doc.blocks))


def test_pool_gives_the_same_documents_and_errors_as_parsing_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = [write_paper(tmp_path / f"paper{i}.pdf", title=f"Paper number {i}") for i in range(3)]
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "notes.pdf").write_text("not a PDF at all\n" * 10)
    (tmp_path / "table.xyz").write_text("unsupported")
    files += [tmp_path / "empty.pdf", tmp_path / "notes.pdf", tmp_path / "table.xyz"]
    expected = [outcome(read_document, f) for f in files]
    monkeypatch.setenv(WORKERS_VARIABLE, "2")
    with ParsePool(files) as pool:
        assert pool._executor is not None  # really in worker processes
        got = [outcome(pool.parse, f) for f in files]
    assert got == expected
    assert [o[0] for o in got] == ["doc"] * 3 + ["error"] * 3
    assert got[3][2] == got[4][2] == "BAD_DOCUMENT" and got[5][4]  # hint survived


def test_worker_count_follows_the_override_and_the_batch_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(WORKERS_VARIABLE, "3")
    assert worker_count(10) == 3
    assert worker_count(2) == 2
    monkeypatch.setenv(WORKERS_VARIABLE, "1")
    assert worker_count(10) == 1
    with ParsePool([Path("/nonexistent.pdf")]) as pool:  # one worker: parsed in process
        assert pool._executor is None
