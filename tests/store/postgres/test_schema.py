"""The PostgreSQL schema: migrations in order, once, and full text that finds CJK."""

from __future__ import annotations

import pytest

from citewise.errors import LibraryError
from citewise.store.postgres import PostgresLibraryStore
from citewise.store.postgres.schema import MIGRATIONS, TABLES
from tests.store.contract.conftest import paper


def test_migrations_run_once_in_order_and_create_every_table(pg_url: str) -> None:
    with PostgresLibraryStore(pg_url) as store:
        versions = [r["version"] for r in store.db.rows("SELECT version FROM schema_migrations")]
        tables = {r["t"] for r in store.db.rows(
            "SELECT table_name AS t FROM information_schema.tables "
            "WHERE table_schema = current_schema()")}  # fmt: skip
    assert versions == list(range(1, len(MIGRATIONS) + 1))
    assert set(TABLES) | {"schema_migrations", "block_changes", "vector_changes"} <= tables
    with PostgresLibraryStore(pg_url) as again:  # a second open applies nothing
        assert again.db.value("SELECT count(*) FROM schema_migrations") == len(MIGRATIONS)


def test_a_database_from_a_newer_citewise_is_refused(pg_url: str) -> None:
    # as a later build's migration leaves it
    with PostgresLibraryStore(pg_url) as store, store.db.connect() as conn:
        conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (len(MIGRATIONS) + 1,))
    with pytest.raises(LibraryError) as raised:
        PostgresLibraryStore(pg_url)
    assert raised.value.code == "LIBRARY_TOO_NEW" and raised.value.hint


def test_cjk_substrings_and_stemmed_english_are_found(pg_url: str) -> None:
    with PostgresLibraryStore(pg_url) as store:
        store.save_document(
            paper("a", "Granite", ["Intro", "检索增强生成的方法", "sorting granites"])
        )
        store.save_document(paper("b", "Basalt", ["Intro", "生成对抗网络", "basalt"]))
        texts = lambda terms: sorted(  # noqa: E731
            store.blocks_by_rowid([r for r, _ in store.keyword_search(terms, 10)])[r].text
            for r, _ in store.keyword_search(terms, 10)
        )
        assert texts(["增强"]) == ["检索增强生成的方法"]
        assert texts(["生成"]) == ["检索增强生成的方法", "生成对抗网络"]
        assert texts(["granite"]) == ["sorting granites"]  # stemmed like the text
        assert texts(["增生"]) == []  # not a substring: no match
        total, freqs = store.document_frequencies(["生成", "basalt", "absent"])
        assert (total, freqs) == (6, {"生成": 2, "basalt": 1, "absent": 0})


def test_an_unreachable_server_fails_with_a_code_and_hint(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"postgresql://nobody@/citewise?host={tmp_path}&connect_timeout=2"
    with pytest.raises(LibraryError) as info:
        PostgresLibraryStore(url)
    assert info.value.code == "POSTGRES_UNAVAILABLE" and "pgvector" in info.value.hint


def test_compact_vacuums_and_keeps_every_row(pg_url: str) -> None:
    with PostgresLibraryStore(pg_url) as store:
        store.save_document(paper("c", "Gabbro", ["Intro", "gabbro cooling", "olivine"]))
        store.save_document(paper("d", "Dunite", ["Intro", "dunite", "peridotite"]))
        store.delete_document("d")
        blocks = store.db.value("SELECT count(*) FROM blocks")
        before, after = store.compact()
        assert before > 0 and after > 0
        assert store.db.value("SELECT count(*) FROM blocks") == blocks
        # VACUUM ANALYZE ran: the planner statistics of the blocks table are fresh
        assert store.db.value(
            "SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'blocks' "
            "AND schemaname = current_schema()"
        )
