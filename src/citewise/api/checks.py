"""Usage errors the API raises before doing any work (exit code 2, HTTP 422), and what
`doctor`, `list` and `ask` say about the library itself (its numbers; that it is empty)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from citewise.errors import CitewiseError, Kind

if TYPE_CHECKING:
    from citewise.store.protocols import Store
    from citewise.store.sqlite.stats import LibraryStats


class EmptyQuestionError(CitewiseError):
    """A question with no words in it: a usage error, not a refusal."""

    code = "EMPTY_QUESTION"
    kind: Kind = "invalid"


class NoSupportedFilesError(CitewiseError):
    """Ingest was given paths that hold no file citewise reads."""

    code = "NO_SUPPORTED_FILES"
    kind: Kind = "invalid"


def check_question(question: str) -> None:
    if not question.strip():
        raise EmptyQuestionError(
            "the question is empty", hint='ask in quotes: citewise ask "What does X report?"'
        )


class HealthMethods:
    """Mixed into `Library`: needs its `store`, `directory`, `created` and `notices`."""

    store: Store
    directory: Path
    created: bool
    notices: list[str]

    def empty_notice(self) -> str | None:
        """What to tell the user when the library holds no documents (None when it does)."""
        if self.store.stats()["documents"]:
            return None
        state = "was just created" if self.created else "holds no documents"
        return (
            f"notice: the library at {self.directory} {state}; add papers with "
            "'citewise ingest FOLDER' (or choose another with --library DIR)"
        )

    def _note_empty(self) -> None:
        notice = self.empty_notice()
        if notice and notice not in self.notices:
            self.notices.append(notice)

    def stats(self) -> LibraryStats:
        """Path, documents, pages, blocks, tables, size on disk, embedding models, and
        whether OCR and pandoc are available (`citewise doctor`)."""
        from citewise.documents.pdf.ocr import tesseract_command
        from citewise.store.sqlite.library import LibraryStore
        from citewise.store.sqlite.stats import StoreCounts, library_stats, store_counts

        if isinstance(self.store, LibraryStore):
            counts = store_counts(self.store.db)
        else:  # a PostgreSQL library: the protocol's counts
            basic = self.store.stats()
            counts = StoreCounts(basic["documents"], basic["pages"], basic["blocks"], 0, {})
        return library_stats(self.directory, counts, tesseract_command())
