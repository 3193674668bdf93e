"""Library methods for comparing papers: `setup`, `compare` and `matrix` (see agent/)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from citewise.agent.setup import SETUP_ASPECTS
from citewise.config import ModelSettings

if TYPE_CHECKING:
    from citewise.agent.aspects import Paper
    from citewise.agent.compare import Comparison
    from citewise.agent.gazetteer import Gazetteer
    from citewise.agent.matrix import Matrix
    from citewise.agent.setup import Setup
    from citewise.llm.client import ModelClient
    from citewise.store.library import LibraryStore, StoredDocument


class ComparisonMethods:
    """Mixed into `Library`: needs its `store` and `document()`."""

    store: LibraryStore

    def document(self, doc_id: str) -> StoredDocument:  # pragma: no cover - Library's
        raise NotImplementedError

    @property
    def model_settings(self) -> ModelSettings:  # pragma: no cover - Library's
        raise NotImplementedError

    def extract_model(
        self, llm: str | None = None, llm_url: str | None = None
    ) -> ModelClient | None:
        """The `extract` role's model (or --llm's); None when extraction is plain code."""
        from citewise.llm.base import parse_spec
        from citewise.llm.registry import role_clients

        override = parse_spec(llm, llm_url) if llm else None
        clients = role_clients("extract", self.model_settings, self.store.audit, override)
        return clients[0] if clients and clients[0].model.backend != "extractive" else None

    def papers(self, doc_ids: list[str]) -> list[Paper]:
        from citewise.agent.aspects import load_paper

        return [load_paper(self.store, self.document(d)) for d in doc_ids]

    def gazetteer(self) -> Gazetteer:
        """Dataset and model names over the whole library (per paper, cached)."""
        from citewise.agent.matrix import cached_gazetteer

        return cached_gazetteer(self.store)

    def setup(self, doc_id: str, aspects: tuple[str, ...] = SETUP_ASPECTS) -> Setup:
        """Every setting needed to rerun the paper's experiments, each cited or not stated."""
        from citewise.agent.setup import extract_setup

        (paper,) = self.papers([doc_id])
        return extract_setup(paper, self.gazetteer(), aspects)

    def compare(
        self,
        doc_ids: list[str],
        aspects: list[str] | None = None,
        model: ModelClient | None = None,
    ) -> Comparison:
        """An aspect x paper table of cited cells and a key-differences paragraph; `model`
        (see extract_model) fills only cells the patterns leave empty, verbatim."""
        from citewise.agent.compare import compare_papers

        return compare_papers(self.papers(doc_ids), self.gazetteer(), aspects, model)

    def matrix(
        self,
        doc_ids: list[str] | None = None,
        columns: list[str] | None = None,
        progress: Callable[[str], None] | None = None,
        model: ModelClient | None = None,
    ) -> Matrix:
        """One row per paper (all papers by default); cells cached in the library."""
        from citewise.agent.matrix import DEFAULT_COLUMNS, build_matrix

        docs = [self.document(d) for d in doc_ids] if doc_ids else self.store.documents()
        wanted = columns or list(DEFAULT_COLUMNS)
        return build_matrix(self.store, docs, wanted, progress, model)
