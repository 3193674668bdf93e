"""Library methods that look up evidence and structure: one block as evidence, a table as
cells and a grid, a numbered equation (the web app's evidence board, the MCP tools, the
`table` and `formula` commands), each a result whose to_dict() is the JSON every face prints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from citewise.errors import CitewiseError, Kind

if TYPE_CHECKING:
    from citewise.documents.model import Equation, Table
    from citewise.store.library import StoredBlock, StoredDocument
    from citewise.store.protocols import Store


@dataclass(frozen=True)
class TableResult:
    """A table of a document and its block: the `citewise table --json` object (CLI, HTTP,
    MCP) as cells with spans and as a grid of text."""

    document: str
    table: Table
    block: StoredBlock

    def to_dict(self) -> dict[str, object]:
        hit = self.table
        return {
            "document": self.document,
            "label": hit.label,
            "caption": hit.caption,
            "page": hit.page,
            "block": self.block.id,
            "bbox": list(self.block.bbox),
            "rows": hit.rows,
            "cols": hit.cols,
            "header_rows": hit.header_rows,
            "cells": [vars(c) for c in hit.cells],
            "grid": hit.grid(),
        }


@dataclass(frozen=True)
class BlockEvidence:
    """One block as evidence: its document, page, bbox (PDF points), section path and
    verbatim text (GET /blocks/{id}, the MCP `get_evidence` tool)."""

    block: StoredBlock
    document: StoredDocument

    def to_dict(self) -> dict[str, object]:
        block, doc = self.block, self.document
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


@dataclass(frozen=True)
class FormulaResult:
    """A numbered display equation with its page and place (GET
    /documents/{id}/equations/{n}, the MCP `get_formula` tool)."""

    document: str
    equation: Equation
    block: StoredBlock

    def to_dict(self) -> dict[str, object]:
        hit = self.equation
        return {
            "document": self.document,
            "number": hit.number,
            "page": hit.page,
            "text": hit.text,
            "bbox": list(hit.bbox),
            "block": self.block.id,
            "section": self.block.section_path,
        }


@dataclass(frozen=True)
class FormulaDetails:
    """An equation as `citewise formula` shows it: its text as read, its LaTeX only where
    the file holds a LaTeX source (`latex_from` says which; a PDF's glyphs are no LaTeX),
    whether only an image of it can be read, its variables and the sentences around it."""

    formula: FormulaResult
    latex: str | None  # only a real LaTeX source (a Markdown $$ block); never a guess
    latex_from: str | None  # where `latex` comes from ("markdown"); None without one
    image_only: bool
    variables: tuple[str, ...]
    before: str
    after: str

    def to_dict(self) -> dict[str, object]:
        hit, block = self.formula.equation, self.formula.block
        return {
            "document": self.formula.document,
            "number": hit.number,
            "page": hit.page,
            "text": hit.text,
            "latex": self.latex,
            "latex_from": self.latex_from,
            "image_only": self.image_only,
            "variables": list(self.variables),
            "before": self.before,
            "after": self.after,
            "bbox": list(hit.bbox),
            "block": block.id,
            "section": block.section_path,
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

    def evidence(self, block_id: str) -> BlockEvidence:
        """One block as evidence: its document, page, bbox (PDF points), section path and
        verbatim text."""
        block = self.store.block(block_id)
        if block is None:
            raise BlockNotFoundError(
                f"no block '{block_id}'", hint="use block IDs from ask evidence or search hits"
            )
        return BlockEvidence(block, self.document(block.document_id))

    def table(self, doc_id: str, label: str) -> TableResult:
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
        return TableResult(document.id, hit, block)

    def formula(self, doc_id: str, number: str) -> FormulaResult:
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
        return FormulaResult(document.id, hit, block)

    def formula_details(self, doc_id: str, number: str) -> FormulaDetails:
        """The equation numbered `number` with its text, its LaTeX where the file holds a
        LaTeX source, its variables and the sentences around it (`citewise formula`);
        FORMULA_NOT_FOUND names the numbers the paper has."""
        from citewise.documents.equations import image_only
        from citewise.documents.formulas import context, lookup_equation, variables
        from citewise.documents.structure import equations

        document = self.document(doc_id)
        stored = list(self.store.blocks_with_data(document.id, ("equation",)))
        hit = lookup_equation(equations(stored), number, document.id)
        data = next((d for b, d in stored if b.ordinal == hit.block), None) or {}
        latex = data.get("latex") if isinstance(data.get("latex"), str) else None
        blocks = self.blocks(document.id)
        block = next(b for b in blocks if b.ordinal == hit.block)
        before, after = context(blocks, hit.block)
        return FormulaDetails(
            FormulaResult(document.id, hit, block),
            latex,
            str(data.get("latex_from")) if latex and data.get("latex_from") else None,
            image_only(hit.text),
            tuple(variables(hit.text)),
            before,
            after,
        )
