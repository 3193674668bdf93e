"""Library methods that keep it in step with another library of record (Zotero)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citewise.embed.base import Embedder
    from citewise.ingest import Progress
    from citewise.sources.bibliography.zotero_sync import SyncReport
    from citewise.store.protocols import Store


class SyncMethods:
    """Mixed into `Library`: needs its `store`, `embedder` and `refresh()`."""

    store: Store

    @property
    def embedder(self) -> Embedder | None:  # pragma: no cover - Library's
        raise NotImplementedError

    def refresh(self) -> None:  # pragma: no cover - Library's
        raise NotImplementedError

    def sync_zotero(
        self,
        directory: Path,
        collection: str | None = None,
        progress: Progress | None = None,
    ) -> SyncReport:
        """New, changed and deleted Zotero items and attachments, in one cheap rerun
        (`citewise sync zotero`); Zotero's own files are only read."""
        from citewise.sources.bibliography.zotero_sync import sync_zotero

        report = sync_zotero(self.store, directory, self.embedder, collection, progress)
        if report.changed:
            self.refresh()
        return report
