"""Library methods over the catalogue of documents: list them (`citewise list --json`,
`GET /documents`) and take them out (`citewise remove`).

A removed document leaves nothing behind that a question, a search, the matrix or the
citation graph could reach: its blocks, vectors, references, citation links, matrix cells
and vocabulary go with it in one transaction (the store's foreign keys), its blocks are cut
from logged answers' citations, other documents' references to it become unresolved, and
the indexes beside the store follow at once. Its file is left where it is: ingesting it
again brings it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citewise.store.protocols import Store
    from citewise.store.sqlite.library import StoredDocument


@dataclass
class Removal:
    """What `remove` did: the documents taken out (ID, title, path, blocks)."""

    removed: list[dict[str, object]] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"removed": self.removed}


class CatalogueMethods:
    """Mixed into `Library`: needs its `store`, `documents()`, `document()` and `refresh()`."""

    store: Store

    def documents(self) -> list[StoredDocument]:  # pragma: no cover - Library's
        raise NotImplementedError

    def document(self, doc_id: str) -> StoredDocument:  # pragma: no cover - Library's
        raise NotImplementedError

    def refresh(self) -> None:  # pragma: no cover - Library's
        raise NotImplementedError

    def remove(self, documents: list[str]) -> Removal:
        """Take the named documents (IDs, or file names and paths as `document()` reads
        them) out of the library. Every name is looked up first: one that names no
        document (DocumentNotFoundError) removes nothing."""
        found: dict[str, StoredDocument] = {}
        for name in documents:
            doc = self.document(name)
            found.setdefault(doc.id, doc)
        removal = Removal()
        for doc in found.values():
            self.store.delete_document(doc.id)
            removal.removed.append(
                {"id": doc.id, "title": doc.title, "path": doc.path, "blocks": doc.blocks}
            )
        if found:
            self.refresh()
        return removal

    def document_list(self) -> list[dict[str, object]]:
        """The `list --json` objects (and `GET /documents`)."""
        return [
            {
                "id": d.id,
                "title": d.title,
                "authors": d.authors,
                "year": d.year,
                "path": d.path,
                "pages": d.pages,
                "blocks": d.blocks,
            }
            for d in self.documents()
        ]
