"""Parsing files under a budget: worker processes, one file at a time each, results as
they finish.

Parsing is CPU-bound Python (PyMuPDF layout, tables, references) plus tesseract for pages
without a usable text layer, and a hostile file can make it hang or eat gigabytes. So
files are parsed in worker processes (documents/pool/worker.py) and a watch thread here stops
any worker past its file's wall-clock deadline or memory budget: the file is named
(TOO_COMPLEX, TOO_LARGE), a worker that dies fails only its own file, and every other file
of the batch comes back whatever order they finish in. A worker that finished its file
cleanly takes the next one (forking one per file cost 40-60 ms of CPU a file: the parent's
heap copied page by page, caches warmed again); one that grew by more than a quarter of
the memory budget is ended and a fresh one forked, so every file starts near the size the
budget is measured from. Replies are taken, and the next file handed out, by a thread of
the pool's own as soon as they come, so a worker never waits while the caller stores the
last file.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from multiprocessing.connection import wait
from pathlib import Path

from citewise.documents.model import Document
from citewise.documents.options import WORKERS_VARIABLE, ParseBudget, ParseOptions
from citewise.documents.pool.pool_procs import (
    Job,
    Worker,
    death,
    file_size,
    kill,
    outcome,
    resident_kb,
    worker_count,
)
from citewise.documents.pool.worker import (
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
    "worker_count",
]

WATCH_SECONDS = 0.05  # how often the watch looks at workers' memory and deadlines
RETIRE_SHARE = 4  # a worker grown by more than 1/4 of the memory budget takes no next file


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
        expected: int = 0,
    ) -> None:
        options = options or ParseOptions()
        # the files' SHA-256 when the caller has hashed them: the workers do not again
        self._digests = dict(digests or {})
        # `budget`, when given, overrides the options' budget
        self.options = options if budget is None else replace(options, budget=budget)
        self.budget = self.options.budget
        # largest files first: the batch does not end with one worker parsing a big file
        # while the others sit idle
        self._queue = deque(sorted(dict.fromkeys(paths), key=file_size, reverse=True))
        # `expected`: how many files `submit` may add, so the pool can grow to as many workers
        self._workers = worker_count(max(len(self._queue), expected), self.options.workers)
        self._running: list[Job] = []
        self._idle: list[Worker] = []
        self._ending: list[Worker] = []  # killed with nothing left to parse, reaped at close
        self._done: deque[tuple[Path, Document | Exception]] = deque()
        methods = multiprocessing.get_all_start_methods()
        # fork starts a worker in milliseconds; workers only parse, never touch the store
        self._context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._cold = "fork" in methods  # warm_up() not done yet (only forked workers inherit it)
        self._warm_for(self._queue)
        self._closed = threading.Event()
        self._reaping = threading.Lock()  # the watch never kills a worker past its job
        # the watch runs beside whatever the caller does between results (storing a file)
        self._watch = threading.Thread(target=self._watch_workers, daemon=True)
        self._watch.start()
        # the jobs, the queue and the outcomes change under this; waiters hear each change
        self._changed = threading.Condition()
        self._broken: BaseException | None = None  # what stopped the pump, raised to callers
        self._wake, self._waking = os.pipe()  # a byte here wakes the pump from its wait
        os.set_blocking(self._wake, False)
        self._fill()
        # the pump takes replies and hands out files while the caller stores
        self._pump = threading.Thread(target=self._pump_replies, daemon=True)
        self._pump.start()

    def _warm_for(self, paths: Iterable[Path]) -> None:
        """warm_up() once, here, before the first PDF's worker is forked, not once in every
        forked worker."""
        if self._cold and any(p.suffix.lower() == ".pdf" for p in paths):
            warm_up()
            self._cold = False

    def submit(self, path: Path, sha256: str | None = None) -> None:
        """One more file, parsed after those queued (give the largest first: the queue keeps
        the order files come in). A worker takes it at once if one is free."""
        self._warm_for([path])
        with self._changed:
            if sha256 is not None:
                self._digests[path] = sha256
            self._queue.append(path)
            self._fill()
            self._nudge()

    def _fork(self) -> Worker:
        mine, theirs = self._context.Pipe(duplex=True)
        args = (self.options, theirs)
        # typeshed's BaseContext lacks Process; every concrete context (fork, spawn) has it.
        process = self._context.Process(target=run_worker, args=args)  # type: ignore[attr-defined]
        base = resident_kb(os.getpid())
        process.start()
        theirs.close()  # the parent keeps only its end: EOF tells it the worker is gone
        return Worker(process, mine, process.pid, base)

    def _start(self, path: Path) -> Job:
        """`path` given to an idle worker (a new one when none is idle)."""
        while True:
            worker = self._idle.pop() if self._idle else self._fork()
            base = resident_kb(worker.pid) or worker.base_kb
            try:
                worker.conn.send((path, self._digests.get(path)))
                break
            except OSError:  # an idle worker gone (killed from outside): another one
                self._end(worker)
        now = time.monotonic()
        return Job(path, worker, now, now + self.budget.deadline(1), base)

    def _fill(self) -> None:
        while self._queue and len(self._running) < self._workers:
            self._running.append(self._start(self._queue.popleft()))

    def _watch_workers(self) -> None:
        """Stop (kill) every worker past its deadline or its memory budget; the pump then
        sees it gone and reports the reason the watch left."""
        while not self._closed.wait(WATCH_SECONDS):
            for job in list(self._running):
                reason = None if job.stopped else self._over_budget(job)
                if reason is not None:
                    with self._reaping:
                        if not job.released and not job.worker.reaped:
                            job.stopped = reason
                            kill(job.pid)

    def _over_budget(self, job: Job) -> ParseFailure | None:
        job.grown_kb = max(job.grown_kb, resident_kb(job.pid) - job.base_kb)
        if job.grown_kb > self.budget.memory_mb * 1024:
            return self._too_large()
        if time.monotonic() >= job.deadline:
            seconds = job.deadline - job.started
            message = f"parsing took longer than its {seconds:g} s budget"
            return ParseFailure(TooComplexError, message, TIME_HINT)
        return None

    def results(self) -> Iterator[tuple[Path, Document | Exception]]:
        """Every submitted file's outcome (a Document or the error to raise), as they finish."""
        while True:
            with self._changed:
                self._changed.wait_for(self._settled, timeout=None)
                self._check_pump()
                if not self._done:
                    return
                path, outcome = self._done.popleft()
            yield path, outcome

    def _settled(self) -> bool:
        """An outcome waits, nothing is left to wait for, or the pump stopped."""
        return bool(self._done) or not self._running or self._broken is not None

    def _check_pump(self) -> None:
        if self._broken is not None:
            raise ParserCrashedError(f"the parse pool stopped: {self._broken!r}")

    def _pump_replies(self) -> None:
        """The pool's own thread: wait for replies or workers' ends (without the lock), take
        them and give freed workers the next files (with it), until close."""
        try:
            while not self._closed.is_set():
                with self._changed:
                    running = list(self._running)
                if not running:
                    with self._changed:
                        self._changed.wait_for(lambda: self._running or self._closed.is_set())
                    continue
                woken = wait([self._wake, *(job.conn for job in running)], WATCH_SECONDS)
                if self._wake in woken:
                    with contextlib.suppress(BlockingIOError):
                        os.read(self._wake, 512)
                with self._changed:
                    if not self._closed.is_set():
                        self._advance()
        except BaseException as exc:  # the callers waiting must hear it, not hang
            with self._changed:
                self._broken = exc
                self._changed.notify_all()

    def _nudge(self) -> None:
        """Wake the pump (it waits for the jobs it saw last): the jobs changed (under the lock)."""
        self._changed.notify_all()
        with contextlib.suppress(OSError):
            os.write(self._waking, b"!")

    def _advance(self) -> None:
        """Move every job that ended to the done list and fill the freed places (under the
        lock; replies already waiting are read)."""
        changed = False
        for job in self._running:
            while job.result is None and job.conn.poll():  # its page count, then its outcome
                self._receive(job)
            if job.result is not None:
                self._release(job)
                self._done.append((job.path, outcome(job.result)))
                changed = True
        if changed:
            self._running = [job for job in self._running if job.result is None]
            self._fill()
            self._changed.notify_all()

    def _too_large(self) -> ParseFailure:
        message = f"parsing needs more than its {self.budget.memory_mb} MB memory budget"
        return ParseFailure(TooLargeError, message, MEMORY_HINT)

    def _receive(self, job: Job) -> None:
        try:
            what, value = job.conn.recv()
        except (EOFError, OSError):  # the worker is gone without (a whole) reply
            job.exitcode = self._end(job.worker, dead=True)
            # dying while it grew towards its budget: the allocation that failed was memory
            ballooned = job.grown_kb > self.budget.memory_mb * 512 and job.exitcode != 0
            job.result = job.stopped or (self._too_large() if ballooned else None)
            job.result = job.result or death(job.exitcode)
            return
        if what == "pages":
            job.deadline = job.started + self.budget.deadline(int(value))
        elif what == "analysing":  # the parse is done: what an ingest derives gets its own
            job.deadline = time.monotonic() + self.budget.seconds
        else:
            job.result = value

    def _release(self, job: Job) -> None:
        """A job over: its worker takes the next file, unless it was stopped, died or grew
        by more than its share of the budget (then it is ended)."""
        worker = job.worker
        with self._reaping:  # from now on the watch leaves this worker to its next job
            job.released = True
            clean = job.stopped is None and not worker.reaped and not self._closed.is_set()
        limit = self.budget.memory_mb * 1024 // RETIRE_SHARE
        kept = clean and resident_kb(worker.pid) - worker.base_kb <= limit
        if kept and self._queue:
            self._idle.append(worker)
        elif kept:  # nothing left to give it: it ends now, while the batch goes on, and
            with self._reaping:  # is reaped at close (no wait for its exit then)
                kill(worker.pid)
            self._ending.append(worker)
        else:
            self._end(worker)

    def _end(self, worker: Worker, dead: bool = False) -> int | None:
        """Stop (unless `dead`: its pipe closed, it is exiting) and reap a worker; its exit
        code."""
        if not worker.reaped:
            with self._reaping:
                if not dead:
                    kill(worker.pid)  # done or stopped: it has nothing more to say
                worker.process.join(timeout=5)
                if worker.process.is_alive():  # closed its pipe yet lives on
                    kill(worker.pid)
                    worker.process.join()
                worker.reaped = True
            worker.exitcode = worker.process.exitcode
            worker.process.close()  # its descriptor, not left to the garbage collector
            worker.conn.close()
        return worker.exitcode

    def parse(self, path: Path) -> Document:
        """`path`'s Document (parsed now, under the same budget, if it was not submitted);
        raises its error. Other files finishing meanwhile wait for `results()`."""
        with self._changed:
            if path in self._queue:
                self._queue.remove(path)
                self._running.append(self._start(path))
            elif all(job.path != path for job in self._running) and all(
                done != path for done, _ in self._done
            ):
                self._running.append(self._start(path))
            self._nudge()
            while True:
                self._check_pump()
                for i, (done, outcome) in enumerate(self._done):
                    if done == path:
                        del self._done[i]
                        if isinstance(outcome, Exception):
                            raise outcome
                        return outcome
                self._changed.wait()

    def close(self) -> None:
        with self._changed:
            self._closed.set()
            self._nudge()
        self._pump.join()
        os.close(self._wake)
        os.close(self._waking)
        self._watch.join()
        self._queue.clear()
        self._done.clear()
        with self._reaping:  # every worker told to end at once: their exits overlap
            for worker in [job.worker for job in self._running] + self._idle:
                if not worker.reaped:
                    kill(worker.pid)
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


Parse = Callable[[Path], Document]
