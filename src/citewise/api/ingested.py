"""What an ingest is given and what it did: which of a folder's files it takes
(`FileFilter`: --include / --exclude patterns), the entries a manifest or a Zotero library
adds to a batch (`Sources`), and its report as a result (the `citewise ingest --json`
object)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from citewise.inputs import FileFilter as FileFilter
from citewise.inputs import Sources as Sources

if TYPE_CHECKING:
    from citewise.ingest import IngestReport as IngestReport  # what Library.ingest returns


@dataclass(frozen=True)
class IngestSummary:
    """An ingest's report (`Library.ingest`): documents added, replaced and unchanged,
    failures and warnings per file, pages and blocks stored, what was embedded, timings."""

    report: IngestReport

    def to_dict(self) -> dict[str, object]:
        report = self.report
        return {
            "documents": report.documents,
            "added": report.added,
            "replaced": report.replaced,
            "unchanged": report.unchanged,
            "failed": [vars(f) for f in report.failed],
            "warnings": [{"path": p, "warning": w} for p, w in report.warnings],
            "pages": report.pages,
            "blocks": report.blocks,
            "embedded_blocks": report.embedded_blocks,
            "embedding_model": report.embedding_model,
            "seconds": round(report.seconds, 3),
            "embed_seconds": round(report.embed_seconds, 3),
        }
