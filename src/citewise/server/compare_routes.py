"""HTTP routes of the tool registry's comparison actions: POST /tools/compare_methods,
/tools/build_matrix and /tools/extract_setup.

Each is one action of the registry (agent/actions/tools.py) through `Library.tool`: the body is the
action's parameter model, the answer its typed result, a failure its error code and hint;
the MCP tools `compare`, `matrix` and `setup` answer the same. POST /compare
(server/analysis.py, for the web app) answers the same comparison in the same shape.
They run on the writer library, under its lock: extraction caches what it read.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from citewise.api.tools import BuildMatrixParams, CompareMethodsParams, ExtractSetupParams


def compare_routes(app: FastAPI) -> None:
    def run(request: Request, action: str, params: dict[str, Any]) -> dict[str, Any]:
        svc = request.app.state.service  # server/app.py's Service
        with svc.lock:
            result: dict[str, Any] = svc.library.tool(action, params).to_dict()
            return result

    @app.post("/tools/compare_methods", tags=["tools"])
    def compare_methods(body: CompareMethodsParams, request: Request) -> dict[str, Any]:
        """An aspect x paper table: each cell a value cited by a verbatim quote, or not
        stated; key differences built only from cited cells (the MCP `compare` tool)."""
        return run(request, "compare_methods", body.model_dump())

    @app.post("/tools/build_matrix", tags=["tools"])
    def build_matrix(body: BuildMatrixParams, request: Request) -> dict[str, Any]:
        """The literature matrix: one row per paper (all by default), one cited cell per
        column; cells are cached in the library (the MCP `matrix` tool)."""
        return run(request, "build_matrix", body.model_dump())

    @app.post("/tools/extract_setup", tags=["tools"])
    def extract_setup(body: ExtractSetupParams, request: Request) -> dict[str, Any]:
        """Every setting needed to rerun the paper's experiments, each cited, and the ones it
        does not state (the MCP `setup` tool)."""
        return run(request, "extract_setup", body.model_dump())
