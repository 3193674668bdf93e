"""What the job queue holds (procrastinate's tables, in the library's schema), read for
`citewise worker --until-done`."""

from __future__ import annotations

from typing import Any

_OPEN_JOBS = (
    "SELECT count(*) AS n FROM procrastinate_jobs "
    "WHERE queue_name = %(queue)s AND status IN ('todo', 'doing')"
)


async def open_jobs(connector: Any, queue: str) -> int:
    """Jobs of `queue` waiting or running now, through procrastinate's own connector."""
    row = await connector.execute_query_one_async(_OPEN_JOBS, queue=queue)
    return int(row["n"])
