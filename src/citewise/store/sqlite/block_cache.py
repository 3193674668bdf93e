"""The blocks of recently read documents, kept in memory between questions.

Answering reads whole documents: every table of the passages' documents (to find the one a
question is about), a CSV's schema, a filing's statement pages. A document's blocks do not
change until it is ingested again, so they are read and decoded once and kept, least
recently used first out, up to `max_chars` characters of text and stored data in all
(decoded, the data takes a few times its stored size: a 300-page annual report, ~3,500
blocks and ~1.2 M characters, holds ~6 MB).

An entry is valid while the library's block change counters (store/sqlite/index_source.py: one
row kept by triggers) are unchanged; when they moved (something was ingested, replaced or
deleted, in this process or another), the document's own mark is compared instead: the
first rowid and count of its blocks (rowids are never reused, so a re-ingested document
has new ones) and the library's count of in-place block updates.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from citewise.store.rows import BLOCK_COLUMNS, StoredBlock, stored_block

if TYPE_CHECKING:
    import numpy as np

# Characters of text and stored data kept in all: some 25 annual reports, hundreds of papers.
MAX_CHARS = 32_000_000

Changes = tuple[int, int, int]  # block_changes: inserted, deleted, updated
Mark = tuple[int, int, int]  # the document's first rowid, its block count, updates


@dataclass
class _Entry:
    mark: Mark
    changes: Changes
    blocks: list[StoredBlock]
    raw: list[str | None]  # each block's stored data, decoded on first use
    chars: int  # characters of text and stored data held
    by_kinds: dict[tuple[str, ...], list[tuple[StoredBlock, dict[str, Any] | None]]] = field(
        default_factory=dict
    )
    decoded: dict[int, dict[str, Any]] = field(default_factory=dict)  # by position
    trusted: np.ndarray | None = None  # rowids of the trusted blocks, ascending, read-only

    def with_data(self, kinds: tuple[str, ...]) -> list[tuple[StoredBlock, dict[str, Any] | None]]:
        found = self.by_kinds.get(kinds)
        if found is None:
            found = [(b, self._data(n)) for n, b in enumerate(self.blocks) if b.kind in kinds]
            self.by_kinds[kinds] = found
        return found

    def _data(self, n: int) -> dict[str, Any] | None:
        raw = self.raw[n]
        if not raw:
            return None
        if n not in self.decoded:
            self.decoded[n] = json.loads(raw)
        return self.decoded[n]


class DocumentBlocks:
    """Per-document block lists read through one SQLite connection, cached (bounded LRU)."""

    def __init__(self, db: sqlite3.Connection, max_chars: int = MAX_CHARS) -> None:
        self.db = db
        self.max_chars = max_chars
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def blocks(self, doc_id: str) -> list[StoredBlock]:
        """The document's blocks in reading order (a new list each call)."""
        return list(self._entry(doc_id).blocks)

    def with_data(
        self, doc_id: str, kinds: tuple[str, ...]
    ) -> list[tuple[StoredBlock, dict[str, Any] | None]]:
        """The document's blocks of `kinds` with their decoded data, in reading order. The
        data objects are shared between callers: read them, never change them."""
        return list(self._entry(doc_id).with_data(kinds))

    def trusted_rowids(self, doc_id: str) -> np.ndarray:
        """Rowids of the document's trusted blocks, ascending (a read-only array)."""
        import numpy as np

        entry = self._entry(doc_id)
        if entry.trusted is None:
            rowids = np.array(sorted(b.rowid for b in entry.blocks if b.trusted), dtype=np.int64)
            rowids.flags.writeable = False
            entry.trusted = rowids
        return entry.trusted

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._held = 0

    def _changes(self) -> Changes:
        row = self.db.execute(
            "SELECT inserted, deleted, updated FROM block_changes WHERE id = 1"
        ).fetchone()
        return (int(row[0]), int(row[1]), int(row[2])) if row else (0, 0, 0)

    def _mark(self, doc_id: str, changes: Changes) -> Mark:
        first, count = self.db.execute(
            "SELECT coalesce(min(rowid), 0), count(*) FROM blocks WHERE document_id = ?",
            (doc_id,),
        ).fetchone()
        return int(first), int(count), changes[2]

    def _entry(self, doc_id: str) -> _Entry:
        changes = self._changes()
        with self._lock:
            entry = self._entries.get(doc_id)
        if entry is not None and entry.changes != changes:
            if entry.mark == self._mark(doc_id, changes):
                entry.changes = changes  # the library changed elsewhere, not this document
            else:
                entry = None
        if entry is None:
            entry = self._read(doc_id, changes)
        with self._lock:
            self._put(doc_id, entry)
        return entry

    def _read(self, doc_id: str, changes: Changes) -> _Entry:
        rows = self.db.execute(
            f"SELECT {BLOCK_COLUMNS}, b.data FROM blocks b WHERE b.document_id = ? "
            "ORDER BY b.ordinal",
            (doc_id,),
        ).fetchall()
        blocks = [stored_block(r) for r in rows]
        first = min((b.rowid for b in blocks), default=0)
        mark = (first, len(blocks), changes[2])
        raw = [r["data"] for r in rows]
        chars = sum(len(b.text) for b in blocks) + sum(len(d) for d in raw if d)
        return _Entry(mark, changes, blocks, raw, chars)

    def _put(self, doc_id: str, entry: _Entry) -> None:
        old = self._entries.pop(doc_id, None)
        if old is not None:
            self._held -= old.chars
        self._entries[doc_id] = entry
        self._held += entry.chars
        while self._held > self.max_chars and len(self._entries) > 1:
            _, dropped = self._entries.popitem(last=False)
            self._held -= dropped.chars
