"""The FastAPI app: library routes (ask, search, documents, page images) and error shapes.
Chat, compare and matrix routes live in server/analysis.py, research task routes in
server/tasks.py, the event stream in server/events.py, the Host check, token and request
limits in server/guards.py.

Reads (ask, search, documents, pages) run at once, each on a connection of its own
(server/readers.py: WAL readers sharing one warm embedder); the one writer Library, under a
lock, creates and cancels tasks and answers through a language model when one is configured
(one model instance, one call at a time). Research tasks run in worker threads with
Libraries of their own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field, StrictBool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import Match

from citewise.api import Library
from citewise.api.answers import Answer
from citewise.api.research import task_store
from citewise.config import Settings, is_database_url
from citewise.errors import CitewiseError
from citewise.server import limits as server_limits
from citewise.server.analysis import analysis_routes
from citewise.server.compare_routes import compare_routes
from citewise.server.events import EventStreams
from citewise.server.guards import (
    BearerAuth,
    HostGuard,
    RequestLimits,
    allowed_hosts,
    error,
    require_token_off_loopback,
)
from citewise.server.limits import (
    MAX_ID_CHARS,
    MAX_LIST_ITEMS,
    MAX_QUESTION_CHARS,
    Limits,
    RenderBusyError,
)
from citewise.server.nul_bytes import NulByteError, NulGuard
from citewise.server.pages import PageNotFoundError, page_size, render_page
from citewise.server.queue_routes import queue_routes
from citewise.server.readers import ReaderPool
from citewise.server.tasks import TaskRunner, task_routes
from citewise.server.tasks import request_actor as actor
from citewise.server.ui import SHELL_PATHS, ui_routes
from citewise.server.users import User

log = logging.getLogger(__name__)


class Service:
    """What the routes share: the writer library and the lock that serialises its use, the
    readers, the tasks; a connection of their own for event streams; the one render slot."""

    def __init__(
        self, directory: str | Path | None, limits: Limits, settings: Settings | None = None
    ) -> None:
        self.limits = limits
        # The face's Settings (the CLI's), else the environment and citewise.toml read now.
        self.library = Library(directory, settings=settings or Settings.load(directory))
        self.lock = threading.RLock()
        self.readers = ReaderPool(self.library, self.lock, limits.max_readers)
        self.tasks = TaskRunner(self)
        polls = Library(self.library.directory, embeddings=False, settings=self.library.settings)
        self.streams = EventStreams(task_store(polls), polls.close, limits)
        self.render_slot = threading.BoundedSemaphore(1)

    def close(self) -> None:
        self.streams.close()
        self.readers.close()
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
    400: {"model": ErrorBody, "description": "the body is not valid JSON, or text holds NUL"},
    401: {"model": ErrorBody, "description": "a token is set and the request lacks it"},
    404: {"model": ErrorBody, "description": "no such document, page, block or task"},
    408: {"model": ErrorBody, "description": "the request body did not arrive in time"},
    409: {"model": ErrorBody, "description": "the task is not in a state that allows this"},
    413: {"model": ErrorBody, "description": "the request body is too large"},
    421: {"model": ErrorBody, "description": "the Host header names another server"},
    422: {"model": ErrorBody, "description": "bad parameters (each problem listed)"},
    429: {"model": ErrorBody, "description": "too many open streams or running tasks"},
    500: {"model": ErrorBody, "description": "a bug; the server log has the traceback"},
    503: {"model": ErrorBody, "description": "the page renderer stayed busy"},
    504: {"model": ErrorBody, "description": "no answer within the request deadline"},
}


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(CitewiseError)
    async def citewise_error(_: Request, exc: CitewiseError) -> JSONResponse:
        return error(exc.http_status, exc.code, exc.message, exc.hint)

    @app.exception_handler(NulByteError)
    async def nul_byte(_: Request, exc: NulByteError) -> JSONResponse:
        return error(400, exc.code, exc.message, exc.hint)

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
        if isinstance(exc.__cause__, NulByteError):  # FastAPI wraps what a body read raised
            return error(400, exc.__cause__.code, exc.__cause__.message, exc.__cause__.hint)
        code = {
            400: "BAD_BODY",
            404: "NOT_FOUND",
            405: "METHOD_NOT_ALLOWED",
            408: "BODY_TIMEOUT",
            413: "BODY_TOO_LARGE",
        }.get(exc.status_code, "HTTP_ERROR")
        hint = "see /openapi.json for the routes"
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # Allow lists every route on the path (RFC 9110)
            headers["Allow"] = ", ".join(allowed_methods(request))
        return error(exc.status_code, code, str(exc.detail), hint, headers=headers or None)

    @app.exception_handler(Exception)
    async def crashed(_: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return error(
            500,
            "INTERNAL_ERROR",
            f"the server failed on this request ({type(exc).__name__})",
            "this is a bug: the server log has the traceback",
        )


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


# -- request bodies --------------------------------------------------------------------


DocumentId = Annotated[str, Field(max_length=MAX_ID_CHARS)]


class AskRequest(BaseModel):
    question: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="The question, in plain words."
    )
    documents: list[DocumentId] | None = Field(
        None, max_length=MAX_LIST_ITEMS, description="Only these document IDs."
    )
    k: int = Field(8, ge=1, le=50, description="Passages to retrieve.")
    trace: StrictBool = Field(False, description="Add `pipeline`: what each answer shape proposed.")


# -- routes ----------------------------------------------------------------------------


def _record_ask(library: Library, request: Request, question: str, answer: Answer) -> None:
    """Who asked what, and what the answer cited (a shared library's audit log)."""
    cited = [c for sentence in answer.sentences for c in sentence.citations]
    detail = {"refused": answer.refused, "citations": list(dict.fromkeys(cited))}
    library.record_action(actor(request), "ask", question, detail)


def _question_routes(app: FastAPI) -> None:
    """Asking and searching the library."""

    @app.post("/ask", tags=["library"])
    def ask(body: AskRequest, request: Request) -> dict[str, Any]:
        """Exactly the `citewise ask --json` object; a refusal is a 200 with refused=true."""
        svc = service(request)
        with svc.lock:
            generated = svc.library.generator() is not None
        if generated:  # one model instance: its calls take turns on the writer
            with svc.lock:
                answer = svc.library.ask_with_model(body.question, body.documents or [], body.k)
                _record_ask(svc.library, request, body.question, answer)
        else:
            with svc.readers.reader() as lib:
                answer = lib.ask(body.question, body.documents or [], body.k, trace=body.trace)
                _record_ask(lib, request, body.question, answer)
        return answer.to_dict()

    @app.get("/search", tags=["library"])
    def search(
        request: Request,
        q: Annotated[
            str,
            Query(min_length=1, max_length=MAX_QUESTION_CHARS, description="What to look for."),
        ],
        k: Annotated[int, Query(ge=1, le=100)] = 8,
        document: Annotated[list[str] | None, Query(description="Only these documents.")] = None,
    ) -> list[dict[str, Any]]:
        """The best blocks of the local library for `q` (hybrid retrieval, no answer)."""
        svc = service(request)
        with svc.readers.reader() as lib:
            hits = lib.search_records(q, k, document)
            lib.record_action(actor(request), "search", q, {"hits": [h["id"] for h in hits]})
            return hits


def _document_routes(app: FastAPI) -> None:
    """The library's documents: list, details, page images."""

    @app.get("/documents", tags=["library"])
    def documents(request: Request) -> list[dict[str, Any]]:
        """The `citewise list --json` objects."""
        with service(request).readers.reader() as lib:
            return lib.document_list()

    @app.get("/documents/{doc_id}", tags=["library"])
    def document(doc_id: str, request: Request) -> dict[str, Any]:
        """The `citewise show --json` object."""
        with service(request).readers.reader() as lib:
            return lib.document_details(doc_id).to_dict()

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
            str,
            Query(max_length=4000, description="Comma-separated block IDs to box on the page."),
        ] = "",
    ) -> Response:
        """The page rendered as PNG, with the highlighted blocks' bounding boxes drawn."""
        wanted = {b.strip() for b in highlight.split(",") if b.strip()}
        svc = service(request)
        with svc.readers.reader() as lib:
            doc = lib.document(doc_id)
            blocks = lib.blocks(doc.id) if wanted else []
        boxes = [list(b.bbox) for b in blocks if b.id in wanted and b.page == number]
        unknown = wanted - {b.id for b in blocks}
        if unknown:
            raise PageNotFoundError(
                f"no block {', '.join(sorted(unknown))} in document '{doc.id}'",
                hint="use block IDs from /ask evidence or /search hits",
            )
        if not svc.render_slot.acquire(timeout=svc.limits.render_wait_seconds):
            raise RenderBusyError(
                "the page renderer is busy with other pages", hint="retry in a few seconds"
            )
        try:  # one render at a time: a page costs up to max_render_pixels of memory
            png = render_page(doc.path, number, boxes, svc.limits.max_render_pixels)
        finally:
            svc.render_slot.release()
        return Response(png, media_type="image/png")


