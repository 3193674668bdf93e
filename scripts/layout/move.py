"""Move modules (or test files) into subfolders that name their parts (issue 38, Build 6).

Run at the repo root:  python scripts/layout/move.py --map scripts/layout/MAP.tsv [--check]

A map (tab-separated, repo-root relative paths; `#` starts a comment line) holds
  root<TAB>FOLDER             a folder whose every file (not its subfolders) the map places;
  package<TAB>FOLDER<TAB>DOC  a new package and its __init__.py docstring (one line);
  OLD<TAB>NEW                 a move (the same path twice: the file stays).
With --tolerant (for a map written before other branches were merged) a file in a root that the
map does not list stays where it is and a listed file that is gone is skipped, each printed.
Modules are named from src/ (src/citewise/store/sqlite/db.py is citewise.store.sqlite.db) and test
files from
the root (tests/agent/tables_pdf.py is tests.agent.tables_pdf). A module may become a package
of the same name (documents/pdf/reader.py -> documents/pdf/reader.py beside
documents/pdf/layout.py):
a dotted name or path that goes on into one of the new package's children is left alone.
The script
  1. checks the map: every old file exists (or is already at its new place), no file directly
     in a root is left unplaced, no new dotted name starts with a moved old one (unless the old
     module became that package), so a second run rewrites nothing;
  2. `git mv`s every module that is not at its new place yet and writes an `__init__.py` (with
     the folder's one-line docstring below) for every new package;
  3. rewrites every reference to a moved module in src/, tests/, scripts/, benchmarks/, docs/
     (and pyproject.toml, README.md, .ci/): dotted names anywhere (imports, monkeypatch target
     strings, importlib.resources package names, docs), `from PKG import module` (split by new
     parent), relative imports (made absolute), path strings (`agent/qa.py`,
     `src/citewise/agent/tables/`) and `"agent" / "tables" / "x.json"` path chains;
  4. sorts the imports (ruff --select I --fix) and formats (ruff format) the Python files it
     touched;
  5. in a moved test file one folder deeper, `Path(__file__).parent` and `.parents[N]` get one
     level more, so its data and the repo root stay where they were.
It prints what it moved and what it rewrote, and exits non-zero (before changing anything) if
the map and the tree disagree. Running it twice is safe: the second run moves and rewrites
nothing. With --check it only validates the map against the tree.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import textwrap
import tokenize
from io import StringIO
from pathlib import Path

HERE = Path(__file__).resolve().parent
REWRITE_ROOTS = ("src", "tests", "scripts", "benchmarks", "docs", ".ci")
REWRITE_FILES = ("pyproject.toml", "README.md")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".yaml", ".yml", ".txt", ".cfg", ".ini", ".sh", ""}
LINE = 100  # ruff's line-length (pyproject)
SKIP_PARTS = {"__pycache__", "static", ".git", "node_modules"}


class MapError(Exception):
    pass


class Map:
    """A parsed map: the moves (old, new), the roots it places and the new packages' docs."""

    def __init__(self, path: Path) -> None:
        self.rows: list[tuple[str, str]] = []
        self.roots: list[str] = []
        self.packages: dict[str, str] = {}
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("\t")]
            if parts[0] == "root" and len(parts) == 2:
                self.roots.append(parts[1])
            elif parts[0] == "package" and len(parts) == 3:
                self.packages[parts[1]] = parts[2]
            elif len(parts) == 2:
                self.rows.append((parts[0], parts[1]))
            else:
                raise MapError(f"{path}:{n}: want 'old<TAB>new', got {line!r}")
        olds = [o for o, _ in self.rows]
        news = [n for _, n in self.rows]
        for name, seen in (("old", olds), ("new", news)):
            dup = {p for p in seen if seen.count(p) > 1}
            if dup:
                raise MapError(f"{name} path listed twice: {sorted(dup)}")
        if not self.roots:
            raise MapError(f"{path}: no 'root<TAB>FOLDER' line")


