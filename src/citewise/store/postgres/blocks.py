"""Blocks on PostgreSQL: reads by document, rowid and filter; full-text counts; what the
indexes beside the store (keyword postings, vector matrices) read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np

from citewise.store.filters import BlockFilter
from citewise.store.postgres.connection import Database
from citewise.store.postgres.text import any_terms_query, term_query
from citewise.store.sqlite.index_source import BlockState
from citewise.store.sqlite.library import StoredBlock, stored_block

BLOCK_COLUMNS = (
    "b.rowid, b.id, b.document_id, b.ordinal, b.kind, b.page, b.x0, b.y0, b.x1, b.y1, "
    "b.section_path, b.label, b.text, b.trusted"
)


def filter_clause(where: BlockFilter, alias: str = "b") -> tuple[str, list[object]]:
    """The WHERE clause (blocks table as `alias`) and parameters of a BlockFilter."""
    clauses: list[str] = [f"{alias}.trusted = 1"]
    params: list[object] = []
    for column, values in (
        ("document_id", where.documents),
        ("page", where.pages),
        ("kind", where.kinds),
    ):
        if values:
            clauses.append(f"{alias}.{column} = ANY(%s)")
            params.append(list(values))
    return " AND ".join(clauses), params


class PostgresBlocks:
    """BlockRepository and BlockSource over one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def blocks(self, doc_id: str) -> list[StoredBlock]:
        rows = self.db.rows(
            f"SELECT {BLOCK_COLUMNS} FROM blocks b WHERE b.document_id = %s ORDER BY b.ordinal",
            (doc_id,),
        )
        return [stored_block(r) for r in rows]

    def block(self, block_id: str) -> StoredBlock | None:
        row = self.db.one(f"SELECT {BLOCK_COLUMNS} FROM blocks b WHERE b.id = %s", (block_id,))
        return stored_block(row) if row else None

    def blocks_with_data(
        self, doc_id: str, kinds: tuple[str, ...]
    ) -> list[tuple[StoredBlock, dict[str, Any] | None]]:
        rows = self.db.rows(
            f"SELECT {BLOCK_COLUMNS}, b.data FROM blocks b WHERE b.document_id = %s "
            "AND b.kind = ANY(%s) ORDER BY b.ordinal",
            (doc_id, list(kinds)),
        )
        return [(stored_block(r), json.loads(r["data"]) if r["data"] else None) for r in rows]

    def blocks_by_rowid(self, rowids: list[int]) -> dict[int, StoredBlock]:
        if not rowids:
            return {}
        rows = self.db.rows(
            f"SELECT {BLOCK_COLUMNS} FROM blocks b WHERE b.rowid = ANY(%s)",
            ([int(r) for r in rowids],),
        )
        return {int(r["rowid"]): stored_block(r) for r in rows}

    def neighbours(self, block: StoredBlock, span: int = 1) -> list[StoredBlock]:
        rows = self.db.rows(
            f"SELECT {BLOCK_COLUMNS} FROM blocks b WHERE b.document_id = %s AND b.trusted = 1 "
            "AND b.ordinal BETWEEN %s AND %s AND b.ordinal != %s ORDER BY b.ordinal",
            (block.document_id, block.ordinal - span, block.ordinal + span, block.ordinal),
        )
        return [stored_block(r) for r in rows]

    def neighbours_of(self, blocks: list[StoredBlock], span: int = 1) -> list[list[StoredBlock]]:
        """`neighbours` of every block in one query: the blocks' (document, ordinal) pairs
        unnested and joined to the blocks within `span` of each."""
        if not blocks:
            return []
        rows = self.db.rows(
            f"SELECT h.i, {BLOCK_COLUMNS} FROM unnest(%s::text[], %s::int[]) "
            "WITH ORDINALITY AS h(document_id, ordinal, i) JOIN blocks b "
            "ON b.document_id = h.document_id AND b.trusted = 1 "
            "AND b.ordinal BETWEEN h.ordinal - %s AND h.ordinal + %s AND b.ordinal != h.ordinal "
            "ORDER BY h.i, b.ordinal",
            ([b.document_id for b in blocks], [b.ordinal for b in blocks], span, span),
        )
        found: list[list[StoredBlock]] = [[] for _ in blocks]
        for row in rows:
            found[int(row["i"]) - 1].append(stored_block(row))
        return found

    def keyword_search(
        self, terms: list[str], limit: int, where: BlockFilter | None = None
    ) -> list[tuple[int, float]]:
        """(block rowid, ts_rank score; higher is better) for blocks matching any term."""
        if not terms:
            return []
        query, qparams = any_terms_query(terms)
        clause, params = filter_clause(where or BlockFilter())
        rows = self.db.rows(
            f"SELECT b.rowid, ts_rank(b.tsv, q) AS rank FROM blocks b, ({'SELECT ' + query}) "
            f"AS t(q) WHERE b.tsv @@ q AND {clause} ORDER BY rank DESC, b.rowid LIMIT %s",
            (*qparams, *params, limit),
        )
        return [(int(r["rowid"]), float(r["rank"])) for r in rows]

    def _matching(self, term: str, extra: str = "", params: tuple[Any, ...] = ()) -> int:
        sql, param = term_query(term)
        n = self.db.value(
            f"SELECT count(*) FROM blocks b WHERE b.tsv @@ {sql}{extra}", (param, *params)
        )
        return int(n or 0)

    def document_frequencies(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        total = int(self.db.value("SELECT count(*) FROM blocks WHERE trusted = 1") or 0)
        return total, {t: self._matching(t) for t in dict.fromkeys(terms)}

    def document_term_counts(
        self, terms: list[str], documents: list[str]
    ) -> dict[str, tuple[int, dict[str, int]]]:
        counts: dict[str, tuple[int, dict[str, int]]] = {}
        for doc_id in documents:
            total = self.db.value(
                "SELECT count(*) FROM blocks WHERE document_id = %s AND trusted = 1", (doc_id,)
            )
            extra = " AND b.document_id = %s AND b.trusted = 1"
            freqs = {t: self._matching(t, extra, (doc_id,)) for t in dict.fromkeys(terms)}
            counts[doc_id] = (int(total or 0), freqs)
        return counts

    def candidates(self, where: BlockFilter) -> np.ndarray:
        clause, params = filter_clause(where)
        rows = self.db.rows(f"SELECT b.rowid FROM blocks b WHERE {clause} ORDER BY b.rowid", params)
        return np.fromiter((r["rowid"] for r in rows), dtype=np.int64, count=len(rows))

    # -- BlockSource -------------------------------------------------------------------

    def block_state(self) -> BlockState:
        row = self.db.one("SELECT inserted, deleted, updated FROM block_changes WHERE id = 1")
        return (
            BlockState(int(row["inserted"]), int(row["deleted"]), int(row["updated"]))
            if row
            else BlockState()
        )

    def iter_trusted_blocks(
        self, after_rowid: int = 0, chunk: int = 50_000
    ) -> Iterator[list[tuple[int, str, str, str]]]:
        last = after_rowid
        while True:
            rows = self.db.rows(
                "SELECT rowid, text, section_path, coalesce(label, '') AS label FROM blocks "
                "WHERE rowid > %s AND trusted = 1 ORDER BY rowid LIMIT %s",
                (last, chunk),
            )
            if not rows:
                return
            yield [(int(r["rowid"]), r["text"], r["section_path"], r["label"]) for r in rows]
            last = int(rows[-1]["rowid"])

    def trusted_rowids(self) -> np.ndarray:
        rows = self.db.rows("SELECT rowid FROM blocks WHERE trusted = 1 ORDER BY rowid")
        return np.fromiter((r["rowid"] for r in rows), dtype=np.int64, count=len(rows))