def _evidence_routes(app: FastAPI) -> None:
    """What the web app's evidence board, document view and usage tab read."""

    @app.get("/blocks/{block_id}", tags=["library"])
    def block(block_id: str, request: Request) -> dict[str, Any]:
        """One block as evidence: quote, page, bbox (PDF points), section, the page's size."""
        with service(request).readers.reader() as lib:
            found = lib.evidence(block_id)
        size = page_size(found.document.path, found.block.page)
        return {**found.to_dict(), "page_size": size}

    @app.get(
        "/documents/{doc_id}/file",
        tags=["library"],
        response_class=Response,
        responses={200: {"content": {"application/pdf": {}}}},
    )
    def document_file(doc_id: str, request: Request) -> Response:
        """The document's PDF itself (open it at a page with #page=N)."""
        with service(request).readers.reader() as lib:
            doc = lib.document(doc_id)
        path = Path(doc.path)
        if path.suffix.lower() != ".pdf" or not path.is_file():
            raise PageNotFoundError(
                f"document '{doc.id}' has no PDF file at '{path}'",
                hint="only PDF documents are served; is the file still there?",
            )
        return FileResponse(path, media_type="application/pdf", content_disposition_type="inline")

    @app.get("/documents/{doc_id}/tables/{label}", tags=["library"])
    def table(doc_id: str, label: str, request: Request) -> dict[str, Any]:
        """A table as cells and a grid (the `citewise table --json` object)."""
        with service(request).readers.reader() as lib:
            return lib.table(doc_id, label).to_dict()

    @app.get("/documents/{doc_id}/equations/{number}", tags=["library"])
    def equation(doc_id: str, number: str, request: Request) -> dict[str, Any]:
        """A numbered equation (the `citewise formula --json` object)."""
        with service(request).readers.reader() as lib:
            return lib.formula(doc_id, number).to_dict()

    @app.get("/usage", tags=["library"])
    def usage(request: Request) -> dict[str, Any]:
        """Model calls logged in this library (the `citewise usage --json` object)."""
        with service(request).readers.reader() as lib:
            return lib.usage().to_dict()


