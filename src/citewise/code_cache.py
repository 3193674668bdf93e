"""Code the interpreter compiles at run time, kept between runs of the `citewise` command.

Two kinds of code are compiled anew by every process, from text that is the same every run:

- the methods `@dataclass` writes (`__init__`, `__repr__`, `__eq__`; for a frozen class also
  `__setattr__`, `__delattr__`, `__hash__`), each compiled with `exec`: ~0.2 ms a method on
  Python 3.11, ~80 ms of an `ask`, whose modules define ~90 dataclasses (~430 methods);
- regular expressions, parsed and translated into the regex engine's program in Python:
  ~90 ms of an `ask` (~180 patterns: citewise's, the standard library's, Rich's).

Both are kept in the user's cache the way Python keeps a module's bytecode in `__pycache__`:
one file, named for the interpreter's bytecode format and checked against it and the regex
engine's version, keyed by the whole source text (and a pattern's flags). A changed class or
pattern is a new key, so nothing can go stale; a missing, unreadable or foreign file means
compiling anew. What goes to the regex engine and to `exec` is what the standard library
would have passed. Only the `citewise` command installs this (`citewise/launch.py`), never
an import of citewise as a library. Like bytecode, the file is trusted: it is the user's own.
"""

from __future__ import annotations

import atexit
import dataclasses
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

# A cache past this many entries (older versions' classes and patterns) is written again
# with only what this run used.
MOST_ENTRIES = 8192


class CodeCache:
    """What one process has read from the cache file or compiled itself."""

    def __init__(self, path: Path, version: bytes) -> None:
        self.path, self.version = path, version
        self.entries: dict[tuple[Any, ...], bytes] = self._read()
        self.used: set[tuple[Any, ...]] = set()
        self.added = 0

    def _read(self) -> dict[tuple[Any, ...], bytes]:
        try:
            data = self.path.read_bytes()
            if not data.startswith(self.version):
                return {}
            entries = marshal.loads(data[len(self.version) :])
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        return entries if type(entries) is dict else {}

    def get(self, key: tuple[Any, ...]) -> Any:
        """The value kept under `key`, or None. Each value is marshalled apart and read when
        asked for: a command uses a fraction of what all commands have kept."""
        self.used.add(key)
        kept = self.entries.get(key)
        if type(kept) is not bytes:
            return None
        try:
            return marshal.loads(kept)
        except (EOFError, ValueError, TypeError):
            return None

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        try:
            self.entries[key] = marshal.dumps(value)
        except ValueError:  # a value marshal cannot write is compiled again next time
            return
        self.added += 1

    def method_code(self, source: str) -> CodeType:
        """`source` compiled as `exec` compiles it inside `dataclasses` (a module without
        `__future__` imports, hence `dont_inherit`)."""
        key = ("exec", source)
        code = self.get(key)
        if type(code) is not CodeType:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.put(key, code)
        return code

    def save(self) -> None:
        """Write the file when this run compiled something new; never fails the command."""
        if not self.added or sys.dont_write_bytecode:
            return
        keep = self.entries
        if len(keep) > MOST_ENTRIES:
            keep = {key: self.entries[key] for key in self.used if key in self.entries}
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(self.version + marshal.dumps(keep))
            os.replace(partial, self.path)  # readers see the old file or the new, never half
        except (OSError, ValueError):
            partial.unlink(missing_ok=True)


def cache_file(folder: Path) -> Path:
    tag = sys.implementation.cache_tag or "python"
    return folder / f"compiled-code.{tag}.marshal"


def install(folder: Path) -> CodeCache:
    """From now on, dataclass methods and regular expressions are compiled from the cache
    file in `folder` when they are in it; what this process adds is written at exit."""
    from importlib.util import MAGIC_NUMBER
    from re import _compiler, _constants  # type: ignore[attr-defined]  # private, no stubs

    version = MAGIC_NUMBER + f"/sre {_constants.MAGIC}/".encode()
    cache = CodeCache(cache_file(folder), version)
    _cache_dataclass_methods(cache)
    _cache_regex_programs(cache, _compiler)
    atexit.register(cache.save)
    return cache


def _cache_dataclass_methods(cache: CodeCache) -> None:
    def cached_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
        if isinstance(source, str):
            source = cache.method_code(source)
        exec(source, globals, locals)  # noqa: S102  # the code dataclasses would have run

    # `exec` in the module's globals comes before the builtin, so only dataclasses' own
    # calls (the methods it writes) go through the cache.
    dataclasses.exec = cached_exec  # type: ignore[attr-defined]  # a new module global


def _cache_regex_programs(cache: CodeCache, compiler: Any) -> None:
    """`re` parses a pattern and writes the engine's program in Python, then hands both to
    `_sre.compile`; what it handed over is kept and handed over again next time."""
    import _sre
    import threading
    import types

    parse_and_compile = compiler.compile
    handed = threading.local()  # what this thread's last compile handed to the engine

    def recording_compile(pattern: Any, *program: Any) -> Any:
        handed.program = program
        return _sre.compile(pattern, *program)

    engine = types.ModuleType("_sre")
    engine.__dict__.update(_sre.__dict__)
    engine.compile = recording_compile  # type: ignore[attr-defined]  # set on a module object
    compiler._sre = engine

    def cached_compile(p: Any, flags: int = 0) -> Any:
        if type(p) not in (str, bytes) or flags & compiler.SRE_FLAG_DEBUG:
            return parse_and_compile(p, flags)
        key = ("re", p, int(flags))
        program = cache.get(key)
        if type(program) is tuple:
            try:
                return _sre.compile(p, *program)
            except (RuntimeError, TypeError, ValueError):  # not a program this engine takes
                pass
        handed.program = None
        compiled = parse_and_compile(p, flags)
        if handed.program is not None:
            final_flags, code, *groups = handed.program
            # the program's opcodes are int subclasses with names, which marshal refuses
            cache.put(key, (final_flags, [int(op) for op in code], *groups))
        return compiled

    compiler.compile = cached_compile
