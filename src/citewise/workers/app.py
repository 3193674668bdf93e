"""The procrastinate app of one PostgreSQL library: its connector, its queue tables, the
names of the jobs citewise defers.

The queue lives in the library's own database (the schema its URL selects), so a lab runs
no other server: jobs are rows, workers take them with row locks, LISTEN/NOTIFY wakes idle
workers, and a job whose worker stops sending heartbeats is handed to another.
"""

from __future__ import annotations

from typing import Any

from citewise.errors import LibraryError

INGEST = "citewise.ingest_file"
EMBED = "citewise.embed_missing"  # every block lacking a vector (a library-wide sweep)
EMBED_DOCUMENT = "citewise.embed_document"  # one document's blocks: the batches workers share
VOCABULARY = "citewise.learn_vocabulary"
RESEARCH = "citewise.research"
QUEUE = "citewise"
RETRIES = 2  # a failing job runs at most three times, then stays failed
# Higher runs first. A file's follow-up jobs (its embedding, the vocabulary) go before any
# waiting file, so the library becomes searchable file by file and no serial embedding is
# left for the end; waiting files go largest first (longest job first: the last job to
# start is a short one, so no worker idles long while another finishes a big filing).
FOLLOW_UP = 1 << 30
_SCHEMA_LOCK = 0x71756575  # pg_advisory_xact_lock key for creating the queue ("queu")


def ingest_priority(size: int) -> int:
    """The priority of ingesting a file of `size` bytes: its size (bigger first; files over
    a GiB are refused by the size caps anyway)."""
    return min(max(size, 0), FOLLOW_UP - 1)


def _unavailable(why: str) -> LibraryError:
    return LibraryError(
        f"the job queue is unavailable: {why}",
        hint="workers need a postgresql:// library and citewise[postgres] "
        "(procrastinate, psycopg) installed",
        code="QUEUE_UNAVAILABLE",
    )


def queue_app(url: str) -> Any:
    """A procrastinate App on the database at `url`, its tables created when missing."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise _unavailable("the library is not a PostgreSQL database")
    try:
        import procrastinate
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise _unavailable(f"{exc.name} is not installed") from exc
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url))
    ensure_schema(url, app)
    return app


def ensure_schema(url: str, app: Any) -> None:
    """Create procrastinate's tables in the library's schema once (under an advisory lock,
    so two machines starting together do not both try)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
        if row is not None and row[0] is not None:
            return
        conn.execute(app.schema_manager.get_schema())  # no parameters: % stays as written
