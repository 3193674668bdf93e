"""Read requests on connections of their own: SQLite in WAL mode lets any number of readers
run beside the one writer, so a question never waits for another question's read.

Each reader is a Library on the same directory with its own connection and its own warm
answerer (retriever, mapped indexes), sharing the writer's embedder. A request checks one
out for its whole duration; at most `size` exist, made on first need and then reused.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from citewise.api import Library


class ReaderPool:
    def __init__(self, writer: Library, writer_lock: threading.RLock, size: int) -> None:
        self.writer = writer
        self.writer_lock = writer_lock
        self.size = max(1, size)
        self._idle: list[Library] = []
        self._all: list[Library] = []
        self._lock = threading.Lock()
        # Waiters are woken in arrival order (Condition's FIFO), so a busy pool is fair.
        self._slots = threading.Semaphore(self.size)

    def _checkout(self) -> Library:
        """An idle reader, else a new one (a free slot means fewer than `size` exist)."""
        with self._lock:
            if self._idle:
                return self._idle.pop()
        # The writer prepares first (embeds blocks lacking vectors, refreshes the indexes),
        # so readers only read.
        with self.writer_lock:
            self.writer.prepare()
            reader = self.writer.reader()
        with self._lock:
            self._all.append(reader)
        return reader

    @contextmanager
    def reader(self) -> Iterator[Library]:
        """A Library no other request is using until this one ends."""
        self._slots.acquire()
        try:
            lib = self._checkout()
            try:
                yield lib
            finally:
                with self._lock:
                    self._idle.append(lib)
        finally:
            self._slots.release()

    def close(self) -> None:
        with self._lock:
            for reader in self._all:
                reader.close()
            self._all.clear()
