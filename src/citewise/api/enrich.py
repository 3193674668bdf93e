"""Library methods that complete bibliographic records from Crossref and OpenAlex."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx

    from citewise.config import Settings
    from citewise.sources.bibliography.enrich import Enrichment
    from citewise.sources.config import SourcesConfig
    from citewise.store.protocols import Store
    from citewise.store.sqlite.library import StoredDocument


class EnrichMethods:
    """Mixed into `Library`: needs its `store`, `settings` and `document()`."""

    store: Store
    settings: Settings

    def document(self, doc_id: str) -> StoredDocument:  # pragma: no cover - Library's
        raise NotImplementedError

    def enrich(
        self,
        documents: list[str] | None = None,
        online: bool = False,
        config: SourcesConfig | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> list[Enrichment]:
        """The named documents (all when none are named) completed from Crossref and
        OpenAlex. Without `online` nothing leaves the machine: the result is the plan, what
        each record lacks and what would be looked up."""
        from citewise.sources.bibliography.enrich import enrich_documents, plan

        docs = [self.document(d) for d in documents] if documents else self.store.documents()
        if not online:
            return plan(docs)
        from citewise.sources.config import SourcesConfig

        config = config or SourcesConfig.load(None, self.settings.environ)
        return enrich_documents(
            self.store, docs, config=config, audit=self.store.audit, transport=transport
        )
