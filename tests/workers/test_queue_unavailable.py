"""A library folder has no job queue: queuing, following and cancelling on one is
QUEUE_UNAVAILABLE, each saying what it needed and what to pass instead (api/queue.py
`library_queue`). No PostgreSQL needed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from citewise.api.queue import enqueue_ingest, job_progress
from citewise.api.queue_cancel import cancel_jobs, cancel_waiting, open_jobs
from citewise.config import Settings
from citewise.errors import LibraryError

QUEUING = "jobs need a library on PostgreSQL"
CANCELLING = "only a library on PostgreSQL has a job queue"


@pytest.mark.parametrize(
    ("call", "message", "hint"),
    [
        (lambda s: enqueue_ingest(s, []), QUEUING, "a library folder ingests in this process"),
        (lambda s: job_progress(s, [1]), QUEUING, "a library folder ingests in this process"),
        (lambda s: cancel_jobs(s, [1]), CANCELLING, "a library folder runs no jobs to cancel"),
        (lambda s: cancel_waiting(s), CANCELLING, "a library folder runs no jobs to cancel"),
        (lambda s: open_jobs(s), CANCELLING, "a library folder runs no jobs to cancel"),
    ],
)
def test_a_library_folder_has_no_queue(
    tmp_path: Path, call: Callable[[Settings], object], message: str, hint: str
) -> None:
    settings = Settings.load(tmp_path / "library", environ={})
    assert settings.database is None
    with pytest.raises(LibraryError) as raised:
        call(settings)
    assert raised.value.code == "QUEUE_UNAVAILABLE"
    assert raised.value.message == message
    assert raised.value.hint == f"pass --library postgresql://… ({hint})"
