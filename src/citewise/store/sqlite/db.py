"""Opening a library's SQLite file: WAL, foreign keys, migrations, explicit transactions.

A library this process may not write (a read-only folder or file, a read-only mount) is
opened read-only: it can be listed, searched and asked; a write fails with
LIBRARY_READ_ONLY. A full disk fails with DISK_FULL, never with SQLite's follow-up error.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citewise.errors import CitewiseError, LibraryError
from citewise.store.sqlite.migrations import MIGRATIONS, migrate
from citewise.store.tables import check_not_newer

# OS errors that mean "this process may not write here" and "no space left".
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def storage_error(exc: BaseException, where: Path | str = "") -> CitewiseError | None:
    """The user-facing error for a full disk or a read-only library; None for others.
    `where` (else the file the OS error names) says which path was being written."""
    where = where or getattr(exc, "filename", None) or ""
    place = f" ({where})" if where else ""
    full = read_only = False
    if isinstance(exc, sqlite3.Error):
        code = (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
        full, read_only = code == sqlite3.SQLITE_FULL, code == sqlite3.SQLITE_READONLY
        # creating the -wal or -shm file on a full disk is an I/O error, not SQLITE_FULL
        full = full or (code == sqlite3.SQLITE_IOERR and bool(where) and no_room(Path(where)))
    elif isinstance(exc, OSError):
        full, read_only = exc.errno in DISK_FULL, exc.errno == errno.EROFS
    if full:
        return LibraryError(
            f"the disk is full{place}",
            hint="free some space, then run the command again (what was stored before is kept)",
            code="DISK_FULL",
        )
    return read_only_error(place) if read_only else None


NO_ROOM_BYTES = 64 * 1024  # less free space than this: SQLite cannot add a -wal or -shm file


def no_room(where: Path) -> bool:
    """Whether the file system holding `where` (or its nearest existing parent) is full."""
    for folder in (where, *where.parents):
        if folder.exists():
            stats = os.statvfs(folder)
            return stats.f_bavail * stats.f_frsize < NO_ROOM_BYTES
    return False


def read_only_error(place: str = "") -> LibraryError:
    return LibraryError(
        f"the library is read-only{place}",
        hint="listing, searching and asking work; to add or change anything, make the "
        "library folder writable or copy it somewhere writable",
        code="LIBRARY_READ_ONLY",
    )


def writable(path: Path) -> bool:
    """Whether this process may write the database at `path` (SQLite also writes its -wal
    and -shm files beside it, so the folder must be writable too)."""
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return os.access(path.parent, os.W_OK)


def _open(target: str, uri: bool = False) -> sqlite3.Connection:
    # isolation_level=None: we open transactions ourselves, so nothing commits behind our back.
    db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, uri=uri)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA busy_timeout = 5000")  # first: every later statement may wait on a lock
    return db


def _use_wal(db: sqlite3.Connection, wait: float = 10.0) -> None:
    """Switch to WAL. Switching needs an exclusive lock, and SQLite reports a busy one at
    once (no busy handler), so a second process opening a new library retries."""
    deadline = time.monotonic() + wait
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF == sqlite3.SQLITE_BUSY
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def connect(path: Path, read_only: bool | None = None) -> sqlite3.Connection:
    """Open (creating if needed) the database at `path`, migrated to the latest schema;
    read-only when this process may not write it (or `read_only` says so)."""
    if read_only is None:
        read_only = path.parent.is_dir() and not writable(path)
    if read_only:
        return connect_read_only(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = _open(str(path))
        _use_wal(db)
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")
        try:
            migrate(db, str(path.parent))
        except LibraryError:
            db.close()  # made by a newer citewise: leave it untouched
            raise
    except (sqlite3.Error, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno in READ_ONLY:
            raise read_only_error(f" ({path.parent})") from exc
        raise storage_error(exc, path.parent) or exc from exc
    return db


def connect_read_only(path: Path) -> sqlite3.Connection:
    """The database at `path` opened read-only; it must exist and be fully migrated."""
    if not path.is_file():
        raise LibraryError(
            f"no library at {path.parent}, and it cannot be created there (read-only)",
            hint="choose a writable folder with --library",
            code="LIBRARY_READ_ONLY",
        )
    uri = path.resolve().as_uri()
    db = _open(f"{uri}?mode=ro", uri=True)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        # A WAL database whose -shm file cannot be created here: nothing can write it
        # while this folder is read-only, so it may be read as immutable.
        db.close()
        db = _open(f"{uri}?immutable=1", uri=True)
    db.execute("PRAGMA foreign_keys = ON")
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > len(MIGRATIONS):
        db.close()
        check_not_newer(version, len(MIGRATIONS), str(path.parent))
    if version < len(MIGRATIONS):
        db.close()
        raise LibraryError(
            f"the library at {path.parent} needs a schema upgrade, and it is read-only",
            hint="open it once with write access (any citewise command upgrades it)",
            code="LIBRARY_READ_ONLY",
        )
    return db


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """All statements inside commit together, or none do. A full disk or a read-only
    library raises DISK_FULL / LIBRARY_READ_ONLY (SQLite has then rolled back already)."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise storage_error(exc) or exc from exc
    try:
        yield db
        db.execute("COMMIT")
    except BaseException as exc:
        if db.in_transaction:  # SQLite rolls back by itself after SQLITE_FULL
            db.execute("ROLLBACK")
        error = storage_error(exc) if isinstance(exc, sqlite3.Error) else None
        if error is not None:
            raise error from exc
        raise