def create_app(
    directory: str | Path | None = None,
    token: str | None = None,
    host: str = "127.0.0.1",
    allow_hosts: Iterable[str] = (),
    limits: Limits | None = None,
    settings: Settings | None = None,
    users: Mapping[str, User] | None = None,
) -> FastAPI:
    """The app for the library at `directory`, bound to `host`: with `token`, every request
    needs it (and a host other than loopback requires one); requests whose Host header is
    not loopback, `host` or one of `allow_hosts` are refused (DNS rebinding)."""
    require_token_off_loopback(host, token or ("users" if users else None))
    chosen = limits or server_limits.DEFAULTS

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.service = Service(directory, chosen, settings)
        try:
            yield
        finally:
            app.state.service.close()

    app = FastAPI(
        title="citewise",
        summary="Ask your PDF library questions; research topics; verifiable citations.",
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
        redirect_slashes=False,  # a redirect would echo the request's Host into Location
        docs_url=None,  # FastAPI's pages load from a CDN: ui.py serves packaged docs at /docs
        redoc_url=None,
        middleware=[
            Middleware(HostGuard, allowed=allowed_hosts(host, allow_hosts)),
            Middleware(BearerAuth, token=token, public=SHELL_PATHS, users=users),
            Middleware(RequestLimits, limits=chosen),
            Middleware(NulGuard),
        ],
    )
    app.state.actor = "token" if token else "local"
    _install_errors(app)
    _question_routes(app)
    _document_routes(app)
    _evidence_routes(app)
    compare_routes(app)
    analysis_routes(app)
    task_routes(app)
    if is_database_url(directory) or (settings is not None and settings.database):
        queue_routes(app)  # only a PostgreSQL library has a job queue
    ui_routes(app)
    return app
