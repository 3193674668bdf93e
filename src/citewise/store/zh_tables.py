"""CC-CEDICT's glosses and jieba's word frequencies, built once into a SQLite file in the
user's cache and read a word at a time after that.

Building them means parsing the whole dictionary (120,000 entries) and teaching jieba each
headword (`add_word`, which segments the word to suggest its frequency): seconds of every
Chinese question's process, for the few dozen words one question looks up. The file is
built on the first Chinese question (or `build`), keyed by everything its content follows
(this format, jieba's version, the dictionary file, citewise's glossary and question
words), written to a temporary name and renamed, so readers never see half a file and two
processes building at once both end with a whole one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

FORMAT = 1


class TablesUnreadable(Exception):
    """The built file could not be written or read (the caller builds in memory instead)."""


def cache_key(dictionary_file: Path, jieba_version: str, extra: Iterable[object]) -> str:
    """What the built file depends on, hashed: a change to any part names another file."""
    stat = dictionary_file.stat()
    digest = hashlib.sha256(
        repr((FORMAT, jieba_version, dictionary_file.name, stat.st_size, *extra)).encode()
    )
    return digest.hexdigest()[:16]


def write(
    path: Path,
    glosses: Mapping[str, tuple[str, ...]],
    verbs: Iterable[str],
    frequencies: Mapping[str, int],
    total: int,
) -> None:
    """The built tables into `path`, atomically (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        _fill(temporary, glosses, verbs, frequencies, total)
        os.chmod(temporary, 0o644)  # a cache file like any other, not a secret
        os.replace(temporary, path)
    except sqlite3.Error as exc:
        raise TablesUnreadable(f"{path}: {exc}") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _fill(
    temporary: str,
    glosses: Mapping[str, tuple[str, ...]],
    verbs: Iterable[str],
    frequencies: Mapping[str, int],
    total: int,
) -> None:
    db = sqlite3.connect(temporary)
    with db:
        db.execute("CREATE TABLE gloss (word TEXT PRIMARY KEY, senses TEXT) WITHOUT ROWID")
        db.execute("CREATE TABLE verb (word TEXT PRIMARY KEY) WITHOUT ROWID")
        db.execute("CREATE TABLE freq (word TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.executemany(
            "INSERT INTO gloss VALUES (?, ?)",
            ((w, json.dumps(list(s), ensure_ascii=False)) for w, s in glosses.items()),
        )
        db.executemany("INSERT INTO verb VALUES (?)", ((w,) for w in set(verbs)))
        db.executemany("INSERT INTO freq VALUES (?, ?)", frequencies.items())
        db.execute("INSERT INTO meta VALUES ('total', ?)", (str(total),))
    db.close()


class ZhTables:
    """The built file, opened read-only; each lookup remembered for the process."""

    def __init__(self, path: Path) -> None:
        try:
            self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'total'").fetchone()
        except sqlite3.Error as exc:
            raise TablesUnreadable(f"{path}: {exc}") from exc
        self.total = int(row[0])
        self.glosses = Glosses(self.db)
        self.frequencies = Frequencies(self.db)
        self._verbs: dict[str, bool] = {}

    def is_verb(self, word: str) -> bool:
        if word not in self._verbs:
            found = self.db.execute("SELECT 1 FROM verb WHERE word = ?", (word,)).fetchone()
            self._verbs[word] = found is not None
        return self._verbs[word]


class Glosses(Mapping[str, tuple[str, ...]]):
    """Headword -> English glosses, read from the file as asked."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self._seen: dict[str, tuple[str, ...] | None] = {}

    def _look(self, word: object) -> tuple[str, ...] | None:
        if not isinstance(word, str):
            return None
        if word not in self._seen:
            row = self.db.execute("SELECT senses FROM gloss WHERE word = ?", (word,)).fetchone()
            self._seen[word] = tuple(json.loads(row[0])) if row else None
        return self._seen[word]

    def __getitem__(self, word: str) -> tuple[str, ...]:
        found = self._look(word)
        if found is None:
            raise KeyError(word)
        return found

    def __contains__(self, word: object) -> bool:
        return self._look(word) is not None

    def __iter__(self) -> Iterator[str]:
        return (row[0] for row in self.db.execute("SELECT word FROM gloss ORDER BY word"))

    def __len__(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM gloss").fetchone()[0])


class Frequencies(dict[str, int]):
    """jieba's word -> frequency table, read from the file as jieba asks (it only tests
    membership, indexes and calls `get`)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        super().__init__()
        self.db = db
        self._missing: set[str] = set()

    def _look(self, word: Any) -> int | None:
        if dict.__contains__(self, word):
            return int(dict.__getitem__(self, word))
        if not isinstance(word, str) or word in self._missing:
            return None
        row = self.db.execute("SELECT n FROM freq WHERE word = ?", (word,)).fetchone()
        if row is None:
            self._missing.add(word)
            return None
        dict.__setitem__(self, word, int(row[0]))
        return int(row[0])

    def __contains__(self, word: object) -> bool:
        return self._look(word) is not None

    def __getitem__(self, word: str) -> int:
        found = self._look(word)
        if found is None:
            raise KeyError(word)
        return found

    def get(self, word: str, default: Any = None) -> Any:
        found = self._look(word)
        return default if found is None else found
