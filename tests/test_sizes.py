"""Size floors, checked on the source: no module over 400 lines, no function over 60 lines
(its decorators included) unless the comment line right above it says why (`# long: ...`),
and no folder of more than 25 modules (it gets subfolders that name its parts)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parents[1] / "src" / "citewise"
MODULE_LINES = 400
FUNCTION_LINES = 60
REASON = "# long:"
FOLDER_MODULES = 25
# Folders still past FOLDER_MODULES, each with the reason (named, so a new one fails).
FOLDER_EXCEPTIONS: dict[str, str] = {}

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, Function]]:
    """Every function and method, nested ones too, with its dotted name (Class.method)."""
    found: list[tuple[str, Function]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = prefix + node.name
            found.append((name, node))
            found += _functions(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            found += _functions(node, prefix + node.name + ".")
        else:
            found += _functions(node, prefix)
    return found


def oversized(name: str, text: str) -> list[str]:
    """This module's offenders, one line each: the module itself and each long function
    whose first line (decorator or def) has no `# long: <reason>` comment above it."""
    lines = text.splitlines()
    offenders = []
    if len(lines) > MODULE_LINES:
        offenders.append(f"{name}: {len(lines)} lines (module limit {MODULE_LINES})")
    for qualname, node in _functions(ast.parse(text, name)):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        length = (node.end_lineno or node.lineno) - first + 1
        above = lines[first - 2].strip() if first >= 2 else ""
        if length <= FUNCTION_LINES or above.startswith(REASON):
            continue
        offenders.append(f"{name}:{first} {qualname}: {length} lines (limit {FUNCTION_LINES})")
    return offenders


def test_no_module_or_function_is_over_its_size_limit() -> None:
    offenders = [
        line
        for path in sorted(SRC.rglob("*.py"))
        for line in oversized(path.relative_to(SRC).as_posix(), path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "split these along a seam (or say why with '# long: <reason>'):\n" + (
        "\n".join(offenders)
    )


def _body(lines: int) -> str:
    return "".join(f"    x{n} = {n}\n" for n in range(lines))


def test_the_check_finds_a_long_function_a_long_method_and_a_long_module() -> None:
    source = (
        f"@decorator\ndef long_one():\n{_body(59)}"  # 61 lines with its decorator
        f"def short_one():\n{_body(59)}"  # 60 lines: at the limit
        f"class Holder:\n    def method(self):\n{_body(61).replace('    ', '        ')}"
    )
    padded = source + "# filler\n" * (MODULE_LINES + 1 - len(source.splitlines()))
    found = oversized("planted.py", padded)
    assert found == [
        f"planted.py: {MODULE_LINES + 1} lines (module limit {MODULE_LINES})",
        "planted.py:1 long_one: 61 lines (limit 60)",
        "planted.py:123 Holder.method: 62 lines (limit 60)",
    ]


def test_a_reason_above_the_decorators_exempts_a_long_function() -> None:
    source = f"# long: one option per line\n@decorator\ndef command():\n{_body(70)}"
    assert oversized("planted.py", source) == []
    assert oversized("planted.py", source.replace("# long:", "# note:")) == [
        "planted.py:2 command: 72 lines (limit 60)"
    ]


def crowded(modules: list[str]) -> list[str]:
    """Folders holding more than FOLDER_MODULES modules (`__init__.py` not counted), given
    module paths relative to the package root, one line each."""
    counts: dict[str, int] = {}
    for name in modules:
        folder, _, base = name.rpartition("/")
        if base != "__init__.py":
            counts[folder or "."] = counts.get(folder or ".", 0) + 1
    return [
        f"{folder}/: {n} modules (folder limit {FOLDER_MODULES})"
        for folder, n in sorted(counts.items())
        if n > FOLDER_MODULES
    ]


def test_no_folder_holds_more_modules_than_its_limit() -> None:
    modules = [p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")]
    offenders = [line for line in crowded(modules) if line.split("/:")[0] not in FOLDER_EXCEPTIONS]
    assert not offenders, "give these folders subfolders that name their parts:\n" + (
        "\n".join(offenders)
    )


def test_every_folder_exception_is_still_crowded() -> None:
    crowded_now = {
        line.split("/:")[0]
        for line in crowded([p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")])
    }
    stale = sorted(set(FOLDER_EXCEPTIONS) - crowded_now)
    assert stale == [], (
        f"these folders are within the limit now: take them out of FOLDER_EXCEPTIONS: {stale}"
    )


def test_the_folder_check_finds_a_crowded_folder_and_not_its_subfolders() -> None:
    planted = [f"pack/m{n}.py" for n in range(FOLDER_MODULES)] + ["pack/__init__.py"]
    assert crowded(planted) == []
    planted += ["pack/one_more.py", *(f"pack/sub/s{n}.py" for n in range(FOLDER_MODULES))]
    assert crowded(planted) == [f"pack/: {FOLDER_MODULES + 1} modules (folder limit 25)"]
    assert crowded([f"top{n}.py" for n in range(FOLDER_MODULES + 1)]) == [
        f"./: {FOLDER_MODULES + 1} modules (folder limit 25)"
    ]
