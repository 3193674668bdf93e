"""What an ingest did, as a result: the `citewise ingest --json` object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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
