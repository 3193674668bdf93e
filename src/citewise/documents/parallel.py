"""Parsing files under a budget: one worker process per file, results as they finish.

Parsing is CPU-bound Python (PyMuPDF layout, tables, references) plus tesseract for pages
without a usable text layer, and a hostile file can make it hang or eat gigabytes. So each
file is parsed in a process of its own, with a memory limit set inside it and a wall-clock
deadline kept by the parent: a file past its budget is stopped and named (TOO_COMPLEX,
TOO_LARGE), a worker that dies fails only its own file, and every other file of the batch
comes back whatever order they finish in. Errors travel back as data (an exception's extra
fields would be lost by pickling) and are raised again, unchanged, where they are used.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

from citewise.documents import read_document
from citewise.documents.bounds import TEXT_OPS_PER_PAGE, TEXT_OPS_VARIABLE
from citewise.documents.model import Document
from citewise.errors import BadDocumentError, CitewiseError, TooComplexError, TooLargeError

WORKERS_VARIABLE = "CITEWISE_PARSE_WORKERS"
SECONDS_VARIABLE = "CITEWISE_PARSE_SECONDS"
MEMORY_VARIABLE = "CITEWISE_PARSE_MEMORY_MB"
MUPDF_NO_MEMORY = re.compile(r"\b(?:m|c|re)alloc\b.*\bfailed\b")
MEMORY_HINT = f"split or re-export the file; set {MEMORY_VARIABLE} higher to try anyway"
TIME_HINT = f"split or re-export the file; set {SECONDS_VARIABLE} higher to try anyway"


@dataclass(frozen=True)
class ParseBudget:
    """What one file may cost: wall-clock seconds (`seconds`, or `seconds_per_page` times
    its pages when that is more: OCR is slow but honest), memory the parse may add to the
    worker's starting size, and text operators on one PDF page."""

    seconds: float = 30.0
    seconds_per_page: float = 2.0
    memory_mb: int = 1024
    text_ops_per_page: int = TEXT_OPS_PER_PAGE

    @classmethod
    def from_env(cls) -> ParseBudget:
        """Defaults, overridden by $CITEWISE_PARSE_SECONDS, _MEMORY_MB and _TEXT_OPS."""

        def number(name: str, default: float) -> float:
            try:
                value = float(os.environ.get(name, ""))
            except ValueError:
                return default
            return value if value > 0 else default

        base = cls()
        return cls(
            seconds=number(SECONDS_VARIABLE, base.seconds),
            memory_mb=int(number(MEMORY_VARIABLE, base.memory_mb)),
            text_ops_per_page=int(number(TEXT_OPS_VARIABLE, base.text_ops_per_page)),
        )

    def deadline(self, pages: int) -> float:
        return max(self.seconds, self.seconds_per_page * pages)


@dataclass(frozen=True)
class ParseFailure:
    """An exception raised in a worker, in a form that survives pickling."""

    kind: type[Exception]
    message: str
    hint: str = ""
    code: str | None = None

    def exception(self) -> Exception:
        if issubclass(self.kind, CitewiseError):
            return self.kind(self.message, self.hint, self.code)
        return self.kind(self.message)


def _out_of_memory(exc: BaseException | None) -> bool:
    """MemoryError, or MuPDF's failed allocation ("code=2: malloc (771617284 bytes) failed",
    raised as RuntimeError or FzErrorSystem), anywhere in the exception's chain."""
    while exc is not None:
        if isinstance(exc, MemoryError) or MUPDF_NO_MEMORY.search(str(exc)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def parse_in_worker(path: Path, budget: ParseBudget) -> Document | ParseFailure:
    """Parse `path`, every error returned as data; a memory failure is TOO_LARGE."""
    try:
        return read_document(path)
    except Exception as exc:
        if _out_of_memory(exc):
            message = f"parsing needs more than its {budget.memory_mb} MB memory budget"
            return ParseFailure(TooLargeError, message, MEMORY_HINT)
        if isinstance(exc, CitewiseError):
            return ParseFailure(type(exc), exc.message, exc.hint, exc.code)
        return ParseFailure(RuntimeError, repr(exc))  # a parser bug: this file only


def worker_count(files: int) -> int:
    """Processes to use: one per available core ($CITEWISE_PARSE_WORKERS overrides), at
    most one per file, at least one."""
    wanted = os.environ.get(WORKERS_VARIABLE, "")
    if wanted.isdigit() and int(wanted) > 0:
        cores = int(wanted)
    else:
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # not Linux
            cores = os.cpu_count() or 1
    return max(1, min(cores, files))


def _die_with_parent() -> None:
    """Workers end when the ingest process is killed (Linux), so none lingers after kill -9."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _limit_memory(megabytes: int) -> None:
    """Cap the data this process may add (heap and private mappings, which is where MuPDF
    and Python allocate) to `megabytes` beyond what it holds now; Linux only."""
    try:
        import resource

        with open("/proc/self/status") as status:
            held = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
        limit = held * 1024 + megabytes * 2**20
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, OSError, StopIteration, ValueError, AttributeError):
        pass  # no /proc or no RLIMIT_DATA: the wall-clock deadline still holds


def _page_count(path: Path) -> int:
    if path.suffix.lower() != ".pdf":
        return 1
    try:
        import pymupdf

        with pymupdf.open(path) as doc:
            return int(doc.page_count)
    except Exception:  # the real parse reports what is wrong with the file
        return 1


def _work(path: Path, budget: ParseBudget, conn: Connection) -> None:
    """A worker's whole life: limits, page count (sets the deadline), parse, reply."""
    _die_with_parent()
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)  # a group of its own: stopping it stops its tesseract too
    _limit_memory(budget.memory_mb)
    os.environ[TEXT_OPS_VARIABLE] = str(budget.text_ops_per_page)  # read by the PDF reader
    conn.send(("pages", _page_count(path)))
    result = parse_in_worker(path, budget)
    try:
        conn.send(("done", result))
    except MemoryError:
        message = f"the parsed document exceeds the {budget.memory_mb} MB memory budget"
        conn.send(("done", ParseFailure(TooLargeError, message, MEMORY_HINT)))
    conn.close()


