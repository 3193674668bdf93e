"""Benchmark libraries for retrieval: the real corpus plus generated filler blocks.

The relevant blocks are the corpus's own (the gold pages of `shared/qa/dev.yaml`); the
filler is made from the corpus's sentences with a quarter of the words swapped for
random corpus words and every digit re-drawn, so it has the corpus's vocabulary and term
statistics, competes for the same words, and never repeats a gold passage verbatim.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from citewise.documents.model import Block, Document
from citewise.store.sqlite.library import LibraryStore

BLOCKS_PER_DOCUMENT = 200
BLOCKS_PER_PAGE = 10
SWAP_RATE = 0.25
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"\S+")
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class Query:
    id: str
    text: str
    relevant: frozenset[int]  # rowids of trusted blocks on the gold pages; empty: unanswerable


def parse_size(text: str) -> int:
    """'10k' -> 10000, '1M' -> 1000000, '2500' -> 2500."""
    text = text.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * scale)


def load_queries(store: LibraryStore, qa_file: Path) -> list[Query]:
    """Every dev question, with the rowids of the trusted blocks on its gold pages."""
    by_name = {Path(d.path).name: d.id for d in store.documents()}
    queries = []
    for item in yaml.safe_load(qa_file.read_text(encoding="utf-8")):
        docs = item.get("doc") or []
        docs = [docs] if isinstance(docs, str) else list(docs)
        pages = [int(p) for p in item.get("pages") or []]
        if len(docs) > 1 and len(pages) == len(docs):
            gold = list(zip(docs, pages, strict=True))
        else:
            gold = [(d, p) for d in docs for p in pages]
        relevant: set[int] = set()
        for name, page in gold:
            if name in by_name:
                relevant.update(
                    r[0]
                    for r in store.db.execute(
                        "SELECT rowid FROM blocks WHERE document_id = ? AND page = ? "
                        "AND trusted = 1",
                        (by_name[name], page),
                    )
                )
        queries.append(Query(str(item["id"]), str(item["question"]), frozenset(relevant)))
    return queries


class FillerWriter:
    """Generates filler blocks from a corpus's sentences, reproducibly from a seed."""

    def __init__(self, texts: list[str], seed: int = 7) -> None:
        self.sentences = [s for t in texts for s in _SENTENCE.split(t) if len(s.split()) >= 4]
        self.words = [w for t in texts for w in _WORD.findall(t) if w.isalpha()]
        self.rng = np.random.default_rng(seed)

    def block(self) -> str:
        rng = self.rng
        picked = rng.integers(0, len(self.sentences), size=int(rng.integers(1, 4)))
        words = " ".join(self.sentences[i] for i in picked).split()
        swaps = rng.random(len(words)) < SWAP_RATE
        replacements = rng.integers(0, len(self.words), size=int(swaps.sum()))
        for position, choice in zip(np.flatnonzero(swaps), replacements, strict=True):
            words[position] = self.words[choice]
        text = " ".join(words)
        digits = iter(rng.integers(0, 10, size=len(_DIGIT.findall(text))))
        return _DIGIT.sub(lambda _: str(next(digits)), text)

    def document(self, number: int, blocks: int) -> Document:
        sha = hashlib.sha256(f"filler-{number}".encode()).hexdigest()
        doc = Document(
            path=Path(f"/synthetic/filler-{number:07d}.txt"),
            sha256=sha,
            kind="text",
            pages=-(-blocks // BLOCKS_PER_PAGE),
            title=f"Synthetic filler {number}",
        )
        doc.blocks = [
            Block(
                ordinal=i,
                kind="paragraph",
                page=i // BLOCKS_PER_PAGE + 1,
                bbox=(0.0, 0.0, 0.0, 0.0),
                text=self.block(),
            )
            for i in range(blocks)
        ]
        return doc


def trusted_texts(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT text FROM blocks WHERE trusted = 1 ORDER BY rowid")]


def add_filler(store: LibraryStore, total_blocks: int, seed: int = 7) -> int:
    """Add filler documents until the library holds `total_blocks` blocks; return how many."""
    (have,) = store.db.execute("SELECT count(*) FROM blocks").fetchone()
    writer = FillerWriter(trusted_texts(store.db), seed)
    added, number = 0, 0
    while have + added < total_blocks:
        count = min(BLOCKS_PER_DOCUMENT, total_blocks - have - added)
        store.save_document(writer.document(number, count))
        added, number = added + count, number + 1
    return added


def copy_library(source: Path, target: Path) -> None:
    """A consistent copy of a library's database (SQLite backup API, WAL included)."""
    target.mkdir(parents=True, exist_ok=True)
    with (
        sqlite3.connect(source / "library.db") as src,
        sqlite3.connect(target / "library.db") as dst,
    ):
        src.backup(dst)


def store_megabytes(directory: Path) -> float:
    """On-disk size of a library: the database, its WAL and the vector files."""
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file()) / 1e6
