"""Chat, compare and matrix routes: each one call into `Library` (citewise.api).

Chat keeps no state on the server: the client sends the earlier turns back with each
message, and they only resolve references ("its accuracy"); every turn retrieves afresh
and answers with evidence of its own. Compare and matrix run on the writer library (the
matrix caches its cells, the gazetteer its names); their exports are the CLI's files
(report/matrix.py), answered as downloads.
"""

from __future__ import annotations

import tempfile
from importlib.util import find_spec
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, Response
from pydantic import BaseModel, Field

from citewise.api.chat import HISTORY_TURNS, PastTurn
from citewise.api.compare import FREE_PHRASE
from citewise.report.matrix import comparison_csv, comparison_markdown, write_matrix
from citewise.server.limits import MAX_ID_CHARS, MAX_LIST_ITEMS, MAX_QUESTION_CHARS

DocumentId = Annotated[str, Field(max_length=MAX_ID_CHARS)]
# The names compare and matrix know, or a free phrase of one to six words (any case is
# accepted; a single word misspelling a preset answers 422)
Aspect = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        json_schema_extra={k: v for k, v in FREE_PHRASE.items() if k != "type"},
    ),
]
# Earlier turns only resolve references: the last few, cut short, are all a turn reads
# (agent/ask/chat.py), and every body stays well under the server's body limit.
MAX_TURNS = HISTORY_TURNS
MAX_PAST_CHARS = 1000
MEDIA = {
    "csv": "text/csv; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}

# the schema offers .xlsx only where openpyxl (the [matrix] extra) is installed, so a
# request it documents as valid is one this server can answer
MATRIX_EXPORTS = ("csv", "xlsx", "md") if find_spec("openpyxl") else ("csv", "md")


class ChatTurnBody(BaseModel):
    question: str = Field(max_length=MAX_PAST_CHARS, description="What the user typed.")
    resolved: str = Field(
        "", max_length=2 * MAX_PAST_CHARS, description="The reply's `resolved` question."
    )
    answer: str = Field("", max_length=MAX_PAST_CHARS, description="The reply's answer text.")


class ChatRequest(BaseModel):
    message: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="The next question."
    )
    history: list[ChatTurnBody] = Field(
        default_factory=list,
        max_length=MAX_TURNS,
        description="The latest earlier turns, oldest first.",
    )
    documents: list[DocumentId] | None = Field(
        None, max_length=MAX_LIST_ITEMS, description="Only these document IDs."
    )
    k: int = Field(8, ge=1, le=50, description="Passages to retrieve.")


class CompareRequest(BaseModel):
    documents: list[DocumentId] = Field(
        min_length=2, max_length=MAX_LIST_ITEMS, description="Two or more document IDs."
    )
    aspects: list[Aspect] | None = Field(
        None, max_length=50, description="Aspects to compare (default: task, method, ...)."
    )


class MatrixRequest(BaseModel):
    documents: list[DocumentId] | None = Field(
        None, max_length=MAX_LIST_ITEMS, description="One row per document (default: all)."
    )
    columns: list[Aspect] | None = Field(
        None, max_length=50, description="One column per aspect (default: the matrix's own)."
    )


def download(body: str | bytes, fmt: str, name: str) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{name}.{fmt}"'}
    return Response(body, media_type=MEDIA[fmt], headers=headers)


def _chat_route(app: FastAPI) -> None:
    @app.post("/chat", tags=["library"])
    def chat(body: ChatRequest, request: Request) -> dict[str, Any]:
        """One turn of a conversation the client keeps: the `ask` object of this turn's
        answer, with `question` (as typed) and `resolved` (the standalone question searched;
        send it back in `history`)."""
        svc = request.app.state.service
        history = [PastTurn(t.question, t.resolved, t.answer) for t in body.history]
        with svc.lock:
            modelled = svc.library.chat_uses_model()
        if modelled:  # one model instance: its calls take turns on the writer
            with svc.lock:
                reply = svc.library.chat_turn(body.message, history, body.documents, body.k)
        else:
            with svc.readers.reader() as lib:
                reply = lib.chat_turn(body.message, history, body.documents, body.k)
        result: dict[str, Any] = reply.to_dict()
        return result


def _compare_routes(app: FastAPI) -> None:
    """The aspect x paper comparison, as JSON and as a CSV or Markdown download."""

    @app.post("/compare", tags=["library"])
    def compare(body: CompareRequest, request: Request) -> dict[str, Any]:
        """The `citewise compare --json` object: an aspect x paper table of cells, each
        cited by block, page and quote (or 'not stated'), and the key differences."""
        svc = request.app.state.service
        with svc.lock:
            return dict(svc.library.compare(body.documents, body.aspects).to_dict())

    @app.post(
        "/compare/export",
        tags=["library"],
        response_class=Response,
        responses={200: {"content": {MEDIA["csv"]: {}, MEDIA["md"]: {}}}},
    )
    def compare_export(
        body: CompareRequest,
        request: Request,
        format: Annotated[Literal["csv", "md"], Query(description="csv or md.")] = "csv",
    ) -> Response:
        """The comparison as `citewise compare --csv` or `--markdown` prints it."""
        svc = request.app.state.service
        with svc.lock:
            result = svc.library.compare(body.documents, body.aspects)
        text = comparison_csv(result) if format == "csv" else comparison_markdown(result)
        return download(text, format, "comparison")


def _matrix_routes(app: FastAPI) -> None:
    """The literature matrix, as JSON and as a file download."""

    @app.post("/matrix", tags=["library"])
    def matrix(body: MatrixRequest, request: Request) -> dict[str, Any]:
        """The literature matrix (the `--out FILE.json` object): one row per paper, one cited
        cell per column; cells are cached in the library."""
        svc = request.app.state.service
        with svc.lock:
            built = svc.library.matrix(body.documents, body.columns)
        return dict(built.to_dict())

    @app.post(
        "/matrix/export",
        tags=["library"],
        response_class=Response,
        responses={200: {"content": {m: {} for m in MEDIA.values()}}},
    )
    def matrix_export(
        body: MatrixRequest,
        request: Request,
        format: Annotated[
            str,
            Query(
                pattern=f"^({'|'.join(MATRIX_EXPORTS)})$",
                description=f"{', '.join(MATRIX_EXPORTS)} (xlsx with citewise[matrix]).",
            ),
        ] = "csv",
    ) -> Response:
        """The matrix as the file `citewise matrix --out FILE.<format>` writes (XLSX: each
        cited value links to its page and carries its quote as a comment)."""
        svc = request.app.state.service
        with svc.lock:
            built = svc.library.matrix(body.documents, body.columns)
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / f"matrix.{format}"
            write_matrix(built, out)
            data = out.read_bytes()
        return download(data, format, "matrix")


def analysis_routes(app: FastAPI) -> None:
    _chat_route(app)
    _compare_routes(app)
    _matrix_routes(app)
