"""Running a worker: procrastinate's worker loop, plus a sweep that hands the jobs of a
worker that stopped sending heartbeats (killed, machine gone) back to the queue.

`until_done` stops a worker when no job of the queue waits or runs anywhere, not when its
own fetch first comes back empty: a job another worker is running may still defer
follow-ups (a file's embedding, the vocabulary), and a worker that left at the first empty
fetch would leave them all to the last worker while its own core idles.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from citewise.api.jobs import open_jobs, prune_queue
from citewise.config import Settings
from citewise.workers.app import QUEUE, queue_app
from citewise.workers.tasks import Libraries, register
from citewise.workers.timing import log_to_stderr

log = logging.getLogger(__name__)

QUIET_EVERY = 0.1  # seconds between an `until_done` worker's looks at the queue
PRUNE_EVERY = 3600.0  # seconds between a worker's retention passes (the first at start)


@dataclass(frozen=True)
class WorkerOptions:
    concurrency: int = 1  # jobs at once (threads; parsing and embedding release the GIL)
    heartbeat: float = 10.0  # seconds between this worker's heartbeats
    stalled_after: float = 30.0  # a worker silent this long is gone: its jobs run again
    until_done: bool = False  # stop when the queue is empty instead of waiting for more
    name: str | None = None


async def sweep_stalled(app: Any, stalled_after: float, every: float) -> None:
    """Put back the jobs of workers silent for `stalled_after` seconds, every `every`."""
    while True:
        try:
            for job in await app.job_manager.get_stalled_jobs(
                seconds_since_heartbeat=stalled_after
            ):
                log.warning("job %s (%s) lost its worker: running it again", job.id, job.task_name)
                await app.job_manager.retry_job(job)
        except Exception:  # another worker retried it first, or the database blinked
            log.debug("stalled-job sweep", exc_info=True)
        await asyncio.sleep(every)


async def prune_once(url: str, days: int) -> None:
    """Remove jobs finished more than `days` days ago and their outcomes (one pass)."""
    try:
        pruned = await asyncio.to_thread(prune_queue, url, QUEUE, days)
    except Exception:  # the database blinked: the next pass tries again
        log.debug("queue retention", exc_info=True)
        return
    if pruned.jobs or pruned.outcomes:
        log.info(
            "removed %d finished jobs and %d outcomes older than %d days",
            *(pruned.jobs, pruned.outcomes, days),
        )


async def prune_every(url: str, days: int, every: float = PRUNE_EVERY) -> None:
    """`prune_once` every `every` seconds (the worker ran the first pass as it started)."""
    while True:
        await asyncio.sleep(every)
        await prune_once(url, days)


async def until_quiet(app: Any, every: float = QUIET_EVERY) -> None:
    """Return once no job of the queue is waiting or running (one snapshot: a running job
    defers its follow-ups before it is marked done, so none is missed between the two)."""
    while True:
        try:
            if not await open_jobs(app.connector, QUEUE):
                return
        except Exception:  # the database blinked: look again
            log.debug("queue look", exc_info=True)
        await asyncio.sleep(every)


async def _run(app: Any, settings: Settings, options: WorkerOptions, url: str, days: int) -> None:
    libraries = Libraries(settings)
    await prune_once(url, days)
    prune = asyncio.create_task(prune_every(url, days))
    async with app.open_async():
        sweep = asyncio.create_task(
            sweep_stalled(app, options.stalled_after, max(0.5, options.heartbeat))
        )
        worker = asyncio.create_task(
            app.run_worker_async(
                queues=[QUEUE],
                concurrency=options.concurrency,
                name=options.name,
                update_heartbeat_interval=options.heartbeat,
                stalled_worker_timeout=options.stalled_after,
                additional_context={"libraries": libraries},
                # LISTEN/NOTIFY wakes an idle worker; polling is the fallback (a job whose
                # lock was held when it was deferred is not announced again)
                fetch_job_polling_interval=min(
                    1.0 if options.until_done else 5.0, options.heartbeat
                ),
                # an abort request is announced too (NOTIFY); polled as the fallback
                abort_job_polling_interval=min(5.0, options.heartbeat),
            )
        )
        try:
            if options.until_done:
                quiet = asyncio.create_task(until_quiet(app))
                await asyncio.wait({worker, quiet}, return_when=asyncio.FIRST_COMPLETED)
                quiet.cancel()
                worker.cancel()  # a graceful stop: procrastinate waits for the job in hand
            with suppress(asyncio.CancelledError):
                await worker
        finally:
            sweep.cancel()
            prune.cancel()


def run_worker(settings: Settings, options: WorkerOptions) -> None:
    """Run jobs of the library `settings` names until stopped (SIGINT, SIGTERM), or until
    the queue is empty with `until_done`."""
    if settings.database is None:
        queue_app("")  # raises the QUEUE_UNAVAILABLE error with its hint
        return
    days = settings.queue_retention_days  # a bad setting fails before any job runs
    log_to_stderr()
    app = queue_app(settings.database)
    register(app)
    asyncio.run(_run(app, settings, options, settings.database, days))
