"""What a library holds, counted: the numbers `citewise doctor` shows."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class StoreCounts:
    documents: int
    pages: int
    blocks: int
    tables: int
    # embedding model name -> blocks with a vector of it
    vectors: dict[str, int]


def store_counts(db: sqlite3.Connection) -> StoreCounts:
    """Documents, pages, blocks, tables and vectors per embedding model in one library."""
    (documents, pages) = db.execute(
        "SELECT count(*), coalesce(sum(pages), 0) FROM documents"
    ).fetchone()
    (blocks,) = db.execute("SELECT count(*) FROM blocks").fetchone()
    (tables,) = db.execute("SELECT count(*) FROM blocks WHERE kind = 'table'").fetchone()
    vectors = {
        name: int(count)
        for name, count in db.execute(
            "SELECT m.name, count(v.block_rowid) FROM embedding_models m "
            "LEFT JOIN block_vectors v ON v.model = m.name GROUP BY m.name ORDER BY m.name"
        )
    }
    return StoreCounts(int(documents), int(pages), int(blocks), int(tables), vectors)


@dataclass(frozen=True)
class LibraryStats:
    """The `doctor` numbers: where the library is, what it holds, which tools it can use."""

    path: str
    documents: int
    pages: int
    blocks: int
    tables: int
    size_bytes: int
    embedding_models: dict[str, int]  # model -> blocks embedded with it
    ocr: str | None  # the tesseract executable, None when OCR is unavailable
    pandoc: str | None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def library_stats(directory: Path, counts: StoreCounts, tesseract: str | None) -> LibraryStats:
    size = sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())
    return LibraryStats(
        path=str(directory),
        documents=counts.documents,
        pages=counts.pages,
        blocks=counts.blocks,
        tables=counts.tables,
        size_bytes=size,
        embedding_models=counts.vectors,
        ocr=tesseract,
        pandoc=shutil.which("pandoc"),
    )
