"""The FastAPI app: library routes (ask, search, documents, page images), error shapes, and
bearer-token auth. Research task routes live in server/tasks.py.

One Library (one SQLite connection, the embedder kept warm) serves every request, one at a
time under a lock; research tasks run in worker threads with Libraries of their own.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.routing import Match

from citewise.agent.research.tasks import TaskNotFoundError, TaskStateError
from citewise.api import Library
from citewise.errors import CitewiseError, DocumentNotFoundError
from citewise.server.pages import PageNotFoundError, render_page

NOT_FOUND = (DocumentNotFoundError, TaskNotFoundError, PageNotFoundError)
CONFLICT = (TaskStateError,)


class Service:
    """What the routes share: the library, the lock that serialises its use, the tasks."""

    def __init__(self, directory: str | Path | None) -> None:
        from citewise.server.tasks import TaskRunner

        self.library = Library(directory)
        self.lock = threading.RLock()
        self.tasks = TaskRunner(self)

    def close(self) -> None:
        self.library.close()


def service(request: Request) -> Service:
    found: Service = request.app.state.service
    return found


class ErrorBody(BaseModel):
    """What every error answers: a stable code, what went wrong, what to do next."""

    code: str
    message: str
    hint: str = ""


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "the request body is not valid JSON"},
    401: {"model": ErrorBody, "description": "a token is set and the request lacks it"},
    404: {"model": ErrorBody, "description": "no such document, page, block or task"},
    409: {"model": ErrorBody, "description": "the task is not in a state that allows this"},
    422: {"model": ErrorBody, "description": "bad parameters (each problem listed)"},
}


def error(
    status: int,
    code: str,
    message: str,
    hint: str = "",
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """Every error body: {"code", "message", "hint"} (plus details for bad parameters)."""
    return JSONResponse(
        {"code": code, "message": message, "hint": hint, **extra},
        status_code=status,
        headers=headers,
    )


def _status(exc: CitewiseError) -> int:
    if isinstance(exc, NOT_FOUND):
        return 404
    if isinstance(exc, CONFLICT):
        return 409
    return 422


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(CitewiseError)
    async def citewise_error(_: Request, exc: CitewiseError) -> JSONResponse:
        return error(_status(exc), exc.code, exc.message, exc.hint)

    @app.exception_handler(RequestValidationError)
    async def bad_parameters(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in exc.errors()
        ]
        return error(
            422,
            "INVALID_REQUEST",
            "; ".join(problems) or "invalid request",
            "see /openapi.json for the parameters each endpoint takes",
            errors=jsonable(exc.errors()),
        )

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        code = {400: "BAD_BODY", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(
            exc.status_code, "HTTP_ERROR"
        )
        hint = "see /openapi.json for the routes"
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # Allow lists every route on the path (RFC 9110)
            headers["Allow"] = ", ".join(allowed_methods(request))
        return error(exc.status_code, code, str(exc.detail), hint, headers=headers or None)


def allowed_methods(request: Request) -> list[str]:
    """The methods the app's routes accept on this request's path (Starlette's own 405
    names only the first matching route's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return sorted(methods)


def jsonable(errors: Any) -> Any:
    """Validation errors without the exception objects pydantic puts in `ctx`."""
    return [{k: v for k, v in e.items() if k in ("type", "loc", "msg")} for e in errors]


def _install_auth(app: FastAPI, token: str | None) -> None:
    if not token:
        return
    expected = f"Bearer {token}".encode()

    @app.middleware("http")
    async def bearer(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        given = request.headers.get("authorization", "").encode()
        if not secrets.compare_digest(given, expected):
            response = error(
                401,
                "UNAUTHORIZED",
                "missing or wrong bearer token",
                "send 'Authorization: Bearer TOKEN' (the --token given to 'citewise serve')",
            )
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        return await call_next(request)


# -- request bodies --------------------------------------------------------------------


class AskRequest(BaseModel):
    question: str = Field(min_length=1, description="The question, in plain words.")
    documents: list[str] | None = Field(None, description="Only these document IDs.")
    k: int = Field(8, ge=1, le=50, description="Passages to retrieve.")


# -- routes ----------------------------------------------------------------------------


def _library_routes(app: FastAPI) -> None:
    @app.post("/ask", tags=["library"])
    def ask(body: AskRequest, request: Request) -> dict[str, Any]:
        """Exactly the `citewise ask --json` object; a refusal is a 200 with refused=true."""
        svc = service(request)
        with svc.lock:
            answer = svc.library.ask_with_model(body.question, body.documents or [], body.k)
        return answer.to_dict()

    @app.get("/search", tags=["library"])
    def search(
        request: Request,
        q: Annotated[str, Query(min_length=1, description="What to look for.")],
        k: Annotated[int, Query(ge=1, le=100)] = 8,
        document: Annotated[list[str] | None, Query(description="Only these documents.")] = None,
    ) -> list[dict[str, Any]]:
        """The best blocks of the local library for `q` (hybrid retrieval, no answer)."""
        svc = service(request)
        with svc.lock:
            hits = svc.library.search(q, k, document)
            titles = {d.id: d.title for d in svc.library.documents()}
        return [
            {
                "id": h.block.id,
                "document": h.block.document_id,
                "title": titles.get(h.block.document_id, ""),
                "page": h.block.page,
                "bbox": list(h.block.bbox),
                "section": h.block.section_path,
                "kind": h.block.kind,
                "text": h.block.text,
                "score": round(h.score, 4),
            }
            for h in hits
        ]

    @app.get("/documents", tags=["library"])
    def documents(request: Request) -> list[dict[str, Any]]:
        """The `citewise list --json` objects."""
        svc = service(request)
        with svc.lock:
            return svc.library.document_list()

    @app.get("/documents/{doc_id}", tags=["library"])
    def document(doc_id: str, request: Request) -> dict[str, Any]:
        """The `citewise show --json` object."""
        svc = service(request)
        with svc.lock:
            return svc.library.document_details(doc_id)

    @app.get(
        "/documents/{doc_id}/pages/{number}.png",
        tags=["library"],
        response_class=Response,
        responses={200: {"content": {"image/png": {}}}},
    )
    def page_image(
        doc_id: str,
        number: int,
        request: Request,
        highlight: Annotated[
            str, Query(description="Comma-separated block IDs to box on the page.")
        ] = "",
    ) -> Response:
        """The page rendered as PNG, with the highlighted blocks' bounding boxes drawn."""
        wanted = {b.strip() for b in highlight.split(",") if b.strip()}
        svc = service(request)
        with svc.lock:
            doc = svc.library.document(doc_id)
            blocks = svc.library.blocks(doc.id) if wanted else []
        boxes = [list(b.bbox) for b in blocks if b.id in wanted and b.page == number]
        unknown = wanted - {b.id for b in blocks}
        if unknown:
            raise PageNotFoundError(
                f"no block {', '.join(sorted(unknown))} in document '{doc.id}'",
                hint="use block IDs from /ask evidence or /search hits",
            )
        png = render_page(doc.path, number, boxes)
        return Response(png, media_type="image/png")


def create_app(directory: str | Path | None = None, token: str | None = None) -> FastAPI:
    """The app for the library at `directory`; with `token`, every request needs it."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.service = Service(directory)
        try:
            yield
        finally:
            app.state.service.close()

    from citewise.server.tasks import task_routes

    app = FastAPI(
        title="citewise",
        summary="Ask your PDF library questions; research topics; verifiable citations.",
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
    )
    _install_errors(app)
    _install_auth(app, token)
    _library_routes(app)
    task_routes(app)
    return app
