"""The command's compiled-code cache (citewise/code_cache.py) changes nothing but time: the
same patterns and dataclasses behave alike with no cache, a cold one and a warm one; a warm
run compiles nothing; a broken or foreign file is compiled anew; only the command installs it.
Each run is a fresh interpreter with its own cache folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).parents[2] / "src"

# Patterns and classes of every kind the engine and dataclasses handle differently.
PROBE = r'''
import dataclasses, json, re, sys
from typing import ClassVar
cache = None
if sys.argv[1] == "cached":
    from citewise import code_cache
    from citewise.config import cache_dir
    cache = code_cache.install(cache_dir())

PATTERNS = [
    (r"(?P<year>(?:19|20)\d\d)-(?P<month>\d\d)", 0),
    (r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b", 0),
    (r"(?<=\$)\s?[\d,]+(?:\.\d+)?\s*(million|billion)?", re.I),
    (r"^\s*(?:table|tab\.)\s+(\d+)\s*[:.]", re.I | re.M),
    (r"[\u4e00-\u9fff]+|[a-z]+", 0),
    (r"(a)?(?(1)b|c)", 0),
    (r"(?>a+)b|x*+y", 0),
    (r"""(?x) \d+   # digits
         (?:\.\d+)? # decimals""", 0),
    (rb"[\x00-\x1f]+|\xff", 0),
    (rb"(?i)caf\xe9", re.L),
    (r"colou?r", re.A),
    (r"(.)\1", re.S),
]
TEXT = "In 2019-03 the Total Revenue was $ 1,234.5 million; Tab. 3: 表格 data aab xxy colour cafe"
patterns = []
for source, flags in PATTERNS:
    p = re.compile(source, flags)
    text = TEXT.encode("latin-1", "replace") if isinstance(source, bytes) else TEXT
    patterns.append([p.flags, p.groups, dict(p.groupindex), repr(p.findall(text)),
                     repr(p.sub(b"#" if isinstance(source, bytes) else "#", text))])

for broken in ("(unclosed", "a{2,1}", "(?P<x>a)(?P<x>b)"):
    try:
        re.compile(broken)
    except re.error as exc:
        patterns.append(str(exc))

@dataclasses.dataclass(frozen=True)
class Cell:
    row: int
    text: str = ""
    boxes: tuple = ()

@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Span:
    start: int
    end: int

@dataclasses.dataclass(kw_only=True)
class Note:
    body: str
    tags: list = dataclasses.field(default_factory=list)
    scale: dataclasses.InitVar[int] = 1
    total: int = 0
    kind: ClassVar[str] = "note"
    def __post_init__(self, scale):
        self.total = len(self.body) * scale

@dataclasses.dataclass(eq=False)
class Loose(Note):
    extra: float = 0.5

def frozen_error(obj):
    try:
        obj.row = 3
    except dataclasses.FrozenInstanceError as exc:
        return type(exc).__name__
    return "mutable"

a, b = Cell(1, "x"), Cell(1, "x")
note = Note(body="abc", scale=2)
classes = [
    repr(a), a == b, hash(a) == hash(b), frozen_error(a), Cell.__doc__,
    repr(Span(1, 2)), Span(1, 2) < Span(1, 3), hasattr(Span(1, 2), "__dict__"),
    repr(note), note.total, Note(body="a") == Note(body="a"), Note.kind,
    repr(Loose(body="q")), Loose(body="q") == Loose(body="q"),
    [f.name for f in dataclasses.fields(Loose)], str(Note.__init__.__annotations__),
]
print(json.dumps({"patterns": patterns, "classes": classes,
                  "added": cache.added if cache else None}))
'''


def run(probe_mode: str, cache_home: Path, **env: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, probe_mode],
        env={
            "PYTHONPATH": str(SRC),
            "PATH": "/usr/bin:/bin",
            "XDG_CACHE_HOME": str(cache_home),
            **env,
        },
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def cache_files(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "citewise").glob("compiled-code.*"))


def test_cold_and_warm_runs_behave_as_without_the_cache(tmp_path: Path) -> None:
    plain = run("plain", tmp_path)
    cold = run("cached", tmp_path)
    [written] = cache_files(tmp_path)
    warm = run("cached", tmp_path)
    assert cold["added"] >= len(plain["patterns"])  # every pattern and method was new
    assert warm["added"] == 0  # nothing compiled the second time
    for result in (cold, warm):
        assert result["patterns"] == plain["patterns"]
        assert result["classes"] == plain["classes"]
    assert plain["classes"][3] == "FrozenInstanceError" and plain["classes"][9] == 6
    assert written.stat().st_size > 0


def test_a_broken_or_foreign_file_is_compiled_anew_and_replaced(tmp_path: Path) -> None:
    plain = run("plain", tmp_path)
    run("cached", tmp_path)
    [written] = cache_files(tmp_path)
    whole = written.read_bytes()
    for broken in (whole[: len(whole) // 2], b"garbage", b"", b"\x00" * 64 + whole[64:]):
        written.write_bytes(broken)
        again = run("cached", tmp_path)
        assert again["patterns"] == plain["patterns"] and again["classes"] == plain["classes"]
        assert again["added"] > 0
        assert run("cached", tmp_path)["added"] == 0  # and the file was written whole again


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path: Path) -> None:
    assert run("cached", tmp_path, PYTHONDONTWRITEBYTECODE="1")["added"] > 0
    assert cache_files(tmp_path) == []


def test_only_the_command_installs_it(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "XDG_CACHE_HOME": str(tmp_path),
        "CITEWISE_CONFIG": os.devnull,
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    probe = "import dataclasses, citewise.cli; print('exec' in vars(dataclasses))"
    imported = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    assert imported.stdout.strip() == "False" and cache_files(tmp_path) == []
    subprocess.run(
        [sys.executable, "-m", "citewise", "--help"], env=env, capture_output=True, check=True
    )
    assert len(cache_files(tmp_path)) == 1
