"""What an ingest derives from a parsed file's text (its keyword postings) is worked out in
the file's parse worker, under the file's budget, not in the process that stores: a large
CSV or text file used to cost the storing process tens of seconds and a gigabyte."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citewise.api import Library
from citewise.documents import Document
from citewise.documents.pool.parallel import ParseBudget, ParseOptions, ParsePool
from citewise.ingest import AsStored
from citewise.retrieval.keyword_index import document_postings, trusted_blocks
from citewise.retrieval.postings import Piece

ROWS = 3_000


def write_csv(path: Path, rows: int = ROWS) -> Path:
    lines = ["sample,site,depth_m,porosity"]
    lines += [
        f"S{n:05d},quarry {n % 7},{n % 90 + 0.5},{(n * 37) % 100 / 100:.2f}" for n in range(rows)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_an_ingest_stores_the_postings_its_parse_worker_analysed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    arrived: list[Document] = []
    storing = AsStored.__call__

    def record(self: AsStored, doc_id: str, doc: Document) -> None:
        arrived.append(doc)
        storing(self, doc_id, doc)

    monkeypatch.setattr(AsStored, "__call__", record)
    with Library(tmp_path / "lib", embeddings=False) as lib:
        report = lib.ingest([write_csv(tmp_path / "cores.csv")])
        assert not report.failed
        [doc] = arrived
        assert isinstance(doc.analysed, Piece)  # it came with the parse
        assert doc.analysed.blocks == trusted_blocks(doc)
        hits = lib.search("S02718")
    assert hits and "S02718" in hits[0].block.text


def hungry(doc: Document) -> object:
    """An analysis that needs far more memory than the budget below allows."""
    return b"x" * (600 * 1024 * 1024)


def test_the_analysis_runs_under_the_files_memory_budget(tmp_path: Path) -> None:
    options = ParseOptions(budget=ParseBudget(memory_mb=300), analyse=hungry)
    with ParsePool([write_csv(tmp_path / "cores.csv")], options=options) as pool:
        [(_, outcome)] = list(pool.results())
    assert getattr(outcome, "code", None) == "TOO_LARGE"


def stalls(doc: Document) -> object:
    """An analysis that never ends in time."""
    time.sleep(60)
    return None


def test_the_analysis_runs_under_a_time_budget(tmp_path: Path) -> None:
    options = ParseOptions(budget=ParseBudget(seconds=1, seconds_per_page=1), analyse=stalls)
    started = time.monotonic()
    with ParsePool([write_csv(tmp_path / "cores.csv", rows=50)], options=options) as pool:
        [(_, outcome)] = list(pool.results())
    assert getattr(outcome, "code", None) == "TOO_COMPLEX"
    assert time.monotonic() - started < 30


def test_postings_from_the_worker_equal_postings_made_in_place(tmp_path: Path) -> None:
    csv = write_csv(tmp_path / "cores.csv", rows=200)
    with ParsePool([csv], options=ParseOptions(analyse=document_postings)) as pool:
        [(_, doc)] = list(pool.results())
    assert isinstance(doc, Document) and isinstance(doc.analysed, Piece)
    here = document_postings(doc)
    assert here is not None
    for name in ("keys", "terms", "docs", "counts", "lengths"):
        assert (getattr(doc.analysed, name) == getattr(here, name)).all(), name
