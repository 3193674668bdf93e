"""Start-up: whole `citewise` processes against `python -c pass` on the same machine.

    python benchmarks/startup.py --library DIR [--src TREE/src] [--runs 10]
        [--question "..."] [--pdf FILE] [--importtime]

Times `--help`, `list`, `ask` (one question on DIR), `search --help` and `ingest` of one
PDF into a fresh library (default: N18-3011.pdf of ../shared/corpus, 8 pages) as fresh
processes (median and max of `--runs`, interleaved so a busy moment hits every command
alike), next to the interpreter's own start-up, the floor no command can beat.
`--importtime` prints the ten slowest imports of `citewise --help`, `list` and `ask`
(cumulative, from `python -X importtime`), which is what dominates each number.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


INGEST = "citewise ingest (one PDF, fresh library)"


def commands(library: Path, question: str, pdf: Path, fresh: Path) -> dict[str, list[str]]:
    cli = [sys.executable, "-m", "citewise", "-L", str(library)]
    return {
        "python -c pass (floor)": [sys.executable, "-c", "pass"],
        "citewise --help": [*cli, "--help"],
        "citewise list": [*cli, "list"],
        "citewise ask": [*cli, "ask", question],
        "citewise search --help": [*cli, "search", "--help"],
        INGEST: [sys.executable, "-m", "citewise", "-L", str(fresh), "ingest", str(pdf)],
    }


def slowest_imports(command: list[str], env: dict[str, str], top: int = 10) -> list[str]:
    done = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]], env=env, capture_output=True, text=True
    )
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name.rstrip()))
    rows.sort(reverse=True)
    return [f"{us / 1000:8.1f} ms {name}" for us, name in rows[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--question", default="How many papers does S2ORC contain?")
    parser.add_argument("--pdf", type=Path, default=ROOT.parent / "shared/corpus/N18-3011.pdf")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    # bytecode as an installed package has it: with PYTHONDONTWRITEBYTECODE set (as some
    # shells are) and no .pyc written, every run would compile the modules it imports
    compileall.compile_dir(args.src, quiet=1)
    env = {**os.environ, "PYTHONPATH": str(args.src), "CITEWISE_CONFIG": os.devnull}
    with tempfile.TemporaryDirectory() as tmp:
        walls = timed(commands(args.library, args.question, args.pdf, Path(tmp) / "lib"), env, args)
    load = os.getloadavg()[0]
    print(f"{args.src} ({args.runs} runs each, load average {load:.1f})")
    print("| command | median s | max s |\n|---|---:|---:|")
    for name, times in walls.items():
        print(f"| {name} | {statistics.median(times):.3f} | {max(times):.3f} |")
    if args.importtime:
        todo = commands(args.library, args.question, args.pdf, Path("unused"))
        for name in ("citewise --help", "citewise list", "citewise ask"):
            print(f"\nslowest imports of {name}:")
            print("\n".join(slowest_imports(todo[name], env)))


def timed(
    todo: dict[str, list[str]], env: dict[str, str], args: argparse.Namespace
) -> dict[str, list[float]]:
    """Wall seconds of each command, run after run, interleaved; the ingest's library is
    removed before each of its runs so every run parses and stores the file."""
    fresh = Path(todo[INGEST][4])
    for command in todo.values():  # warm the page cache and the bytecode caches
        shutil.rmtree(fresh, ignore_errors=True)
        subprocess.run(command, env=env, capture_output=True)
    walls: dict[str, list[float]] = {name: [] for name in todo}
    for _ in range(args.runs):
        for name, command in todo.items():
            shutil.rmtree(fresh, ignore_errors=True)
            start = time.perf_counter()
            subprocess.run(command, env=env, capture_output=True)
            walls[name].append(time.perf_counter() - start)
    return walls


if __name__ == "__main__":
    main()
