"""The parameter models of the tool registry's comparison actions (compare_methods,
build_matrix, extract_setup), for a face that takes them as a request body: POST
/tools/<action> validates the body with them, then runs the action through `Library.tool`
(api/compare.py), which checks the same parameters again."""

from __future__ import annotations

from citewise.agent.actions.tool_actions import (
    BuildMatrixParams,
    CompareMethodsParams,
    ExtractSetupParams,
)

__all__ = ["BuildMatrixParams", "CompareMethodsParams", "ExtractSetupParams"]
