"""Every user-facing failure is a CitewiseError with a stable code and a hint."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["failed", "invalid", "not_found", "conflict", "too_many", "busy"]


@dataclass(frozen=True)
class KindAnswer:
    """What a kind of failure answers: the CLI's exit code and the HTTP status."""

    exit_code: int
    http_status: int


# The one table the faces read: a new error class picks a kind, never a status.
KINDS: dict[str, KindAnswer] = {
    "failed": KindAnswer(1, 422),  # could not be done as asked (bad file, model error, ...)
    "invalid": KindAnswer(2, 422),  # the request itself is malformed (spec, query, name)
    "not_found": KindAnswer(3, 404),  # no such document, page, task or open copy
    "conflict": KindAnswer(1, 409),  # the thing is not in a state that allows this
    "too_many": KindAnswer(1, 429),  # past a server limit (streams, running tasks)
    "busy": KindAnswer(1, 503),  # a shared resource stayed busy; try again
}


class CitewiseError(Exception):
    """A failure the user can act on: `code` is stable, `hint` says what to do next,
    `kind` (a key of KINDS) decides the exit code and the HTTP status."""

    code = "CITEWISE_ERROR"
    kind: Kind = "failed"

    @property
    def exit_code(self) -> int:
        return KINDS[self.kind].exit_code

    @property
    def http_status(self) -> int:
        return KINDS[self.kind].http_status

    def __init__(self, message: str, hint: str = "", code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code:
            self.code = code

    def __str__(self) -> str:
        text = f"{self.code}: {self.message}"
        return f"{text} — {self.hint}" if self.hint else text


class BadDocumentError(CitewiseError):
    """A file that cannot be ingested (empty, truncated, encrypted, not what it claims)."""

    code = "BAD_DOCUMENT"


class TooLargeError(BadDocumentError):
    """A file bigger than ingest reads, or whose parse needs more memory than its budget."""

    code = "TOO_LARGE"


class TooComplexError(BadDocumentError):
    """A file whose parse takes longer than its budget, or a page with more text operators
    than any real page carries (a text-operator bomb)."""

    code = "TOO_COMPLEX"


class ParserCrashedError(BadDocumentError):
    """The process parsing a file died without an answer (a crash in a native library)."""

    code = "PARSER_CRASHED"


class DuplicateDocumentError(CitewiseError):
    """The same bytes are already in the library under another path."""

    code = "DUPLICATE_DOCUMENT"


class DocumentNotFoundError(CitewiseError):
    code = "PAPER_NOT_FOUND"
    kind: Kind = "not_found"


class LibraryError(CitewiseError):
    code = "LIBRARY_ERROR"


class FormulaNotFoundError(CitewiseError):
    """A well-formed equation ID the paper does not number."""

    code = "FORMULA_NOT_FOUND"
    kind: Kind = "not_found"


class InvalidEquationIdError(CitewiseError):
    """An equation ID that is not one of the accepted forms."""

    code = "INVALID_EQ_ID"


class JobCancelledError(LibraryError):
    """A queued job was cancelled before a worker took it, or aborted while it ran (by a
    user through procrastinate, or by a worker): it will not finish by itself, so whoever
    follows it reports it as a failure and the job has to be queued again."""

    code = "JOB_CANCELLED"
    kind: Kind = "conflict"


class QueueJobNotFoundError(LibraryError):
    """A job id the library's queue does not hold (never did, or removed by retention),
    or a file no job of the queue names."""

    code = "QUEUE_JOB_NOT_FOUND"
    kind: Kind = "not_found"


class QueueJobFinishedError(LibraryError):
    """A job asked to be cancelled that finished already (succeeded, failed, cancelled or
    aborted): there is nothing left to stop."""

    code = "QUEUE_JOB_FINISHED"
    kind: Kind = "conflict"
