"""Library methods that look up evidence and structure: one block as evidence, a table as
cells and a grid, a numbered equation, a figure's caption and region (the web app's evidence
board, the MCP tools, the `table`, `formula` and `figure` commands), each a result whose
to_dict() is the JSON every face prints; and a page region written as an image (--png)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from citewise.errors import CitewiseError, Kind

if TYPE_CHECKING:
    from citewise.documents.model import Equation, Table
    from citewise.store.protocols import Store
    from citewise.store.sqlite.library import StoredBlock, StoredDocument


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

    def csv_rows(self) -> list[list[str]]:
        """The table as rows of text, header rows first (`table --csv`, the terminal grid)."""
        from citewise.documents.structure import to_csv_rows

        return to_csv_rows(self.table)

    def markdown(self) -> str:
        """The table as Markdown (GFM), its header rows folded into one (`table --markdown`)."""
        from citewise.documents.structure import to_markdown

        return to_markdown(self.table)


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


@dataclass(frozen=True)
class FigureResult:
    """A figure of a PDF: its caption block and the region of the figure with its caption
    on the page (PDF points), the `citewise figure --json` object."""

    document: str
    caption: StoredBlock
    box: tuple[float, float, float, float]
    pdf: Path

    def to_dict(self, png: Path | None = None) -> dict[str, object]:
        hit = self.caption
        return {
            "document": self.document,
            "label": hit.label,
            "caption": hit.text,
            "page": hit.page,
            "block": hit.id,
            "bbox": [round(v, 2) for v in self.box],
            "png": str(png) if png else None,
        }


def figure_number(label: str) -> str:
    """'Figure 3b', 'Fig. 3b' or '3b' -> '3b' (the label itself when it holds no number)."""
    m = re.search(r"(\d+[a-z]?)", label)
    return m.group(1) if m else label.strip()


def write_crop(pdf: Path, page: int, bbox: tuple[float, float, float, float], png: Path) -> None:
    """The region `bbox` (PDF points) of the PDF's page written to `png` as an image."""
    from citewise.documents.pdf.crops import crop_png

    crop_png(pdf, page, bbox, png)


class BlockNotFoundError(CitewiseError):
    code = "BLOCK_NOT_FOUND"
    kind: Kind = "not_found"


class StructureNotFoundError(CitewiseError):
    """No table or figure with that label, or no equation with that number, in the
    document (the hint names those it has)."""

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

    def figure(self, doc_id: str, label: str) -> FigureResult:
        """The figure `label` names ('Figure 3', 'Fig. 3' or 3) by its caption, with the
        region of the figure and its caption on the page (graphics between the caption and
        the nearest prose, read from the PDF)."""
        from citewise.documents.pdf.crops import PROSE, figure_box

        document = self.document(doc_id)
        blocks = self.blocks(document.id)
        want = figure_number(label)
        captions = [
            b
            for b in blocks
            if b.kind == "caption" and (b.label or "").lower().startswith(("figure", "fig"))
        ]
        hit = next((b for b in captions if figure_number(b.label or "") == want), None)
        if hit is None:
            known = ", ".join(dict.fromkeys(b.label or "" for b in captions)) or "none"
            raise StructureNotFoundError(
                f"no figure '{label}' in {document.id}", hint=f"figures: {known}"
            )
        prose = [b.bbox for b in blocks if b.page == hit.page and b.kind in PROSE]
        pdf = Path(document.path)
        return FigureResult(document.id, hit, figure_box(pdf, hit.page, hit.bbox, prose), pdf)

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
        from citewise.documents.math.equations import image_only
        from citewise.documents.math.formulas import context, lookup_equation, variables
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
