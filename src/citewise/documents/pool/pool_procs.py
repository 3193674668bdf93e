"""The parse pool's processes (documents/pool/parallel.py): what a worker and a job are, how many
workers a batch gets, how a process's memory is read and how it is killed, and what its
reply or its end means for its file."""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from citewise.documents.model import Document
from citewise.documents.pool.worker import MEMORY_HINT, ParseFailure
from citewise.errors import ParserCrashedError, TooLargeError


def worker_count(files: int, wanted: int | None = None) -> int:
    """Processes to use: one per available core (`wanted`: $CITEWISE_PARSE_WORKERS
    overrides), at most one per file, at least one."""
    if wanted is not None and wanted > 0:
        cores = wanted
    else:
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # not Linux
            cores = os.cpu_count() or 1
    return max(1, min(cores, files))


@dataclass
class Worker:
    """A parse process: given files one at a time until it is ended."""

    process: BaseProcess
    conn: Connection  # (path, sha256) go out, ("pages", n) and ("done", outcome) come back
    pid: int
    base_kb: int  # the pool's resident size when it was forked: its starting size
    reaped: bool = False  # joined: its pid may belong to another process now
    exitcode: int | None = None


@dataclass
class Job:
    path: Path
    worker: Worker
    started: float
    deadline: float
    base_kb: int  # the worker's resident size when it was given this file
    stopped: ParseFailure | None = None  # set by the watch when it stops the worker
    result: Document | ParseFailure | None = None
    released: bool = False  # over: its worker is idle, serves another file or is gone
    exitcode: int | None = None
    grown_kb: int = 0  # the most memory the watch saw it add

    @property
    def pid(self) -> int:
        return self.worker.pid

    @property
    def conn(self) -> Connection:
        return self.worker.conn


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # parsing it reports the problem
        return 0


def resident_kb(pid: int | None) -> int:
    """Resident memory of a process in KB (Linux /proc; 0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


def kill(pid: int) -> None:
    """Kill a worker that is not yet reaped, with its process group (its tesseract)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (AttributeError, OSError):  # no group yet, or not Unix
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def outcome(result: Document | ParseFailure | None) -> Document | Exception:
    if isinstance(result, ParseFailure):
        return result.exception()
    if result is None:  # cannot happen: a job ends only with a result
        return ParserCrashedError("the parser gave no result")
    return result


def death(exitcode: int | None) -> ParseFailure:
    """A worker gone without a reply: killed (the OOM killer sends SIGKILL) or crashed."""
    if exitcode == -signal.SIGKILL:
        return ParseFailure(TooLargeError, "the parser was killed (out of memory?)", MEMORY_HINT)
    how = f"signal {-exitcode}" if exitcode and exitcode < 0 else f"exit code {exitcode}"
    return ParseFailure(ParserCrashedError, f"the parser crashed ({how})", "report the file")
