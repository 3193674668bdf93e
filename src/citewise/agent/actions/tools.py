"""The tool registry: typed actions with contracts, for deterministic routing or a planner.

A plan step is `{"action", "params", "next_step"}` JSON. `execute` validates the action and
its parameters (pydantic), runs it, checks the result's postconditions, and returns a
`ToolOutcome`: the typed result, or an error code with a hint saying how to recover. The
same registry is what an MCP server would expose (`schemas()`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from citewise.agent.actions import tool_actions as a
from citewise.agent.comparison.extraction import cited_in
from citewise.agent.generation.verify import SUPPORT_THRESHOLD
from citewise.documents.math.formulas import parse_equation_id
from citewise.errors import CitewiseError, Kind

COMMON_ERRORS = ("UNKNOWN_ACTION", "INVALID_PARAMS", "POSTCONDITION_FAILED")


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: type[BaseModel]
    result: type[BaseModel]
    run: Callable[[Any, Any], BaseModel]
    errors: tuple[str, ...]
    postcondition: Callable[[Any, Any], str | None]  # (params, result) -> violation or None


def _cited(quote: str, value: str) -> bool:
    """The value occurs in its quote (a cell cut short ends in an ellipsis the quote lacks; a
    cell shows the quote's converter placeholders left out)."""
    return cited_in(value, quote)


def _search_post(p: a.SearchLibraryParams, r: a.SearchLibraryResult) -> str | None:
    if p.documents and any(h.document not in p.documents for h in r.hits):
        return "a hit lies outside the requested documents"
    if p.page is not None and any(h.page != p.page for h in r.hits):
        return "a hit lies outside the requested page"
    return "more hits than k" if len(r.hits) > p.k else None


def _cells_cited(cells: Sequence[a.Cell]) -> str | None:
    for c in cells:
        if c.stated and (c.citation is None or not _cited(c.citation.quote, c.value)):
            return f"cell {c.aspect}/{c.document} is not in its quote"
        if not c.stated and c.citation is not None:
            return f"unstated cell {c.aspect}/{c.document} carries a citation"
    return None


def _compare_post(p: a.CompareMethodsParams, r: a.CompareMethodsResult) -> str | None:
    cited = {c.citation.block for c in r.cells if c.citation}
    if any(not set(d.citations) <= cited for d in r.differences):
        return "a difference cites a block no cell cites"
    return _cells_cited(r.cells)


def _matrix_post(p: a.BuildMatrixParams, r: a.BuildMatrixResult) -> str | None:
    if p.documents and len(r.rows) != len(p.documents):
        return "not one row per requested paper"
    if any(list(row.cells) != r.columns for row in r.rows):
        return "a row's cells are not the requested columns"
    if any(c.aspect != column for row in r.rows for column, c in row.cells.items()):
        return "a cell sits under another column"
    return _cells_cited([c for row in r.rows for c in row.cells.values()])


def _setup_post(p: a.ExtractSetupParams, r: a.ExtractSetupResult) -> str | None:
    bad = [v for v in r.values if not _cited(v.citation.quote, v.value)]
    return f"{bad[0].aspect} value is not in its quote" if bad else None


def _table_post(p: a.LookupTableParams, r: a.LookupTableResult) -> str | None:
    return None if r.rows else "the table has no rows"


def _formula_post(p: a.ExtractFormulaParams, r: a.ExtractFormulaResult) -> str | None:
    wanted = parse_equation_id(p.number)
    return None if r.number == wanted else f"asked for ({wanted}), got ({r.number})"


def _conclusion_post(p: a.ValidateConclusionParams, r: a.ValidateConclusionResult) -> str | None:
    if r.supported and (not r.evidence or r.support < SUPPORT_THRESHOLD):
        return "a supported conclusion without sufficient evidence"
    return None


REGISTRY: dict[str, Tool] = {
    t.name: t
    for t in (
        Tool("search_library", "Blocks of the library that match a query, with pages.",
             a.SearchLibraryParams, a.SearchLibraryResult, a.search_library,
             ("PAPER_NOT_FOUND", "PAGE_OUT_OF_RANGE"), _search_post),
        Tool("compare_methods", "An aspect x paper table of cited cells, plus differences.",
             a.CompareMethodsParams, a.CompareMethodsResult, a.compare_methods,
             ("PAPER_NOT_FOUND", "UNKNOWN_ASPECT", "ASPECT_EMPTY"), _compare_post),
        Tool("build_matrix", "The literature matrix: one row per paper, a cited cell per column.",
             a.BuildMatrixParams, a.BuildMatrixResult, a.build_matrix,
             ("PAPER_NOT_FOUND", "UNKNOWN_ASPECT"), _matrix_post),
        Tool("extract_setup", "A paper's experiment settings, each cited.",
             a.ExtractSetupParams, a.ExtractSetupResult, a.extract_setup,
             ("PAPER_NOT_FOUND", "ASPECT_EMPTY"), _setup_post),
        Tool("lookup_table", "A labelled table of a paper as rows of cells.",
             a.LookupTableParams, a.LookupTableResult, a.lookup_table,
             ("PAPER_NOT_FOUND", "TABLE_NOT_FOUND"), _table_post),
        Tool("extract_formula", "A numbered display equation of a paper.",
             a.ExtractFormulaParams, a.ExtractFormulaResult, a.extract_formula,
             ("PAPER_NOT_FOUND", "FORMULA_NOT_FOUND", "INVALID_EQ_ID"), _formula_post),
        Tool("validate_conclusion", "Whether a passage of the library states a claim.",
             a.ValidateConclusionParams, a.ValidateConclusionResult, a.validate_conclusion,
             ("PAPER_NOT_FOUND", "NO_EVIDENCE"), _conclusion_post),
    )
}  # fmt: skip


class ToolError(BaseModel):
    code: str
    message: str
    hint: str = ""
    kind: Kind = "failed"  # errors.KINDS: how a face answers it (exit code, HTTP status)


class ToolOutcome(BaseModel):
    action: str
    ok: bool
    result: dict[str, Any] | None = None
    error: ToolError | None = None
    next_step: str | None = None


class PlanStep(BaseModel):
    """What a planning model may emit, and nothing else."""

    action: str
    params: dict[str, Any] = Field(default_factory=dict)
    next_step: str | None = None


def _failure(
    action: str, code: str, message: str, hint: str = "", kind: Kind = "invalid"
) -> ToolOutcome:
    error = ToolError(code=code, message=message, hint=hint, kind=kind)
    return ToolOutcome(action=action, ok=False, error=error)


def execute(lib: Any, action: str, params: dict[str, Any]) -> ToolOutcome:
    """Validate, run, check; never raises for a caller's mistake."""
    tool = REGISTRY.get(action)
    if tool is None:
        return _failure(
            action, "UNKNOWN_ACTION", f"no action '{action}'", "actions: " + ", ".join(REGISTRY)
        )
    try:
        p = tool.params.model_validate(params)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        schema = json.dumps(tool.params.model_json_schema()["properties"])
        return _failure(action, "INVALID_PARAMS", problems, f"parameters: {schema}")
    try:
        result = tool.run(lib, p)
    except CitewiseError as exc:
        return _failure(action, exc.code, exc.message, exc.hint, exc.kind)
    violation = tool.postcondition(p, result)
    if violation:
        return _failure(
            action, "POSTCONDITION_FAILED", violation, "this is a bug in citewise", "failed"
        )
    return ToolOutcome(action=action, ok=True, result=result.model_dump())


def run_step(lib: Any, step: str | dict[str, Any]) -> ToolOutcome:
    """Execute one plan step given as JSON text or a dict."""
    try:
        parsed = (
            PlanStep.model_validate_json(step)
            if isinstance(step, str)
            else (PlanStep.model_validate(step))
        )
    except ValidationError as exc:
        return _failure(
            "?",
            "INVALID_PARAMS",
            str(exc.errors()[0]["msg"]),
            'a step is {"action": ..., "params": {...}, "next_step": ...}',
        )
    outcome = execute(lib, parsed.action, parsed.params)
    return outcome.model_copy(update={"next_step": parsed.next_step})


def schemas() -> list[dict[str, Any]]:
    """Every action's name, description, parameter and result JSON schemas, error codes."""
    return [
        {
            "name": t.name,
            "description": t.description,
            "parameters": t.params.model_json_schema(),
            "result": t.result.model_json_schema(),
            "errors": list(t.errors + COMMON_ERRORS),
        }
        for t in REGISTRY.values()
    ]
