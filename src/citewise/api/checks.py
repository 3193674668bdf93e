"""Usage errors the API raises before doing any work (exit code 2, HTTP 422)."""

from __future__ import annotations

from citewise.errors import CitewiseError, Kind


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
