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
# The faces import api/ only. Faces: the CLI, the HTTP server with its web app and MCP server
# (server/), the queue's workers (workers/: jobs run through api/). Besides api/, a face may
# import another face (`citewise serve` starts server/) and what is listed here, the one
# place that says so (docs/architecture.md, "Layers and data flow", repeats it):
FACE_PACKAGES = ("cli", "server", "workers")
FACE_MAY_IMPORT = (
    "citewise",  # the package itself (__version__)
    "citewise.errors",  # CitewiseError and its kinds: a leaf every layer raises from
    "citewise.config",  # Settings: a leaf the face builds once and hands to api/
    "citewise.report",  # renderers of api/ results (terminal, Markdown, HTML): render only
    "citewise.eval.render",  # the terminal tables of `citewise eval` results
)
# workers/app.py names the jobs and makes the queue's app; api/ imports it (api/queue.py), so
# it sits below api/ and may not import it back (that would be a cycle).
NOT_A_FACE = {"workers/app.py"}
# Face modules still reaching past api/ (named, so a new one anywhere else fails).
PENDING_FACE_IMPORTS: set[str] = set()
# Domain packs (agent/packs/) register their shapes; the rest of agent/ never imports one.
# The finance pack registers its scope hook and proposer (agent/packs/__init__.py, from api/).
PACKS = "citewise.agent.packs"
PENDING_PACK_IMPORTS: set[str] = set()


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


def relative_imports(tree: ast.Module) -> list[int]:
    """Lines of `from . import x` / `from .m import x`: every check here reads absolute
    imports, so a relative one would hide an edge from the layer, face and cycle checks."""
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]


def test_every_import_is_absolute() -> None:
    offending = [f"{name}:{line}" for name, tree in modules() for line in relative_imports(tree)]
    assert offending == []


def imported_modules(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every absolute citewise import: at module level, under
    TYPE_CHECKING and inside functions; `from citewise import x` counts as citewise.x."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "citewise":
                found += [(node.lineno, f"citewise.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return [(line, m) for line, m in found if m == "citewise" or m.startswith("citewise.")]


def face_may_import(module: str) -> bool:
    """api/, a face, or one of FACE_MAY_IMPORT (a package there with its modules)."""
    roots = ("citewise.api", *(f"citewise.{f}" for f in FACE_PACKAGES), *FACE_MAY_IMPORT[1:])
    return module == "citewise" or any(module == r or module.startswith(f"{r}.") for r in roots)


def past_api(tree: ast.Module) -> list[tuple[int, str]]:
    """The imports of a face module that reach past api/ and the allowed leaves."""
    return [(line, m) for line, m in imported_modules(tree) if not face_may_import(m)]


def test_faces_import_only_api_and_the_allowed_leaves() -> None:
    offending = [
        f"{name}:{line} {module}"
        for name, tree in modules()
        if name.split("/")[0] in FACE_PACKAGES and name not in NOT_A_FACE
        for line, module in past_api(tree)
        if f"{name} {module}" not in PENDING_FACE_IMPORTS
    ]
    assert offending == []


@pytest.mark.parametrize(
    "source",
    [
        "from citewise.agent.comparison.aspects import parse_aspects\n",
        "from citewise import agent\n",
        "import citewise.store.sqlite.library\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from citewise.ingest import X\n",
        "def f():\n    from citewise.sources.search.intent import parse_intent\n",
        "from citewise.apis import x\n",
        "from citewise.reporting import x\n",
    ],
)
def test_the_face_check_catches_an_import_past_api(source: str) -> None:
    assert past_api(ast.parse(source)) != []


def test_the_face_check_lets_api_faces_and_the_leaves_through() -> None:
    source = (
        "import citewise\n"
        "from citewise import api\n"
        "from citewise.api.aspects import parse_aspects\n"
        "from citewise.server.app import create_app\n"
        "from citewise.errors import CitewiseError\n"
        "from citewise.config import Settings\n"
        "from citewise.report.terminal import safe\n"
        "from citewise.eval.render import print_eval\n"
    )
    assert past_api(ast.parse(source)) == []


def pack_imports(name: str, tree: ast.Module) -> list[tuple[int, str]]:
    """The imports of a pack by an agent/ module outside agent/packs/."""
    if not name.startswith("agent/") or name.startswith("agent/packs/"):
        return []
    return [
        (line, m) for line, m in imported_modules(tree) if m == PACKS or m.startswith(PACKS + ".")
    ]


def test_the_agent_imports_no_domain_pack() -> None:
    offending = [
        f"{name}:{line} {module}"
        for name, tree in modules()
        for line, module in pack_imports(name, tree)
        if f"{name} {module}" not in PENDING_PACK_IMPORTS
    ]
    assert offending == []


def test_the_pack_check_catches_a_planted_import_and_lets_packs_and_api_through() -> None:
    planted = ast.parse("def f():\n    from citewise.agent.packs.finance import filings\n")
    assert pack_imports("agent/sentences/draft.py", planted) != []
    assert pack_imports("agent/packs/finance/filing_answer.py", planted) == []
    assert pack_imports("api/library.py", planted) == []


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
        ("from citewise.agent.ask.question import analyse\n", agent_imports),
        ("import citewise.agent.ask.qa\n", agent_imports),
        ("from .qa import answer\n", relative_imports),
        ("def f():\n    from . import qa\n", relative_imports),
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
    # the `table` proposer imports the numeric answers inside `propose` only: that edge
    # must still count
    graph = import_graph()
    assert "citewise.agent.numeric.numeric_answer" in graph["citewise.agent.ask.proposers"]
