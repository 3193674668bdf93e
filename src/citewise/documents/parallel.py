"""Parsing files under a budget: worker processes, one file at a time each, results as
they finish.

Parsing is CPU-bound Python (PyMuPDF layout, tables, references) plus tesseract for pages
without a usable text layer, and a hostile file can make it hang or eat gigabytes. So
files are parsed in worker processes (documents/worker.py) and a watch thread here stops
any worker past its file's wall-clock deadline or memory budget: the file is named
(TOO_COMPLEX, TOO_LARGE), a worker that dies fails only its own file, and every other file
of the batch comes back whatever order they finish in. A worker that finished its file
cleanly takes the next one (forking one per file cost 40-60 ms of CPU a file: the parent's
heap copied page by page, caches warmed again); one that grew by more than a quarter of
the memory budget is ended and a fresh one forked, so every file starts near the size the
budget is measured from.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

from citewise.documents.model import Document
from citewise.documents.options import WORKERS_VARIABLE, ParseBudget, ParseOptions
from citewise.documents.worker import (
    MEMORY_HINT,
    TIME_HINT,
    ParseFailure,
    parse_in_worker,
    run_worker,
    warm_up,
)
from citewise.errors import BadDocumentError, ParserCrashedError, TooComplexError, TooLargeError

__all__ = [
    "WORKERS_VARIABLE",
    "ParseBudget",
    "ParseFailure",
    "ParseOptions",
    "ParsePool",
    "parse_in_worker",
]

WATCH_SECONDS = 0.05  # how often the watch looks at workers' memory and deadlines
RETIRE_SHARE = 4  # a worker grown by more than 1/4 of the memory budget takes no next file


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
class _Worker:
    """A parse process: given files one at a time until it is ended."""

    process: BaseProcess
    conn: Connection  # (path, sha256) go out, ("pages", n) and ("done", outcome) come back
    pid: int
    base_kb: int  # the pool's resident size when it was forked: its starting size
    reaped: bool = False  # joined: its pid may belong to another process now
    exitcode: int | None = None


@dataclass
class _Job:
    path: Path
    worker: _Worker
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


class ParsePool:
    """Parses `paths` in worker processes, `workers` at a time, each under `budget`.

    `results()` yields (path, Document or the error to raise) as files finish; `parse(path)`
    parses one more file the same way and returns its Document or raises its error.
    `digests`: the files' SHA-256 where the caller has hashed them (a Document takes it).
    """

    def __init__(
        self,
        paths: list[Path],
        budget: ParseBudget | None = None,
        options: ParseOptions | None = None,
        digests: Mapping[Path, str | None] | None = None,
    ) -> None:
        options = options or ParseOptions()
        # the files' SHA-256 when the caller has hashed them: the workers do not again
        self._digests = dict(digests or {})
        # `budget`, when given, overrides the options' budget
        self.options = options if budget is None else replace(options, budget=budget)
        self.budget = self.options.budget
        # largest files first: the batch does not end with one worker parsing a big file
        # while the others sit idle
        self._queue = deque(sorted(dict.fromkeys(paths), key=_size, reverse=True))
        self._workers = worker_count(len(self._queue), self.options.workers)
        self._running: list[_Job] = []
        self._idle: list[_Worker] = []
        self._ending: list[_Worker] = []  # killed with nothing left to parse, reaped at close
        self._done: deque[tuple[Path, Document | Exception]] = deque()
        methods = multiprocessing.get_all_start_methods()
        # fork starts a worker in milliseconds; workers only parse, never touch the store
        self._context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        if "fork" in methods and any(p.suffix.lower() == ".pdf" for p in self._queue):
            warm_up()  # once here, not once in every forked worker
        self._closed = threading.Event()
        self._reaping = threading.Lock()  # the watch never kills a worker past its job
        # the watch runs beside whatever the caller does between results (storing a file)
        self._watch = threading.Thread(target=self._watch_workers, daemon=True)
        self._watch.start()
        self._fill()

    def _fork(self) -> _Worker:
        mine, theirs = self._context.Pipe(duplex=True)
        args = (self.options, theirs)
        # typeshed's BaseContext lacks Process; every concrete context (fork, spawn) has it.
        process = self._context.Process(target=run_worker, args=args)  # type: ignore[attr-defined]
        base = _resident_kb(os.getpid())
        process.start()
        theirs.close()  # the parent keeps only its end: EOF tells it the worker is gone
        return _Worker(process, mine, process.pid, base)

    def _start(self, path: Path) -> _Job:
        """`path` given to an idle worker (a new one when none is idle)."""
        while True:
            worker = self._idle.pop() if self._idle else self._fork()
            base = _resident_kb(worker.pid) or worker.base_kb
            try:
                worker.conn.send((path, self._digests.get(path)))
                break
            except OSError:  # an idle worker gone (killed from outside): another one
                self._end(worker)
        now = time.monotonic()
        return _Job(path, worker, now, now + self.budget.deadline(1), base)

    def _fill(self) -> None:
        while self._queue and len(self._running) < self._workers:
            self._running.append(self._start(self._queue.popleft()))

    def _watch_workers(self) -> None:
        """Stop (kill) every worker past its deadline or its memory budget; the main thread
        then sees it gone and reports the reason the watch left."""
        while not self._closed.wait(WATCH_SECONDS):
            for job in list(self._running):
                reason = None if job.stopped else self._over_budget(job)
                if reason is not None:
                    with self._reaping:
                        if not job.released and not job.worker.reaped:
                            job.stopped = reason
                            _kill(job.pid)

    def _over_budget(self, job: _Job) -> ParseFailure | None:
        job.grown_kb = max(job.grown_kb, _resident_kb(job.pid) - job.base_kb)
        if job.grown_kb > self.budget.memory_mb * 1024:
            return self._too_large()
        if time.monotonic() >= job.deadline:
            seconds = job.deadline - job.started
            message = f"parsing took longer than its {seconds:g} s budget"
            return ParseFailure(TooComplexError, message, TIME_HINT)
        return None

    def results(self) -> Iterator[tuple[Path, Document | Exception]]:
        """Every submitted file's outcome (a Document or the error to raise), as they finish."""
        while self._done or self._running:
            if not self._done:
                self._advance()
            while self._done:
                yield self._done.popleft()

    def _advance(self) -> None:
        """Wait for a reply or a worker's end; move every job that ended to the done list."""
        wait([job.conn for job in self._running], timeout=1.0)
        for job in self._running:
            if job.conn.poll():
                self._receive(job)
            if job.result is not None:
                self._release(job)
                self._done.append((job.path, _outcome(job.result)))
        self._running = [job for job in self._running if job.result is None]
        self._fill()

    def _too_large(self) -> ParseFailure:
        message = f"parsing needs more than its {self.budget.memory_mb} MB memory budget"
        return ParseFailure(TooLargeError, message, MEMORY_HINT)

    def _receive(self, job: _Job) -> None:
        try:
            what, value = job.conn.recv()
        except (EOFError, OSError):  # the worker is gone without (a whole) reply
            job.exitcode = self._end(job.worker, dead=True)
            # dying while it grew towards its budget: the allocation that failed was memory
            ballooned = job.grown_kb > self.budget.memory_mb * 512 and job.exitcode != 0
            job.result = job.stopped or (self._too_large() if ballooned else None)
            job.result = job.result or _death(job.exitcode)
            return
        if what == "pages":
            job.deadline = job.started + self.budget.deadline(int(value))
        else:
            job.result = value

    def _release(self, job: _Job) -> None:
        """A job over: its worker takes the next file, unless it was stopped, died or grew
        by more than its share of the budget (then it is ended)."""
        worker = job.worker
        with self._reaping:  # from now on the watch leaves this worker to its next job
            job.released = True
            clean = job.stopped is None and not worker.reaped and not self._closed.is_set()
        limit = self.budget.memory_mb * 1024 // RETIRE_SHARE
        kept = clean and _resident_kb(worker.pid) - worker.base_kb <= limit
        if kept and self._queue:
            self._idle.append(worker)
        elif kept:  # nothing left to give it: it ends now, while the batch goes on, and
            with self._reaping:  # is reaped at close (no wait for its exit then)
                _kill(worker.pid)
            self._ending.append(worker)
        else:
            self._end(worker)

    def _end(self, worker: _Worker, dead: bool = False) -> int | None:
        """Stop (unless `dead`: its pipe closed, it is exiting) and reap a worker; its exit
        code."""
        if not worker.reaped:
            with self._reaping:
                if not dead:
                    _kill(worker.pid)  # done or stopped: it has nothing more to say
                worker.process.join(timeout=5)
                if worker.process.is_alive():  # closed its pipe yet lives on
                    _kill(worker.pid)
                    worker.process.join()
                worker.reaped = True
            worker.exitcode = worker.process.exitcode
            worker.process.close()  # its descriptor, not left to the garbage collector
            worker.conn.close()
        return worker.exitcode

    def parse(self, path: Path) -> Document:
        """`path`'s Document (parsed now, under the same budget, if it was not submitted);
        raises its error. Other files finishing meanwhile wait for `results()`."""
        if path in self._queue:
            self._queue.remove(path)
            self._running.append(self._start(path))
        elif all(job.path != path for job in self._running) and all(
            done != path for done, _ in self._done
        ):
            self._running.append(self._start(path))
        while True:
            for i, (done, outcome) in enumerate(self._done):
                if done == path:
                    del self._done[i]
                    if isinstance(outcome, Exception):
                        raise outcome
                    return outcome
            self._advance()

    def close(self) -> None:
        self._closed.set()
        self._watch.join()
        self._queue.clear()
        self._done.clear()
        with self._reaping:  # every worker told to end at once: their exits overlap
            for worker in [job.worker for job in self._running] + self._idle:
                if not worker.reaped:
                    _kill(worker.pid)
        for job in self._running:
            job.stopped = job.stopped or ParseFailure(BadDocumentError, "not parsed: stopped")
            job.released = True
            self._end(job.worker)
        for worker in self._idle + self._ending:
            self._end(worker)
        self._running, self._idle, self._ending = [], [], []

    def __enter__(self) -> ParsePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # parsing it reports the problem
        return 0


def _resident_kb(pid: int | None) -> int:
    """Resident memory of a process in KB (Linux /proc; 0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


def _kill(pid: int) -> None:
    """Kill a worker that is not yet reaped, with its process group (its tesseract)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (AttributeError, OSError):  # no group yet, or not Unix
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _outcome(result: Document | ParseFailure | None) -> Document | Exception:
    if isinstance(result, ParseFailure):
        return result.exception()
    if result is None:  # cannot happen: a job ends only with a result
        return ParserCrashedError("the parser gave no result")
    return result


def _death(exitcode: int | None) -> ParseFailure:
    """A worker gone without a reply: killed (the OOM killer sends SIGKILL) or crashed."""
    if exitcode == -signal.SIGKILL:
        return ParseFailure(TooLargeError, "the parser was killed (out of memory?)", MEMORY_HINT)
    how = f"signal {-exitcode}" if exitcode and exitcode < 0 else f"exit code {exitcode}"
    return ParseFailure(ParserCrashedError, f"the parser crashed ({how})", "report the file")


Parse = Callable[[Path], Document]
