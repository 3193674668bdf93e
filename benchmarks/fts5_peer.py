"""SQLite FTS5 as a benchmark peer: its own in-memory table over the library's trusted blocks
(citewise's one keyword index is the memory-mapped postings; FTS5 is only compared with).

The table is built as citewise's store once kept it: CJK characters spaced apart so any CJK
substring is findable, porter + unicode61 tokenizer, BM25 field weights 1.0 / 0.3 / 0.5.
"""

from __future__ import annotations

import re
import sqlite3

from citewise.store.sqlite.library import LibraryStore

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_CHAR = re.compile(f"([{_CJK}])")


def index_text(text: str) -> str:
    return _CJK_CHAR.sub(r" \1 ", text)


def match_expression(terms: list[str]) -> str:
    """An FTS5 MATCH expression that ORs the terms (CJK runs as phrases of characters)."""
    parts = []
    for term in dict.fromkeys(terms):
        phrase = " ".join(_CJK_CHAR.findall(term)) if _CJK_CHAR.search(term) else term
        parts.append('"' + phrase.replace('"', "") + '"')
    return " OR ".join(parts)


class Fts5Table:
    """An FTS5 table of one library's trusted blocks, rowids shared with the store."""

    def __init__(self, store: LibraryStore) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute(
            "CREATE VIRTUAL TABLE blocks_fts USING fts5(text, section_path, label, "
            "tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        for rows in store.iter_trusted_blocks():
            self.db.executemany(
                "INSERT INTO blocks_fts (rowid, text, section_path, label) VALUES (?,?,?,?)",
                [(rowid, index_text(text), section, label) for rowid, text, section, label in rows],
            )

    def search(self, terms: list[str], limit: int) -> list[tuple[int, float]]:
        """(block rowid, BM25 score; higher is better) for blocks matching any term."""
        if not terms:
            return []
        rows = self.db.execute(
            "SELECT rowid, bm25(blocks_fts, 1.0, 0.3, 0.5) AS rank FROM blocks_fts "
            "WHERE blocks_fts MATCH ? ORDER BY rank LIMIT ?",
            (match_expression(terms), limit),
        ).fetchall()
        return [(int(r[0]), -float(r[1])) for r in rows]
