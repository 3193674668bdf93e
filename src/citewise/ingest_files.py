"""The files of an ingest batch on their way to the store: size caps, one read and hash
per file, parsing ahead in worker processes, each file handed on as its parse finishes.

The process that stores allocates as the parsers do (unpickled Documents, the keyword
postings, the vocabulary) while holding few long-lived objects, so during a batch its
young garbage collections are spaced as the parse workers' are (`spaced_collections`).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from citewise.documents.model import Document
from citewise.documents.options import FILE_MB_VARIABLE
from citewise.documents.pool.parallel import Parse, ParseOptions, ParsePool
from citewise.documents.pool.pool_procs import file_size
from citewise.errors import TooLargeError
from citewise.inputs import SUFFIXES
from citewise.store.protocols import Store

# the largest file read, by type: scanned books run to hundreds of MB, text is not a paper
MAX_FILE_MB = {".pdf": 512.0}
MAX_TEXT_FILE_MB = 32.0
YOUNG_COLLECTION = 50_000  # allocations between two young collections while a batch runs

# (path, its parse, its SHA-256 when read here): what is done with each file of the batch
# (what it returns is not looked at)
Step = Callable[[Path, Parse, str | None], object]

_spacing = threading.Lock()
_spaced = 0  # batches running in this process with collections spaced
_threshold: tuple[int, int, int] = gc.get_threshold()


def check_file_size(path: Path, max_mb: float | None = None) -> None:
    """Refuse a file above its type's size cap (`max_mb`: $CITEWISE_MAX_FILE_MB overrides)
    before reading it: TOO_LARGE, with the size and the cap."""
    try:
        size = path.stat().st_size
    except OSError:
        return  # reading it reports the problem
    suffix = path.suffix.lower()
    cap = MAX_FILE_MB.get(suffix, MAX_TEXT_FILE_MB) if max_mb is None else max_mb
    if size > cap * 1_000_000:
        raise TooLargeError(
            f"file is {size / 1_000_000:.1f} MB; {suffix or 'such'} files above {cap:g} MB "
            "are not read",
            f"split the file, or set {FILE_MB_VARIABLE} higher",
        )


def digest(path: Path, max_file_mb: float | None) -> str | None:
    """The SHA-256 of a readable, supported file within its size cap, else None (then
    ingest_file names the problem)."""
    if path.suffix.lower() not in SUFFIXES:
        return None
    try:
        check_file_size(path, max_file_mb)
        return hashlib.sha256(path.expanduser().resolve().read_bytes()).hexdigest()
    except (OSError, TooLargeError):
        return None


def parse_and_store(store: Store, files: list[Path], step: Step, options: ParseOptions) -> None:
    """Parse the files that need it in worker processes and `step` each file as its parse
    finishes; the others (unchanged, duplicate, refused) while the workers run. Each file
    is read and hashed once, here, largest first, and one whose content is not in the
    library yet goes to the workers as soon as it is hashed: parsing starts after the
    first file's hash, not after every file's (seconds, for a batch of thousands)."""
    unique = list(dict.fromkeys(files))
    digests: dict[Path, str | None] = {}
    ahead: set[Path] = set()  # readable, supported files new to the library: parsed ahead
    with ParsePool([], options=options, expected=len(unique)) as pool:
        for path in sorted(unique, key=file_size, reverse=True):
            sha = digests[path] = digest(path, options.max_file_mb)
            if sha and store.document_by_sha(sha) is None:
                ahead.add(path)
                pool.submit(path, sha)
        for path in [p for p in files if p not in ahead]:  # no parse needed: while they run
            step(path, pool.parse, digests[path])
        for path, outcome in pool.results():
            step(path, _given(outcome), digests[path])
        for path in _repeats(files, ahead):  # named twice: unchanged the second time
            step(path, pool.parse, digests[path])


@contextlib.contextmanager
def spaced_collections() -> Iterator[None]:
    """Young garbage collections every YOUNG_COLLECTION allocations instead of 700 while
    a batch is stored and indexed (the collector still runs; reference counting frees
    the rest as ever); the previous setting is back when the last running batch ends."""
    global _spaced, _threshold
    with _spacing:
        if _spaced == 0:
            _threshold = gc.get_threshold()
            gc.set_threshold(max(YOUNG_COLLECTION, _threshold[0]), *_threshold[1:])
        _spaced += 1
    try:
        yield
    finally:
        with _spacing:
            _spaced -= 1
            if _spaced == 0:
                gc.set_threshold(*_threshold)


def _repeats(files: list[Path], ahead: set[Path]) -> list[Path]:
    """Second and later mentions of a file parsed ahead: handled after it (unchanged)."""
    seen: set[Path] = set()
    out = []
    for path in files:
        if path in seen:
            out.append(path)
        seen.add(path)
    return [p for p in out if p in ahead]


def _given(outcome: Document | Exception) -> Parse:
    """A parse function that hands over a worker's outcome."""

    def parse(path: Path) -> Document:
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return parse
