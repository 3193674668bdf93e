"""The life of one parse worker: a process of its own, limits set inside it, files parsed
one at a time as the pool (documents/pool/parallel.py) sends them, each outcome sent back as data.

Errors travel as ParseFailure (an exception's extra fields would be lost by pickling) and
are raised again, unchanged, where they are used.
"""

from __future__ import annotations

import gc
import os
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from citewise.documents import read_document
from citewise.documents.model import Document
from citewise.documents.options import MEMORY_VARIABLE, SECONDS_VARIABLE, ParseOptions
from citewise.errors import CitewiseError, TooLargeError

MUPDF_NO_MEMORY = re.compile(r"\b(?:m|c|re)alloc\b.*\bfailed\b")
MEMORY_HINT = f"split or re-export the file; set {MEMORY_VARIABLE} higher to try anyway"
TIME_HINT = f"split or re-export the file; set {SECONDS_VARIABLE} higher to try anyway"
# the worker's own data limit lies this far past its budget (at least): the pool's watch
# stops it first, the limit only meets one huge allocation between two looks
BACKSTOP_MB = 512
YOUNG_COLLECTION = 50_000  # allocations between two young garbage collections in a worker


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


def parse_in_worker(
    path: Path,
    options: ParseOptions,
    on_pages: Callable[[int], None] | None = None,
    sha256: str | None = None,
    on_analysing: Callable[[], None] | None = None,
) -> Document | ParseFailure:
    """Parse `path`, every error returned as data; a memory failure is TOO_LARGE.
    `on_pages` hears a PDF's page count as soon as it is open; `sha256` is the file's
    digest when the pool's caller has it (the file is not hashed again); `on_analysing`
    hears that the parse is done and `options.analyse` starts (the pool gives it a time
    budget of its own, so a parse is held to the same deadline with or without it)."""
    budget = options.budget
    try:
        doc = read_document(path, options, on_pages, sha256)
        if options.analyse is not None:
            if on_analysing is not None:
                on_analysing()
            doc.analysed = options.analyse(doc)
        return doc
    except Exception as exc:
        if _out_of_memory(exc):
            message = f"parsing needs more than its {budget.memory_mb} MB memory budget"
            return ParseFailure(TooLargeError, message, MEMORY_HINT)
        if isinstance(exc, CitewiseError):
            return ParseFailure(type(exc), exc.message, exc.hint, exc.code)
        return ParseFailure(RuntimeError, repr(exc))  # a parser bug: this file only


def warm_up() -> None:
    """Done once in the pool's process before it forks workers, so each inherits it instead
    of paying it on its first file: the PDF reader and PyMuPDF imported. (No colour transform
    to build: workers read text without colour management, `run_worker`.)"""
    import citewise.documents.pdf.reader  # noqa: F401  (PyMuPDF with it)


def _die_with_parent() -> None:
    """Workers end when the ingest process is killed (Linux), so none lingers after kill -9."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _limit_memory(megabytes: int) -> None:
    """Cap the data this process may add (heap and private mappings, where MuPDF and Python
    allocate) well past its `megabytes` budget, Linux only: the pool stops a worker growing
    past its budget; this catches one huge allocation between two looks. (Allocation
    failures are not always clean: glibc aborts when thread-local data cannot be had.)"""
    try:
        import resource

        with open("/proc/self/status") as status:
            held = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
        limit = held * 1024 + (megabytes + max(megabytes, BACKSTOP_MB)) * 2**20
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, OSError, StopIteration, ValueError, AttributeError):
        pass  # no /proc or no RLIMIT_DATA: the pool's watch still holds


def run_worker(options: ParseOptions, conn: Connection) -> None:
    """A worker's whole life: limits, then file after file as the pool sends their paths
    with their SHA-256 when known (until None or the pool's end of the pipe closes), each
    parsed (its page count sent as soon as the PDF is open: the pool sets the deadline by
    it) and its outcome sent back."""
    budget = options.budget
    # the objects inherited from the parent are never garbage here: the collector leaves
    # them alone (scanning them would also copy every page of the parent's heap it touches)
    gc.freeze()
    # parsing allocates millions of short-lived objects (PyMuPDF's dicts, segments): young
    # collections every 50,000 allocations instead of 700 cut ~8% of a parse's CPU
    gc.set_threshold(YOUNG_COLLECTION, 10, 10)
    _die_with_parent()
    from citewise.documents.pdf.ocr import without_colour_management  # PyMuPDF: in workers only

    without_colour_management()  # no CMYK transform to set up: a parse reads no colour
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)  # a group of its own: stopping it stops its tesseract too
    _limit_memory(budget.memory_mb)
    while True:
        try:
            job = conn.recv()  # (path, its SHA-256 or None), or None at the end
        except (EOFError, OSError):
            break
        if job is None:
            break
        path, sha256 = job
        result = parse_in_worker(
            path,
            options,
            lambda n: conn.send(("pages", n)),
            sha256,
            lambda: conn.send(("analysing", 0)),
        )
        try:
            conn.send(("done", result))
        except MemoryError:
            message = f"the parsed document exceeds the {budget.memory_mb} MB memory budget"
            conn.send(("done", ParseFailure(TooLargeError, message, MEMORY_HINT)))
        del result
        gc.collect()  # the file's garbage gone before the pool looks at this worker's size
    conn.close()
