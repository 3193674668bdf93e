"""A stored document's metadata and structure as results: `DocumentStructure` (sections,
tables, equations, references) and `DocumentDetails` (the `show --json` object, GET
/documents/{id}, the MCP `get_document` tool and document resource)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from citewise.documents.structure import equations, sections, tables

if TYPE_CHECKING:
    from citewise.documents.model import Equation, Section, Table
    from citewise.store.protocols import Store
    from citewise.store.sqlite.library import StoredDocument
    from citewise.store.sqlite.references import StoredReference


@dataclass(frozen=True)
class DocumentStructure:
    """Sections, tables, numbered equations and references of a stored document."""

    sections: tuple[Section, ...]
    tables: tuple[Table, ...]
    equations: tuple[Equation, ...]  # numbered ones only
    references: tuple[StoredReference, ...]

    @classmethod
    def read(cls, store: Store, doc_id: str) -> DocumentStructure:
        heads = store.blocks_with_data(doc_id, ("heading",))
        found = store.blocks_with_data(doc_id, ("table", "equation"))
        return cls(
            tuple(sections(b for b, _ in heads)),
            tuple(tables(found)),
            tuple(e for e in equations(found) if e.number),
            tuple(store.references(doc_id)),
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "sections": [
                {"number": s.number, "title": s.title, "level": s.level, "page": s.page}
                for s in self.sections
            ],
            "tables": [
                {"label": t.label, "page": t.page, "rows": t.rows, "cols": t.cols,
                 "caption": t.caption}
                for t in self.tables
            ],
            "equations": [
                {"number": e.number, "page": e.page, "text": e.text} for e in self.equations
            ],
            "references": [
                {"authors": r.authors, "title": r.title, "year": r.year, "doi": r.doi,
                 "resolved_document": r.resolved_document}
                for r in self.references
            ],
        }  # fmt: skip


@dataclass(frozen=True)
class DocumentDetails:
    """A document's metadata and its structure."""

    document: StoredDocument
    structure: DocumentStructure

    def to_dict(self) -> dict[str, object]:
        doc = self.document
        return {
            "id": doc.id,
            "title": doc.title,
            "authors": doc.authors,
            "year": doc.year,
            "doi": doc.doi,
            "pages": doc.pages,
            **self.structure.to_dict(),
            "path": doc.path,
            "blocks": doc.blocks,
            "abstract": doc.abstract,
            "flagged_pages": {str(k): v for k, v in doc.flagged_pages.items()},
        }
