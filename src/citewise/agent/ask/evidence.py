"""Evidence from stored blocks: what a citation shows of a block and of its document.

One builder for every answer path (agent/ask/qa.py's extractive answers and refusals, the
quoted cells and figures of agent/numeric/quoted.py, agent/generation/generate.py's numbered
evidence).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citewise.agent.ask.answer import Evidence, zotero_link
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock, StoredDocument


@dataclass(frozen=True)
class CitedDocument:
    """What a citation shows of the document a block comes from."""

    title: str
    path: str
    zotero: str | None

    @classmethod
    def of(cls, doc: StoredDocument | None) -> CitedDocument:
        if doc is None:
            return cls("", "", None)
        # A search record kept as its abstract (`search --save`) is cited as that.
        title = f"abstract of {doc.title}" if doc.kind == "abstract" else doc.title
        return cls(title, doc.path, zotero_link(doc.csl))

    def link(self, page: int) -> str:
        return f"{Path(self.path).as_uri()}#page={page}" if self.path else ""


class Citations:
    """Evidence items for one store's blocks, reading each document once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._documents: dict[str, CitedDocument] = {}

    def document(self, doc_id: str) -> CitedDocument:
        if doc_id not in self._documents:
            self._documents[doc_id] = CitedDocument.of(self.store.document(doc_id))
        return self._documents[doc_id]

    def forget(self) -> None:
        """Drop what was read about the documents (after an ingest)."""
        self._documents.clear()

    def evidence(
        self, block: StoredBlock, quote: str | None = None, cell_bbox: list[float] | None = None
    ) -> Evidence:
        """The block as cited: its place, its document, and `quote` (the whole text if None)."""
        doc = self.document(block.document_id)
        return Evidence(
            id=block.id,
            document=block.document_id,
            title=doc.title,
            page=block.page,
            bbox=[round(v, 1) for v in block.bbox],
            section=block.section_path,
            quote=quote if quote is not None else block.text,
            link=doc.link(block.page),
            cell_bbox=cell_bbox,
            zotero=doc.zotero,
        )
