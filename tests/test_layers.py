"""The layering rules, checked on the source: configuration is read by the faces (through
config.py), and nothing below agent/ imports from it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "citewise"
FACES = ("cli", "server")
# Not yet moved to Settings (named, so a new read anywhere else fails). The parse knobs of
# documents/ and ingest.py travel as documents/options.py ParseOptions (built from the
# settings' environment snapshot by api/library.py, handed to every parse worker).
PENDING_ENV: set[str] = set()
BELOW_AGENT = ("llm", "embed", "sources", "store", "retrieval", "documents", "lang")


def modules() -> list[tuple[str, ast.Module]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        found.append((name, ast.parse(path.read_text(encoding="utf-8"), name)))
    return found


def environment_reads(tree: ast.Module) -> list[int]:
    """Lines that touch os.environ / os.getenv / os.putenv (reads and writes alike)."""
    lines = []
    names = ("environ", "getenv", "putenv")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in names
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
        ):
            lines.append(node.lineno)
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "os"
            and any(a.name in names for a in node.names)
        ):
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
        if name.split("/")[0] in BELOW_AGENT
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


def import_graph() -> dict[str, set[str]]:
    """Module -> the citewise modules it imports anywhere: at module level, under
    TYPE_CHECKING (a type-only cycle still marks a misplaced piece) and inside functions (an
    import moved into a function to dodge a cycle is the same cycle, paid later)."""
    names = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    deps.add(full if full in names else node.module)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        graph[name] = {d for d in deps if d in names and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_check_finds_a_planted_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[a-z-]+(?:,\s*[a-z-]+)*\])?(?P<rest>.*)$")


def unexplained_ignores(source: str) -> list[int]:
    """Lines whose `# type: ignore` names no error code, or gives no reason: a comment
    after it on the line, or a comment line right above (a run of ignored lines may share
    the comment above the run)."""
    lines = source.splitlines()
    offending = []
    for n, line in enumerate(lines):
        found = IGNORE.search(line)
        if found is None:
            continue
        reason = "#" in found.group("rest")
        above = n - 1
        while not reason and above >= 0 and IGNORE.search(lines[above]):
            above -= 1  # the run of ignored lines shares the comment above it
        reason = reason or (above >= 0 and lines[above].strip().startswith("#"))
        if found.group("codes") is None or not reason:
            offending.append(n + 1)
    return offending


def test_every_type_ignore_names_its_code_and_a_reason() -> None:
    offending = [
        f"{path.relative_to(SRC).as_posix()}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        for line in unexplained_ignores(path.read_text(encoding="utf-8"))
    ]
    assert offending == []


@pytest.mark.parametrize(
    "source",
    [
        "x = f()  # type: ignore\n",
        "x = f()  # type: ignore[arg-type]\n",
        "y = 1\nx = f()  # type: ignore[arg-type]\n",
        "# why\nx = f()  # type: ignore\n",
    ],
)
def test_the_ignore_check_catches_a_bare_or_unexplained_ignore(source: str) -> None:
    assert unexplained_ignores(source) != []


def test_the_ignore_check_accepts_a_coded_and_explained_ignore() -> None:
    explained = "# fcntl is POSIX-only\nfcntl = None  # type: ignore[assignment]\n"
    assert unexplained_ignores(explained) == []
    assert unexplained_ignores("x = f()  # type: ignore[misc]  # a typeshed gap\n") == []


def test_the_import_graph_sees_imports_inside_functions() -> None:
    # qa.py imports the numeric answers inside `_answer` only: that edge must still count
    assert "citewise.agent.numeric_answer" in import_graph()["citewise.agent.qa"]
