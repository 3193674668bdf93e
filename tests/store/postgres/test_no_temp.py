"""A lab database may revoke TEMP from the citewise role: `save_vectors` (staged through a
session temporary table when it may) then upserts without one, with the same vectors read
back and the same dense search, on a real PostgreSQL role that has no TEMP."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from citewise.store.postgres import PostgresLibraryStore
from citewise.store.quantize import top_k
from tests.store.contract.conftest import paper
from tests.store.postgres.server import schema_url


@pytest.fixture
def no_temp_url(pg_server: str) -> Iterator[str]:
    """A URL for a fresh LOGIN role without TEMP on the database, owning a fresh schema."""
    import psycopg

    role, schema = f"r_{uuid.uuid4().hex[:10]}", f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        database = conn.execute("SELECT current_database()").fetchone()[0]  # type: ignore[index]
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f'REVOKE TEMP ON DATABASE "{database}" FROM PUBLIC, {role}')
        conn.execute(f"CREATE SCHEMA {schema} AUTHORIZATION {role}")
        conn.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
    user = pg_server.split("//", 1)[1].split(":", 1)[0].split("@", 1)[0]
    url = pg_server.replace(f"//{user}", f"//{role}", 1)
    try:
        yield schema_url(url, schema)
    finally:
        with psycopg.connect(pg_server, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")
            conn.execute(f'GRANT TEMP ON DATABASE "{database}" TO PUBLIC')


def _save_and_search(url: str) -> tuple[np.ndarray, np.ndarray, list[list[int]], bool]:
    """Store 2 papers, save vectors twice (the second call replaces some, a rowid given
    twice: the last wins); (rowids, matrix, top 5 of 5 queries, whether it staged)."""
    rng = np.random.default_rng(11)
    with PostgresLibraryStore(url) as store:
        for n in range(2):
            store.save_document(paper(f"{n}b", f"Paper {n}", [f"text {i}" for i in range(30)]))
        store.vectors.register_model("m-t", 16)
        rowids = [r for r, _ in store.vectors.blocks_without_vectors("m-t")]
        vectors = rng.normal(size=(len(rowids), 16)).astype(np.float32)
        store.vectors.save_vectors("m-t", rowids, vectors)
        again = rng.normal(size=(11, 16)).astype(np.float32)
        store.vectors.save_vectors("m-t", [*rowids[:10], rowids[0]], again)
        found, matrix = store.vectors.load_matrix("m-t")
        index = store.dense_index("m-t")
        index.refresh()
        tops = []
        for query in rng.normal(size=(5, 16)).astype(np.float32):
            got, _ = index.search(query / np.linalg.norm(query), 5)
            tops.append([int(r) for r in got])
        staged = store.vectors.may_stage()
        expected = vectors.copy()
        expected[:10] = again[:10]
        expected[0] = again[10]
        expected /= np.linalg.norm(expected, axis=1, keepdims=True)
        assert list(found) == rowids
        assert np.array_equal(matrix, expected.astype(np.float32))  # float32 exact
        return found, matrix, tops, staged


def test_a_role_without_temp_saves_vectors_and_finds_them_as_one_with_temp(
    no_temp_url: str, pg_url: str
) -> None:
    import psycopg

    with (
        psycopg.connect(no_temp_url, autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute("CREATE TEMP TABLE probe (x int)")  # the role really lacks TEMP
    rowids, matrix, tops, staged = _save_and_search(no_temp_url)
    assert not staged
    same_rowids, same_matrix, same_tops, staged_there = _save_and_search(pg_url)
    assert staged_there  # the superuser's library took the temp-table path
    assert np.array_equal(matrix, same_matrix)
    assert tops == same_tops
    assert list(rowids) == list(same_rowids) and len(rowids) == 60
    # the dense search's answers are the exact nearest blocks
    rng = np.random.default_rng(5)
    for query in rng.normal(size=(3, 16)).astype(np.float32):
        query /= np.linalg.norm(query)
        with PostgresLibraryStore(no_temp_url) as store:
            index = store.dense_index("m-t")
            index.refresh()
            got, _ = index.search(query, 5)
        assert sorted(got.tolist()) == sorted(rowids[top_k(matrix @ query, 5)].tolist())


def test_a_library_without_temp_ingests_and_searches_as_one_with_temp(
    no_temp_url: str, pg_url: str, tmp_path: Path
) -> None:
    from citewise.api import Library
    from citewise.config import Settings
    from tests.store.postgres.test_library_on_postgres import QUESTIONS, _papers

    papers = _papers(tmp_path / "papers")
    found = []
    for url in (no_temp_url, pg_url):
        settings = Settings.load(url, environ={"XDG_CACHE_HOME": str(tmp_path / url[-12:])})
        with Library(url, settings=settings) as lib:
            report = lib.ingest(papers)
            assert not report.failed and len(report.added) == 2
            vectors = lib.store.vectors
            assert vectors.may_stage() is (url == pg_url)
            models = [r["name"] for r in lib.store.db.rows("SELECT name FROM embedding_models")]
            assert len(models) == 1 and not vectors.has_missing_vectors(models[0])
            assert vectors.vector_count(models[0]) > 0
            found.append([[h.block.id for h in lib.search(q, 5)] for q in QUESTIONS[:2]])
    assert found[0] == found[1] and all(found[0])
