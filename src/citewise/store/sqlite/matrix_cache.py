"""Computed literature-matrix cells, kept in the library (table `matrix_cells`).

A cell is stored as JSON (None: the paper does not state it) under the document's sha256
and the extractor version; any other sha256 or version reads as not computed.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from citewise.store.sqlite.db import transaction


class MatrixCache:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def cells(self, doc_id: str, sha256: str, version: int) -> dict[str, dict[str, Any] | None]:
        """column -> cell (None when not stated) for the cells computed for this file."""
        rows = self.db.execute(
            "SELECT column_name, cell FROM matrix_cells "
            "WHERE document_id = ? AND sha256 = ? AND version = ?",
            (doc_id, sha256, version),
        ).fetchall()
        return {r["column_name"]: json.loads(r["cell"]) if r["cell"] else None for r in rows}

    def save(
        self, doc_id: str, sha256: str, version: int, cells: dict[str, dict[str, Any] | None]
    ) -> None:
        """Store one paper's newly computed cells together."""
        with transaction(self.db):
            self.db.executemany(
                "INSERT OR REPLACE INTO matrix_cells "
                "(document_id, sha256, version, column_name, cell) VALUES (?,?,?,?,?)",
                [
                    (doc_id, sha256, version, column, json.dumps(cell) if cell else None)
                    for column, cell in cells.items()
                ],
            )