@dataclass
class _Job:
    path: Path
    process: BaseProcess
    conn: Connection
    started: float
    deadline: float
    result: Document | ParseFailure | None = None


class ParsePool:
    """Parses `paths` in worker processes, `workers` at a time, each under `budget`.

    `results()` yields (path, Document or CitewiseError) as files finish; `parse(path)`
    parses one more file the same way and returns its Document or raises its error.
    """

    def __init__(self, paths: list[Path], budget: ParseBudget | None = None) -> None:
        self.budget = budget or ParseBudget.from_env()
        self._queue = deque(dict.fromkeys(paths))
        self._workers = worker_count(len(self._queue))
        self._running: list[_Job] = []
        self._done: deque[tuple[Path, Document | Exception]] = deque()
        methods = multiprocessing.get_all_start_methods()
        # fork starts a worker in milliseconds; workers only parse, never touch the store
        self._context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._fill()

    def _start(self, path: Path) -> _Job:
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_work, args=(path, self.budget, send))  # type: ignore[attr-defined]
        process.start()
        send.close()  # the parent keeps only its end: EOF tells it the worker is gone
        now = time.monotonic()
        return _Job(path, process, receive, now, now + self.budget.deadline(1))

    def _fill(self) -> None:
        while self._queue and len(self._running) < self._workers:
            self._running.append(self._start(self._queue.popleft()))

    def results(self) -> Iterator[tuple[Path, Document | Exception]]:
        """Every submitted file's outcome (a Document or the error to raise), as they finish."""
        while self._done or self._running:
            if not self._done:
                self._advance()
            while self._done:
                yield self._done.popleft()

    def _advance(self) -> None:
        for job in self._step():
            self._done.append((job.path, _outcome(job.result)))
        self._fill()

    def _step(self) -> list[_Job]:
        """Wait for replies, deaths or the nearest deadline; return the jobs that ended."""
        nearest = min(job.deadline for job in self._running)
        wait([job.conn for job in self._running], timeout=max(0.0, nearest - time.monotonic()))
        ended: list[_Job] = []
        for job in self._running:
            if job.conn.poll():
                self._receive(job)
            elif time.monotonic() >= job.deadline:
                job.result = ParseFailure(
                    TooComplexError,
                    f"parsing took longer than its {job.deadline - job.started:g} s budget",
                    TIME_HINT,
                )
            if job.result is not None:
                self._end(job)
                ended.append(job)
        self._running = [job for job in self._running if job.result is None]
        return ended

    def _receive(self, job: _Job) -> None:
        try:
            what, value = job.conn.recv()
        except (EOFError, OSError):  # the worker died without replying
            job.process.join(timeout=5)
            job.result = _death(job.process.exitcode)
            return
        if what == "pages":
            job.deadline = job.started + self.budget.deadline(int(value))
        else:
            job.result = value

    def _end(self, job: _Job) -> None:
        if job.process.is_alive():
            try:
                os.killpg(job.process.pid, signal.SIGKILL)  # type: ignore[arg-type]
            except (AttributeError, OSError):  # no group yet (or not Unix)
                job.process.kill()
        job.process.join()
        job.process.close()  # its sentinel descriptor, not left to the garbage collector
        job.conn.close()

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
        self._queue.clear()
        self._done.clear()
        for job in self._running:
            self._end(job)
        self._running = []

    def __enter__(self) -> ParsePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _outcome(result: Document | ParseFailure | None) -> Document | Exception:
    if isinstance(result, ParseFailure):
        return result.exception()
    if result is None:  # cannot happen: a job ends only with a result
        return BadDocumentError("the parser gave no result", code="PARSER_CRASHED")
    return result


def _death(exitcode: int | None) -> ParseFailure:
    """A worker gone without a reply: killed (the OOM killer sends SIGKILL) or crashed."""
    if exitcode == -signal.SIGKILL:
        return ParseFailure(TooLargeError, "the parser was killed (out of memory?)", MEMORY_HINT)
    how = f"signal {-exitcode}" if exitcode and exitcode < 0 else f"exit code {exitcode}"
    return ParseFailure(
        BadDocumentError, f"the parser crashed ({how})", "report the file", "PARSER_CRASHED"
    )


Parse = Callable[[Path], Document]
