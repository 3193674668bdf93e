"""The layering rules, checked on the source: configuration is read by the faces (through
config.py), and nothing below agent/ imports from it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "citewise"
FACES = ("cli", "server")
# documents/ is being reworked on the ingest branch (issue 22); its three reads move to
# Settings when that branch lands.
PENDING_ENV = {"documents/ocr.py", "documents/grobid.py", "documents/parallel.py"}
BELOW_AGENT = ("llm", "embed", "sources", "store", "retrieval", "documents")
# The extractive answer selector moves into agent/ once the trust branch (issue 11), which
# rewrites it, has landed.
PENDING_AGENT = {"llm/extractive.py"}


def modules() -> list[tuple[str, ast.Module]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        found.append((name, ast.parse(path.read_text(encoding="utf-8"), name)))
    return found


def environment_reads(tree: ast.Module) -> list[int]:
    """Lines that touch os.environ / os.getenv / os.putenv (reads and writes alike)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "putenv"):
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                lines.append(node.lineno)
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(a.name in ("environ", "getenv", "putenv") for a in node.names):
                lines.append(node.lineno)
    return lines


def agent_imports(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if any(n == "citewise.agent" or n.startswith("citewise.agent.") for n in names):
            lines.append(node.lineno)
    return lines


def test_no_environment_reads_below_the_faces() -> None:
    offending = [
        f"{name}:{line}"
        for name, tree in modules()
        if name.split("/")[0] not in FACES and name != "config.py" and name not in PENDING_ENV
        for line in environment_reads(tree)
    ]
    assert offending == []


def test_services_and_lower_layers_import_nothing_from_agent() -> None:
    offending = [
        f"{name}:{line}"
        for name, tree in modules()
        if name.split("/")[0] in BELOW_AGENT and name not in PENDING_AGENT
        for line in agent_imports(tree)
    ]
    assert offending == []


@pytest.mark.parametrize(
    ("source", "check"),
    [
        ("import os\nkey = os.environ.get('X')\n", environment_reads),
        ("from os import getenv\n", environment_reads),
        ("from citewise.agent.question import analyse\n", agent_imports),
        ("import citewise.agent.qa\n", agent_imports),
    ],
)
def test_the_checks_catch_a_planted_violation(source: str, check: object) -> None:
    assert callable(check)
    assert check(ast.parse(source)) != []
