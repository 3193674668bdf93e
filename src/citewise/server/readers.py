"""Read requests on connections of their own: SQLite in WAL mode lets any number of readers
run beside the one writer, so a question never waits for another question's read.

Each reader is a Library on the same directory with its own connection and its own warm
answerer (retriever, mapped indexes), sharing the writer's embedder. A request checks one
out for its whole duration; at most `size` exist, made on first need and then reused.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from citewise.api import Library


class ReaderPool:
    def __init__(self, writer: Library, writer_lock: threading.RLock, size: int) -> None:
        self.writer = writer
        self.writer_lock = writer_lock
        self.size = max(1, size)
        self._idle: queue.SimpleQueue[Library] = queue.SimpleQueue()
        self._all: list[Library] = []
        self._lock = threading.Lock()

    def _new(self) -> Library | None:
        with self._lock:
            if len(self._all) >= self.size:
                return None
            # The writer prepares first (embeds blocks lacking vectors, refreshes the
            # indexes), so readers only read.
            with self.writer_lock:
                self.writer.prepare()
                reader = self.writer.reader()
            self._all.append(reader)
            return reader

    @contextmanager
    def reader(self) -> Iterator[Library]:
        """A Library no other request is using until this one ends."""
        try:
            lib = self._idle.get_nowait()
        except queue.Empty:
            lib = self._new() or self._idle.get()
        try:
            yield lib
        finally:
            self._idle.put(lib)

    def close(self) -> None:
        with self._lock:
            for reader in self._all:
                reader.close()
            self._all.clear()
