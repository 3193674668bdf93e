"""Where a job's time goes, logged as one line per job (`citewise.job {json}`) on the
worker's stderr: wall seconds, this thread's CPU, and the CPU of the parse processes the
job forked (exact with `--concurrency 1`; with more threads, children reaped during one
job count for the job that was running)."""

from __future__ import annotations

import json
import logging
import resource
import time
from typing import Any

log = logging.getLogger("citewise.workers.jobs")
PREFIX = "citewise.job"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class JobClock:
    """Started when a job starts; `done(**fields)` logs its split."""

    def __init__(self, job: str) -> None:
        self.job = job
        self.wall = time.perf_counter()
        self.started = time.time()
        self.cpu = time.thread_time()
        self.children = _children_cpu()
        self.parts: dict[str, float] = {}

    def add(self, part: str, seconds: float) -> None:
        self.parts[part] = self.parts.get(part, 0.0) + seconds

    def done(self, **fields: Any) -> dict[str, Any]:
        record: dict[str, Any] = {
            "job": self.job,
            **fields,
            "started": round(self.started, 3),  # epoch seconds: a timeline across workers
            "seconds": round(time.perf_counter() - self.wall, 4),
            "cpu": round(time.thread_time() - self.cpu, 4),
            "child_cpu": round(_children_cpu() - self.children, 4),
            **{k: round(v, 4) for k, v in self.parts.items()},
        }
        log.info("%s %s", PREFIX, json.dumps(record, sort_keys=True))
        return record


def log_to_stderr() -> None:
    """One line per job on stderr (unless the program configured logging itself);
    procrastinate's own messages from warnings up."""
    if logging.getLogger().handlers or log.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    for name, level in (("citewise", logging.INFO), ("procrastinate", logging.WARNING)):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(level)
