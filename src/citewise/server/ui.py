"""The web app: static files shipped in the package (server/static/), served at `/`.

With a token, the files load with the bearer header or the web app's cookie, which
opening `/?token=TOKEN` sets (server/guards.py BearerAuth); the app keeps the token from
that link (or asks for it) and sends it as a bearer header on every data request. A
strict Content-Security-Policy lets only these files' own script and
style run: nothing inline, nothing from another origin.
"""

from __future__ import annotations

from dataclasses import asdict
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, Response

from citewise.api.research import ResearchDesk, TaskStore
from citewise.server.pages import PageNotFoundError
from citewise.server.tasks import ReportNotReadyError

STATIC = {  # name -> media type: the only files served, so no path comes from the request
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "viewer.js": "text/javascript; charset=utf-8",
    "views.js": "text/javascript; charset=utf-8",
    "research.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
    # pdf.js (pdfjs-dist, Apache-2.0, vendored unchanged: static/pdfjs/README.md)
    "pdfjs/pdf.min.mjs": "text/javascript; charset=utf-8",
    "pdfjs/pdf.worker.min.mjs": "text/javascript; charset=utf-8",
    # the API docs at /docs: Swagger UI (swagger-ui-dist, Apache-2.0: static/swagger/README.md)
    "docs.js": "text/javascript; charset=utf-8",
    "swagger/swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger/swagger-ui.css": "text/css; charset=utf-8",
}
# GETs a browser makes without a header: with a token, they need the web app's cookie
SHELL_PATHS = frozenset({"/", "/docs", "/openapi.json", *(f"/static/{name}" for name in STATIC)})
UI_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "connect-src 'self'; worker-src 'self'; frame-src 'self' blob:; object-src 'none'; "
    "base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
UI_HEADERS = {
    "Content-Security-Policy": UI_CSP,
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


def static_file(name: str) -> bytes:
    return resources.files("citewise.server").joinpath("static", name).read_bytes()


def completed(svc: Any, task_id: str) -> None:
    """ReportNotReadyError (409) unless the task has completed."""
    task = TaskStore(svc.library.store.tasks).get(task_id)
    if task.state != "completed":
        raise ReportNotReadyError(
            f"task '{task_id}' is {task.state}, not completed",
            hint=f"follow GET /tasks/{task_id}/events; the report comes at the end",
        )


def ui_routes(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return Response(static_file("index.html"), media_type="text/html", headers=UI_HEADERS)

    @app.get("/docs", include_in_schema=False)
    def api_docs() -> Response:
        """Swagger UI over /openapi.json from packaged files: works offline, no CDN."""
        return Response(static_file("docs.html"), media_type="text/html", headers=UI_HEADERS)

    @app.get("/static/{name:path}", include_in_schema=False)
    def asset(name: str) -> Response:
        media = STATIC.get(name)
        if media is None:
            raise PageNotFoundError(f"no file '{name[:100]}' in the web app", hint="open /")
        return Response(static_file(name), media_type=media, headers=UI_HEADERS)

    @app.get("/tasks/{task_id}/references.json", tags=["research"])
    def task_references(task_id: str, request: Request) -> Response:
        """The completed report's bibliography as CSL-JSON (what the Markdown cites)."""
        svc = request.app.state.service
        with svc.lock:
            completed(svc, task_id)
            rendered = ResearchDesk(svc.library).render(task_id)
        return Response(rendered.csl, media_type="application/json")

    @app.get("/tasks/{task_id}/claims", tags=["research"])
    def task_claims(task_id: str, request: Request) -> dict[str, Any]:
        """A completed report's sections and claims with the evidence each cites (block,
        page, bbox, quote): what the web app links to the evidence board."""
        svc = request.app.state.service
        with svc.lock:
            completed(svc, task_id)
            desk = ResearchDesk(svc.library)
            report = desk.report(task_id)
            evidence = desk.tasks.evidence(task_id)
        return {
            "task": task_id,
            "topic": report.topic,
            "sections": [asdict(s) for s in report.sections],
            "evidence": {e.id: asdict(e) for e in evidence},
        }
