"""Parsing several files at once: one worker process per core, results in input order.

Parsing is CPU-bound Python (PyMuPDF layout, tables, references) plus tesseract for pages
without a usable text layer, so a batch spreads over processes; the caller stores each
Document in the main process, in order, so the library sees the same writes as a
sequential ingest. Errors travel back as data (an exception's extra fields would be lost
by pickling) and are raised again, unchanged, where the Document is asked for.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from citewise.documents import read_document
from citewise.documents.model import Document
from citewise.errors import CitewiseError

WORKERS_VARIABLE = "CITEWISE_PARSE_WORKERS"


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


def parse_in_worker(path: Path) -> Document | ParseFailure:
    try:
        return read_document(path)
    except CitewiseError as exc:
        return ParseFailure(type(exc), exc.message, exc.hint, exc.code)
    except Exception as exc:  # a parser bug: reported for this file, the batch goes on
        return ParseFailure(RuntimeError, repr(exc))


def worker_count(files: int) -> int:
    """Processes to use: one per available core ($CITEWISE_PARSE_WORKERS overrides), at
    most one per file; 1 means parse in this process."""
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


class ParsePool:
    """Parses `paths` ahead in worker processes; `parse(path)` returns that path's Document
    (waiting for it) or raises its error; paths not submitted are parsed in this process."""

    def __init__(self, paths: list[Path]) -> None:
        self._futures: dict[Path, Future[Document | ParseFailure]] = {}
        self._executor: ProcessPoolExecutor | None = None
        workers = worker_count(len(paths))
        if workers < 2:
            return
        methods = multiprocessing.get_all_start_methods()
        # fork starts a worker in milliseconds; workers only parse, never touch the store
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._executor = ProcessPoolExecutor(workers, context, initializer=_die_with_parent)
        for path in paths:
            self._futures[path] = self._executor.submit(parse_in_worker, path)

    def parse(self, path: Path) -> Document:
        future = self._futures.pop(path, None)
        if future is None:
            return read_document(path)
        result = future.result()
        if isinstance(result, ParseFailure):
            raise result.exception()
        return result

    def close(self) -> None:
        for future in self._futures.values():
            future.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def __enter__(self) -> ParsePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


Parse = Callable[[Path], Document]
