"""The store boundary: only store/ knows SQL, and faces (cli/, server/) never import it.

Both checks walk the real source tree; each is also run on a temporary copy with a planted
violation, so a check that silently stopped finding anything would fail here too.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "citewise"
# Zotero's own database is read with its own SQL: allowed, by name.
SQL_ALLOWED = {"documents/manifests/zotero.py"}
FACES = ("cli", "server")

SQL = re.compile(
    r"\b(SELECT\s+.+?\s+FROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM"
    r"|CREATE\s+(TABLE|INDEX|UNIQUE\s+INDEX|VIRTUAL\s+TABLE|TRIGGER|VIEW)"
    r"|DROP\s+(TABLE|INDEX|TRIGGER|VIEW)|ALTER\s+TABLE|PRAGMA\s+\w+|BEGIN\s+IMMEDIATE)\b",
    re.DOTALL,
)


def _modules(root: Path) -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(root).as_posix(), ast.parse(path.read_text("utf-8")))
        for path in sorted(root.rglob("*.py"))
    ]


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the string constants that are docstrings (prose, not statements)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def _imports(tree: ast.Module) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def sql_violations(root: Path) -> list[str]:
    """`path: what` for every sqlite3 import and SQL string literal outside store/."""
    found = []
    for name, tree in _modules(root):
        if name.startswith("store/") or name in SQL_ALLOWED:
            continue
        for module in _imports(tree):
            if module == "sqlite3" or module.startswith("sqlite3."):
                found.append(f"{name}: imports {module}")
        skip = _docstrings(tree) | {  # an f-string's pieces are read with the f-string
            id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = "".join(
                    v.value if isinstance(v, ast.Constant) else " x " for v in node.values
                )
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in skip:
                    continue
                text = node.value
            else:
                continue
            match = SQL.search(text)
            if match:
                found.append(f"{name}:{node.lineno}: SQL {match.group(0)[:40]!r}")
    return found


def face_violations(root: Path) -> list[str]:
    """`path: module` for every face module that imports citewise.store."""
    return [
        f"{name}: imports {module}"
        for name, tree in _modules(root)
        if name.split("/")[0] in FACES
        for module in _imports(tree)
        if module == "citewise.store" or module.startswith("citewise.store.")
    ]


def test_no_sql_and_no_sqlite3_outside_the_store() -> None:
    assert sql_violations(PACKAGE) == []


def test_faces_do_not_import_the_store() -> None:
    assert face_violations(PACKAGE) == []


def test_the_checks_catch_planted_violations(tmp_path: Path) -> None:
    copy = tmp_path / "citewise"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    planted = copy / "agent" / "planted.py"
    planted.write_text(
        "import sqlite3\n\n\ndef count(db: sqlite3.Connection, table: str) -> int:\n"
        '    """How many rows (a docstring may say SELECT count(*) FROM t)."""\n'
        '    return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]\n'
    )
    (copy / "server" / "planted.py").write_text("from citewise.store.sqlite.db import connect\n")
    assert sql_violations(copy) == [
        "agent/planted.py: imports sqlite3",
        "agent/planted.py:6: SQL 'SELECT count(*) FROM'",
    ]
    assert face_violations(copy) == ["server/planted.py: imports citewise.store.sqlite.db"]
