"""Every user-facing failure is a CitewiseError with a stable code and a hint."""

from __future__ import annotations


class CitewiseError(Exception):
    """A failure the user can act on: `code` is stable, `hint` says what to do next."""

    code = "CITEWISE_ERROR"
    exit_code = 1

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
    exit_code = 3


class LibraryError(CitewiseError):
    code = "LIBRARY_ERROR"


class FormulaNotFoundError(CitewiseError):
    """A well-formed equation ID the paper does not number."""

    code = "FORMULA_NOT_FOUND"
    exit_code = 3


class InvalidEquationIdError(CitewiseError):
    """An equation ID that is not one of the accepted forms."""

    code = "INVALID_EQ_ID"