def dotted(path: str) -> str | None:
    """src/citewise/agent/qa.py -> citewise.agent.qa, tests/agent/x.py -> tests.agent.x; a
    package's __init__.py -> the package."""
    p = Path(path)
    if p.suffix != ".py" or p.parts[0] not in ("src", "tests"):
        return None
    parts = list(p.with_suffix("").parts[1:] if p.parts[0] == "src" else p.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def short(path: str) -> str:
    """The path as code and docs write it: below src/citewise/ for modules, else as is."""
    prefix = "src/citewise/"
    return path[len(prefix) :] if path.startswith(prefix) else path


def check(layout: Map, tolerant: bool = False) -> list[tuple[str, str]]:
    """The moves still to do; raises MapError when the map and the tree disagree. Tolerant:
    a listed file that is gone is dropped from the map, a file not listed stays (both said)."""
    rows = layout.rows
    problems = []
    pending = []
    for old, new in list(rows):
        o, n = Path(old), Path(new)
        if tolerant and not o.exists() and not n.exists():
            print(f"gone    {old} (listed, skipped)")
            rows.remove((old, new))
        elif old == new:
            if not o.exists():
                problems.append(f"missing: {old} (listed as staying)")
        elif o.exists() and n.exists():
            problems.append(f"both exist: {old} and {new}")
        elif o.exists():
            pending.append((old, new))
        elif not n.exists():
            problems.append(f"missing: {old} (and not at {new} either)")
    placed = {o for o, _ in rows} | {n for _, n in rows}
    placed |= {f"{p}/__init__.py" for p in layout.packages}
    for root in layout.roots:
        for path in sorted(Path(root).iterdir()):
            if path.is_file() and path.as_posix() not in placed and tolerant:
                print(f"stays   {path.as_posix()} (not in the map)")
                rows.append((path.as_posix(), path.as_posix()))
            elif path.is_file() and path.as_posix() not in placed:
                problems.append(f"not in the map: {path.as_posix()} (add it to the map)")
    ren = Renamer(layout)
    for new in ren.modules.values():
        for old in ren.modules:
            if new.startswith(old + ".") and old not in ren.now_packages:
                problems.append(f"new name {new} starts with moved old name {old}")
    for _, new in rows:
        if ren.path(short(new)) != short(new):
            problems.append(f"new path {short(new)} starts with a moved old path")
    if problems:
        raise MapError("\n".join(problems))
    return pending


def git(*args: str) -> None:
    subprocess.run(["git", *args], check=True)


def move(pending: list[tuple[str, str]], packages: dict[str, str]) -> None:
    for old, new in pending:
        Path(new).parent.mkdir(parents=True, exist_ok=True)
        git("mv", old, new)
        print(f"moved   {old} -> {new}")
    for package, doc in packages.items():
        init = Path(package) / "__init__.py"
        if Path(package).is_dir() and not init.exists():
            wrapped = textwrap.fill(f'"""{doc}"""', width=LINE - 4)
            init.write_text(wrapped + "\n", encoding="utf-8")
            git("add", init.as_posix())
            print(f"created {init}")
    for folder in sorted({Path(o).parent for o, _ in pending}, key=lambda p: -len(p.parts)):
        cache = folder / "__pycache__"
        if cache.is_dir():
            for f in cache.iterdir():
                f.unlink()
            cache.rmdir()
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            print(f"removed empty folder {folder}")


class Renamer:
    """Old -> new for dotted module names and for paths (below src/citewise/ for modules)."""

    def __init__(self, layout: Map) -> None:
        rows = layout.rows
        self.modules = {}
        for old, new in rows:
            o, n = dotted(old), dotted(new)
            if o and n and o != n:
                self.modules[o] = n
        # Every dotted name the new layout has (modules and their packages), and the old
        # modules that are packages now (documents/pdf/reader.py -> documents/pdf/reader.py).
        self.new_names = {n for _, new in rows if (n := dotted(new))}
        self.new_names |= {n for p in layout.packages if (n := dotted(f"{p}/__init__.py"))}
        for name in list(self.new_names):
            while "." in name:
                name = name.rsplit(".", 1)[0]
                self.new_names.add(name)
        self.now_packages = {o for o in self.modules if o in self.new_names}
        self.paths: dict[str, str] = {}
        moved = [(short(o), short(n)) for o, n in rows if o != n]
        for o, n in moved:
            self.paths[o] = n
            if o.endswith(".py"):
                self.paths[o[:-3]] = n[:-3]
        self.now_folders = {o[:-3] for o, _ in moved if o.endswith(".py")}
        self.now_folders &= {short(p) for p in layout.packages} | {
            str(Path(n).parent) for _, n in moved
        }
        # A folder whose every file moves into one new folder is renamed as a whole.
        folders: dict[str, set[str]] = {}
        for o, n in moved:
            folders.setdefault(str(Path(o).parent), set()).add(str(Path(n).parent))
        for o, n in rows:
            if o == n:
                folders.setdefault(str(Path(short(o)).parent), set()).add("")
        for folder, targets in folders.items():
            if len(targets) == 1 and "" not in targets:
                self.paths[folder] = next(iter(targets))
        self._module_keys = sorted(self.modules, key=len, reverse=True)
        self._path_keys = sorted(self.paths, key=len, reverse=True)

    def module(self, name: str) -> str:
        for old in self._module_keys:
            if name == old or name.startswith(old + "."):
                if old in self.now_packages and name != old:
                    child = old + "." + name[len(old) + 1 :].split(".")[0]
                    if child in self.new_names:
                        return name  # already a name inside the package it became
                return self.modules[old] + name[len(old) :]
        return name

    def path(self, text: str) -> str:
        """agent/qa.py, agent/qa.settle_draft, agent/tables/ -> their new paths."""
        for old in self._path_keys:
            if text == old or (text.startswith(old) and text[len(old)] in "/."):
                if old in self.now_folders and (text == old or text[len(old)] == "/"):
                    return text  # the folder the module became
                return self.paths[old] + text[len(old) :]
        return text


CHAIN = re.compile(r'"(\w+)"(?:\s*/\s*"[\w.]+")+')


def path_pattern(roots: list[str]) -> re.Pattern[str]:
    """Paths below the map's roots as text writes them: `store/sqlite/db.py`, `src/citewise/store/`,
    `tests/agent/test_x.py`."""
    names = "|".join(sorted((re.escape(short(r)) for r in roots), key=len, reverse=True))
    return re.compile(rf"(?<![\w./-])((?:src/)?(?:citewise/)?)((?:{names})/[\w./-]*\w)")


def rewrite_text(
    text: str, ren: Renamer, pattern: re.Pattern[str], heads: set[str], python: bool = False
) -> str:
    def name(m: re.Match[str]) -> str:
        # In Python, rewrite_imports already set `from PKG import x` right: a module that
        # became a package of the same name is that package there, not its old module.
        if python and m.group(0) in ren.now_packages and IMPORT.match(text, m.end()):
            return m.group(0)
        return ren.module(m.group(0))

    text = DOTTED.sub(name, text)
    text = pattern.sub(lambda m: m.group(1) + ren.path(m.group(2)), text)

    def chain(m: re.Match[str]) -> str:
        parts = re.findall(r'"([\w.]+)"', m.group(0))
        found = [i for i, p in enumerate(parts) if p in heads]
        if not found:
            return m.group(0)
        i = found[0]
        new = ren.path("/".join(parts[i:]))
        if new == "/".join(parts[i:]):
            return m.group(0)
        return " / ".join(f'"{p}"' for p in parts[:i] + new.split("/"))

    return CHAIN.sub(chain, text)


DOTTED = re.compile(r"\b(?:citewise|tests)(?:\.\w+)+")
IMPORT = re.compile(r"\s+import\b")


def absolute(node: ast.ImportFrom, package: str) -> str:
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def rewrite_imports(text: str, old_package: str | None, ren: Renamer) -> str:
    """Imports that a plain rename cannot fix: `from PKG import module` where the module
    moved (split by its new parent) and relative imports (made absolute)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    lines = text.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            if old_package is None:
                continue
            source = absolute(node, old_package)
        elif node.module and node.module.split(".")[0] in ("citewise", "tests"):
            source = node.module
        else:
            continue
        groups: dict[str, list[str]] = {}
        for alias in node.names:
            full = f"{source}.{alias.name}"
            bound = alias.asname or alias.name
            if full in ren.modules:
                parent, base = ren.modules[full].rsplit(".", 1)
                name = base if bound == base else f"{base} as {bound}"
            elif source in ren.now_packages and full in ren.new_names:
                parent = source  # a child of the package the old module became
                name = alias.name if alias.asname is None else f"{alias.name} as {alias.asname}"
            else:
                parent = ren.module(source)
                name = alias.name if alias.asname is None else f"{alias.name} as {alias.asname}"
            groups.setdefault(parent, []).append(name)
        unchanged = not node.level and list(groups) == [source]
        if unchanged:
            continue
        indent = " " * node.col_offset
        new = f"\n{indent}".join(f"from {p} import {', '.join(ns)}" for p, ns in groups.items())
        end = node.end_lineno or node.lineno
        edits.append((node.lineno, end, node.col_offset, node.end_col_offset or 0, new))
    for start, end, col, end_col, new in sorted(edits, reverse=True):
        first, last = lines[start - 1], lines[end - 1]
        tail = last[end_col:]
        comment = tail.strip()
        if comment.startswith("#"):  # a noqa comment holds for every statement the import became
            new = new.replace("\n", f"  {comment}\n")
        lines[start - 1 : end] = [first[:col] + new + tail]
    return "".join(lines)


def candidates(root: Path) -> list[Path]:
    found = []
    for top in REWRITE_ROOTS:
        base = root / top
        if base.is_dir():
            found += [
                p
                for p in base.rglob("*")
                if p.is_file()
                and p.suffix in TEXT_SUFFIXES
                and not SKIP_PARTS.intersection(p.relative_to(root).parts)
            ]
    found += [root / f for f in REWRITE_FILES if (root / f).is_file()]
    return sorted(found)


def long_lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if len(line) > LINE}


def rewrite(layout: Map, ren: Renamer) -> dict[Path, set[str]]:
    """Rewrite every file that names a moved module; the touched files, each with the lines
    that were over LINE before (left alone: ruff allows them or they carry a noqa)."""
    pattern = path_pattern(layout.roots)
    heads = {short(r).split("/")[0] for r in layout.roots}
    old_package = {}
    for old, new in layout.rows:
        o = dotted(old)
        if o is not None:
            old_package[new] = o if old.endswith("__init__.py") else o.rsplit(".", 1)[0]
    touched = {}
    for path in candidates(Path(".")):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = text
        if path.suffix == ".py":
            new = rewrite_imports(new, old_package.get(path.as_posix()), ren)
        new = rewrite_text(new, ren, pattern, heads, python=path.suffix == ".py")
        if new != text:
            path.write_text(new, encoding="utf-8")
            touched[path] = long_lines(text)
            print(f"rewrote {path}")
    return touched


def tidy(touched: dict[Path, set[str]]) -> None:
    py = [p.as_posix() for p in touched if p.suffix == ".py"]
    if not py:
        return
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "check", "--select", "I", "--fix", "--quiet", *py], check=False)
    subprocess.run([*ruff, "format", "--quiet", *py], check=True)
    for path in py:
        for line in shorten(Path(path), touched[Path(path)]):
            print(f"long line left (shorten by hand): {line}", file=sys.stderr)
    subprocess.run([*ruff, "format", "--quiet", *py], check=True)


def _split_at(line: str, limit: int, seps: str = " ") -> int:
    """Index of the last separator at or before `limit` that is past the indentation."""
    indent = len(line) - len(line.lstrip())
    for i in range(min(limit, len(line) - 1), indent, -1):
        if line[i] in seps:
            return i
    return -1


def _long_line_kinds(text: str, before: set[str]) -> dict[int, str]:
    """Line number -> 'comment', 'doc' (inside a docstring) or 'code' for lines over LINE
    (those that were long `before` the rename are left as they were)."""
    lines = text.splitlines()
    long = {n for n, line in enumerate(lines, 1) if len(line) > LINE}
    long = {n for n in long if lines[n - 1].strip() not in before}
    if not long:
        return {}
    kinds = dict.fromkeys(long, "code")
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            for n in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                if n in kinds:
                    kinds[n] = "doc"
    for n in long:
        if lines[n - 1].lstrip().startswith("#"):
            kinds[n] = "comment"
    return kinds


def _split_code(text: str, number: int) -> tuple[str, str] | None:
    """A long code line split after its last comma inside brackets that fits."""
    depth = 0
    best = -1
    try:
        for tok in tokenize.generate_tokens(StringIO(text).readline):
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
            elif (
                tok.type == tokenize.OP
                and tok.string == ","
                and depth > 0
                and tok.start[0] == number
                and tok.end[1] <= LINE
            ):
                best = tok.end[1]
    except tokenize.TokenError:
        return None
    if best < 0:
        return None
    line = text.splitlines()[number - 1]
    return line[:best].rstrip(), line[best:].lstrip()


def shorten(path: Path, before: set[str]) -> list[str]:
    """Split the lines a rename made longer than LINE: comments and docstrings at a space,
    code after a comma inside brackets (for statements ruff format leaves alone, `fmt: skip`).
    Returns the lines it could not split."""
    original = text = path.read_text(encoding="utf-8")
    for _ in range(5):
        kinds = _long_line_kinds(text, before)
        if not kinds:
            break
        lines = text.splitlines(keepends=True)
        for number in sorted(kinds, reverse=True):
            line = lines[number - 1].rstrip("\n")
            body = line.lstrip()
            indent = line[: len(line) - len(body)]
            if kinds[number] == "code":
                parts = _split_code(text, number)
                if parts is None:
                    continue
                lines[number - 1 : number] = [parts[0] + "\n", indent + parts[1] + "\n"]
                continue
            at = _split_at(line, LINE)
            if at < 0:
                continue
            lead = indent + "# " if kinds[number] == "comment" else indent
            lines[number - 1 : number] = [line[:at] + "\n", lead + line[at + 1 :] + "\n"]
        text = "".join(lines)
    if text != original:
        path.write_text(text, encoding="utf-8")
    return [f"{path}:{n}" for n in _long_line_kinds(text, before)]


FILE_PARENT = re.compile(r"(Path\(__file__\)(?:\.resolve\(\))?)\.parent(?:s\[(\d+)\]|(?![\w\[]))")


def deeper(pending: list[tuple[str, str]]) -> None:
    """In a file moved k folders deeper, `Path(__file__).parent` / `.parents[N]` point k
    levels further up, so what it reads beside its old place stays found."""
    for old, new in pending:
        k = len(Path(new).parts) - len(Path(old).parts)
        if k <= 0 or not new.endswith(".py"):
            continue
        path = Path(new)
        text = path.read_text(encoding="utf-8")

        def up(m: re.Match[str], k: int = k) -> str:
            n = int(m.group(2)) + 1 if m.group(2) is not None else 1
            return f"{m.group(1)}.parents[{n - 1 + k}]"

        fixed = FILE_PARENT.sub(up, text)
        if fixed != text:
            path.write_text(fixed, encoding="utf-8")
            print(f"deeper  {new}: Path(__file__) parents + {k}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--map", type=Path, required=True)
    parser.add_argument("--check", action="store_true", help="only validate the map")
    parser.add_argument(
        "--tolerant",
        action="store_true",
        help="files not in the map stay, listed files that are gone are skipped",
    )
    args = parser.parse_args()
    try:
        layout = Map(args.map)
        missing = [r for r in layout.roots if not Path(r).is_dir()]
        if missing:
            print(f"run me at the repo root ({missing} not found)", file=sys.stderr)
            return 2
        pending = check(layout, args.tolerant)
    except MapError as err:
        print(f"layout map and tree disagree:\n{err}", file=sys.stderr)
        return 1
    if args.check:
        print(f"map ok: {len(pending)} moves to do")
        return 0
    move(pending, layout.packages)
    deeper(pending)
    touched = rewrite(layout, Renamer(layout))
    tidy(touched)
    print(f"{len(pending)} modules moved, {len(touched)} files rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
