"""`copy_library`: SQLite -> PostgreSQL -> SQLite gives the same rows, table by table."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from citewise.documents.model import Citation, Reference
from citewise.retrieval.hybrid import Retriever
from citewise.store.postgres import PostgresLibraryStore
from citewise.store.postgres.transfer import copy_library
from citewise.store.records import ModelCall, TaskRecord
from citewise.store.sqlite.library import BlockFilter, LibraryStore
from citewise.store.sqlite.vectors import register_model, save_vectors
from tests.store.contract.conftest import paper


def _library(directory: Path) -> None:
    store = LibraryStore(directory)
    cited = store.save_document(
        paper("b", "Basalt Columns", ["h", "basalt 检索增强"], doi="10.1/b")
    )
    store.save_document(
        paper(
            "a",
            "Granite",
            ["h", "as [1] shows", "granite sorting"],
            references=[
                Reference(1, "Quarry. Basalt Columns.", title="Basalt Columns", doi="10.1/b")
            ],
            citations=[Citation(1, 1, "[1]")],
        )
    )
    rowids = [b.rowid for d in store.documents() for b in store.blocks(d.id)]
    register_model(store.db, "mini", 4)
    rng = np.random.default_rng(7)
    save_vectors(store.db, "mini", rowids, rng.normal(size=(len(rowids), 4)))
    store.tasks.create(TaskRecord("t1", "granite", "planning", 0, {"k": 8}), {"topic": "granite"})
    store.audit.log_model_call(ModelCall(backend="llama", model="smol", prompt_tokens=12))
    assert store.references(store.documents()[1].id)[0].resolved_document == cited
    store.close()


def test_a_round_trip_through_postgresql_keeps_every_row(tmp_path: Path, pg_url: str) -> None:
    _library(tmp_path / "one")
    there = copy_library(tmp_path / "one", pg_url)
    assert there.verified, [c for c in there.checks if not c.same]
    counts = {c.table: c.target_rows for c in there.checks}
    assert (counts["documents"], counts["blocks"], counts["block_vectors"]) == (2, 5, 5)
    assert (counts["citations"], counts["tasks"], counts["llm_calls"]) == (1, 1, 1)
    back = copy_library(pg_url, tmp_path / "two")
    assert back.verified
    assert [c.source_checksum for c in there.checks] == [c.target_checksum for c in back.checks]
    with PostgresLibraryStore(pg_url) as pg:  # the copy is searchable where it landed
        hits = pg.keyword_search(["增强"], 5)
        assert [pg.blocks_by_rowid([hits[0][0]])[hits[0][0]].text] == ["basalt 检索增强"]
        rowids, matrix = pg.vectors.load_matrix("mini")
        ((nearest, score),) = pg.vectors.nearest("mini", matrix[3], 1)  # through HNSW
        assert nearest == rowids[3] and score > 0.999
        indexes = pg.db.rows("SELECT indexdef FROM pg_indexes WHERE tablename = 'block_vectors'")
        assert any("hnsw" in r["indexdef"] and "'mini'" in r["indexdef"] for r in indexes)
    again = LibraryStore(tmp_path / "two")
    assert Retriever(again, None).keyword(["granite"], 5, BlockFilter()) and again.stats() == {
        "documents": 2,
        "blocks": 5,
        "pages": 3,
    }
    again.close()


def test_a_second_run_copies_nothing_and_still_verifies(tmp_path: Path, pg_url: str) -> None:
    _library(tmp_path / "one")
    copy_library(tmp_path / "one", pg_url)
    rerun = copy_library(tmp_path / "one", pg_url)
    assert rerun.verified and sum(rerun.copied.values()) == 0


def test_the_command_prints_verified_counts_as_json(tmp_path: Path, pg_url: str) -> None:
    import json

    from citewise.cli import app
    from citewise.cli.testing import CliRunner

    _library(tmp_path / "one")
    result = CliRunner().invoke(app, ["migrate", str(tmp_path / "one"), pg_url, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    tables = {t["table"]: t for t in report["tables"]}
    assert report["verified"] and tables["blocks"]["target_rows"] == 5
    assert all(t["same"] for t in tables.values()) and "postgres" not in str(report["source"])
