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
# Higher runs first, in three bands. A file's follow-up jobs (its embedding, the
# vocabulary) go before anything else: each is short, and they finish work already begun,
# so the library becomes searchable file by file with no serial embedding left for the
# end. Interactive jobs (research a person is waiting for) go next, before any waiting
# file, however many are queued. Waiting files go last, largest first within their band
# (longest job first: the last job to start is a short one, so no worker idles long while
# another finishes a big filing).
FOLLOW_UP = 1 << 30
INTERACTIVE = 1 << 29
INGEST_BAND = 1 << 28  # ingest priorities are 0 .. INGEST_BAND - 1: below every other job


def ingest_priority(size: int) -> int:
    """The priority of ingesting a file of `size` bytes: its size (bigger first), capped
    inside the ingest band (files of 256 MiB and more share its top)."""
    return min(max(size, 0), INGEST_BAND - 1)


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
    """Create procrastinate's tables and citewise's job outcomes in the library's schema
    (once, under an advisory lock, so two machines starting together do not both try)."""
    from citewise.store.postgres.queue import ensure_queue_tables

    ensure_queue_tables(url, app.schema_manager.get_schema())
