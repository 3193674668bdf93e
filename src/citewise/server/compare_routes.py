"""HTTP routes for comparing papers: POST /compare, POST /matrix, GET /documents/{id}/setup.

Each is one action of the tool registry (agent/tools.py) through `Library.tool`: the body is
the action's parameter model, the answer its typed result, a failure its error code and
hint (the MCP tools of the same names answer the same). They run on the writer library,
under its lock: extraction caches what it read in the library.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from citewise.agent.tool_actions import BuildMatrixParams, CompareMethodsParams


def compare_routes(app: FastAPI) -> None:
    def run(request: Request, action: str, params: dict[str, Any]) -> dict[str, Any]:
        svc = request.app.state.service  # server/app.py's Service
        with svc.lock:
            result: dict[str, Any] = svc.library.tool(action, params)
            return result

    @app.post("/compare", tags=["compare"])
    def compare(body: CompareMethodsParams, request: Request) -> dict[str, Any]:
        """An aspect x paper table: each cell a value cited by a verbatim quote, or not
        stated; key differences built only from cited cells (the MCP `compare` tool)."""
        return run(request, "compare_methods", body.model_dump())

    @app.post("/matrix", tags=["compare"])
    def matrix(body: BuildMatrixParams, request: Request) -> dict[str, Any]:
        """The literature matrix: one row per paper (all by default), one cited cell per
        column; cells are cached in the library (the MCP `matrix` tool)."""
        return run(request, "build_matrix", body.model_dump())

    @app.get("/documents/{doc_id}/setup", tags=["compare"])
    def setup(doc_id: str, request: Request) -> dict[str, Any]:
        """Every setting needed to rerun the paper's experiments, each cited, and the ones it
        does not state (the MCP `setup` tool)."""
        return run(request, "extract_setup", {"document": doc_id})
