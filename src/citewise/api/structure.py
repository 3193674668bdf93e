"""Library methods that look up evidence and structure: one block as evidence, a table as
cells and a grid, a numbered equation (the web app's evidence board, the MCP tools, the
`table` and `formula` commands)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citewise.errors import CitewiseError, Kind

if TYPE_CHECKING:
    from citewise.documents.model import Table
    from citewise.store.library import StoredBlock, StoredDocument
    from citewise.store.protocols import Store


def table_object(doc_id: str, hit: Table, block: StoredBlock) -> dict[str, object]:
    """A table as cells and a grid: the `citewise table --json` object (CLI, HTTP, MCP)."""
    return {
        "document": doc_id,
        "label": hit.label,
        "caption": hit.caption,
        "page": hit.page,
        "block": block.id,
        "bbox": list(block.bbox),
        "rows": hit.rows,
        "cols": hit.cols,
        "header_rows": hit.header_rows,
        "cells": [vars(c) for c in hit.cells],
        "grid": hit.grid(),
    }


class BlockNotFoundError(CitewiseError):
    code = "BLOCK_NOT_FOUND"
    kind: Kind = "not_found"


class StructureNotFoundError(CitewiseError):
    """No table with that label, or no equation with that number, in the document."""

    code = "NOT_IN_DOCUMENT"
    kind: Kind = "not_found"


class StructureMethods:
    """Mixed into `Library`: needs its `store`, `document()` and `blocks()`."""

    store: Store

    def document(self, doc_id: str) -> StoredDocument:  # pragma: no cover - Library's
        raise NotImplementedError

    def blocks(self, doc_id: str) -> list[StoredBlock]:  # pragma: no cover - Library's
        raise NotImplementedError

    # --- Evidence and structure lookups (the web app's evidence board, the MCP tools) ----

    def evidence(self, block_id: str) -> dict[str, object]:
        """One block as evidence: its document, page, bbox (PDF points), section path and
        verbatim text."""
        block = self.store.block(block_id)
        if block is None:
            raise BlockNotFoundError(
                f"no block '{block_id}'", hint="use block IDs from ask evidence or search hits"
            )
        doc = self.document(block.document_id)
        return {
            "id": block.id,
            "document": doc.id,
            "title": doc.title,
            "page": block.page,
            "bbox": [round(v, 1) for v in block.bbox],
            "section": block.section_path,
            "kind": block.kind,
            "label": block.label,
            "quote": block.text,
            "path": doc.path,
        }

    def table(self, doc_id: str, label: str) -> dict[str, object]:
        """A table of a document as cells and a grid (the `citewise table --json` object)."""
        from citewise.documents.structure import find_table, tables

        document = self.document(doc_id)
        found = tables(self.store.blocks_with_data(document.id, ("table",)))
        hit = find_table(found, label)
        if hit is None:
            known = ", ".join(dict.fromkeys(t.label for t in found if t.label)) or "none"
            raise StructureNotFoundError(
                f"no table '{label}' in {document.id}", hint=f"labelled tables: {known}"
            )
        block = next(b for b in self.blocks(document.id) if b.ordinal == hit.block)
        return table_object(document.id, hit, block)

    def formula(self, doc_id: str, number: str) -> dict[str, object]:
        """A numbered display equation with its page and place (`citewise formula --json`)."""
        from citewise.documents.structure import equations, find_equation

        document = self.document(doc_id)
        found = equations(self.store.blocks_with_data(document.id, ("equation",)))
        hit = find_equation(found, number)
        if hit is None:
            known = ", ".join(e.number for e in found if e.number) or "none"
            raise StructureNotFoundError(
                f"no equation '{number}' in {document.id}", hint=f"numbered equations: {known}"
            )
        block = next(b for b in self.blocks(document.id) if b.ordinal == hit.block)
        return {
            "document": document.id,
            "number": hit.number,
            "page": hit.page,
            "text": hit.text,
            "bbox": list(hit.bbox),
            "block": block.id,
            "section": block.section_path,
        }
