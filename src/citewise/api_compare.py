"""Library methods for comparing papers: `setup`, `compare` and `matrix` (see agent/)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from citewise.agent.aspects import Paper, library_gazetteer, load_paper
from citewise.agent.compare import Comparison, compare_papers
from citewise.agent.gazetteer import Gazetteer
from citewise.agent.matrix import DEFAULT_COLUMNS, Matrix, build_matrix
from citewise.agent.setup import SETUP_ASPECTS, Setup, extract_setup

if TYPE_CHECKING:
    from citewise.store.library import LibraryStore, StoredDocument


class ComparisonMethods:
    """Mixed into `Library`: needs its `store` and `document()`."""

    store: LibraryStore

    def document(self, doc_id: str) -> StoredDocument:  # pragma: no cover - Library's
        raise NotImplementedError

    def papers(self, doc_ids: list[str]) -> list[Paper]:
        return [load_paper(self.store, self.document(d)) for d in doc_ids]

    def gazetteer(self) -> Gazetteer:
        """Dataset and model names over the whole library."""
        return library_gazetteer([load_paper(self.store, d) for d in self.store.documents()])

    def setup(self, doc_id: str, aspects: tuple[str, ...] = SETUP_ASPECTS) -> Setup:
        """Every setting needed to rerun the paper's experiments, each cited or not stated."""
        (paper,) = self.papers([doc_id])
        return extract_setup(paper, self.gazetteer(), aspects)

    def compare(self, doc_ids: list[str], aspects: list[str] | None = None) -> Comparison:
        """An aspect x paper table of cited cells and a key-differences paragraph."""
        return compare_papers(self.papers(doc_ids), self.gazetteer(), aspects)

    def matrix(
        self,
        doc_ids: list[str] | None = None,
        columns: list[str] | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> Matrix:
        """One row per paper (all papers by default); cells cached in the library."""
        docs = [self.document(d) for d in doc_ids] if doc_ids else self.store.documents()
        return build_matrix(self.store, docs, columns or list(DEFAULT_COLUMNS), progress)
