"""Durable writes of the index files beside library.db, so a cut never publishes bad rows.

The order that makes an append safe against kill -9 and a full disk: cut the file back to
the rows the manifest counts, write the new rows, fsync; only then publish the manifest
(written to a temporary file, fsynced, renamed over the old one, the folder fsynced). A cut
anywhere leaves the old manifest, which counts only rows that were whole on disk.
"""

from __future__ import annotations

import mmap
import os
from pathlib import Path

import numpy as np


def write_rows(path: Path, start: int, data: bytes) -> None:
    """Write `data` at byte `start` of `path` (created if missing), dropping whatever lay
    past `start` (an interrupted append), and flush it to disk."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    with open(fd, "r+b") as handle:
        handle.truncate(start)
        handle.seek(start)
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def publish(path: Path, text: str) -> None:
    """Replace `path` by `text` atomically and durably (readers see the old or the new)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """fsync a directory, so a rename in it survives a power cut (where the OS allows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def file_sizes(paths: dict[str, Path]) -> dict[str, int] | None:
    """The size of each file; None when one is missing."""
    try:
        return {key: path.stat().st_size for key, path in paths.items()}
    except OSError:
        return None


def mapped_values(path: Path, count: int, dtype: np.dtype) -> np.ndarray:
    """The first `count` values of `dtype` in a file, memory-mapped read-only (a plain
    ndarray: np.memmap's indexing overhead costs more than the read at query time)."""
    with open(path, "rb") as handle:
        mapping = mmap.mmap(handle.fileno(), count * dtype.itemsize, access=mmap.ACCESS_READ)
    return np.frombuffer(mapping, dtype=dtype, count=count)
