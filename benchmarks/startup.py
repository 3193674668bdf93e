"""Start-up: whole `citewise` processes against `python -c pass` on the same machine.

    python benchmarks/startup.py --library DIR [--src TREE/src] [--against OTHER/src]
        [--runs 10] [--question "..."] [--pdf FILE] [--importtime]

Times `--help`, `list`, `ask` (one question on DIR), `search --help` and `ingest` of one
PDF into a fresh library (default: N18-3011.pdf of ../shared/corpus, 8 pages) as fresh
processes (median and max of `--runs`, interleaved so a busy moment hits every command
alike), next to the interpreter's own start-up, the floor no command can beat.
`--against` runs a second tree's commands right after each of the first's, so both see the
same moment of the machine, and prints both trees' medians, wall and CPU seconds (the
process's user + system time, which moves less than wall time when other work runs).
`--importtime` prints the ten slowest imports of `citewise --help`, `list` and `ask`
(cumulative, from `python -X importtime`), which is what dominates each number.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
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
    parser.add_argument("--against", type=Path, help="a second tree's src/, interleaved")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--question", default="How many papers does S2ORC contain?")
    parser.add_argument("--pdf", type=Path, default=ROOT.parent / "shared/corpus/N18-3011.pdf")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    # bytecode as an installed package has it: with PYTHONDONTWRITEBYTECODE set (as some
    # shells are) and no .pyc written, every run would compile the modules it imports
    trees = [args.src, *([args.against] if args.against else [])]
    for tree in trees:
        compileall.compile_dir(tree, quiet=1)
    envs = [{**os.environ, "PYTHONPATH": str(t), "CITEWISE_CONFIG": os.devnull} for t in trees]
    env = envs[0]
    with tempfile.TemporaryDirectory() as tmp:
        todo = commands(args.library, args.question, args.pdf, Path(tmp) / "lib")
        results = timed(todo, envs, args)
    load = os.getloadavg()[0]
    if not args.against:
        walls = results[0][0]
        print(f"{args.src} ({args.runs} runs each, load average {load:.1f})")
        print("| command | median s | max s |\n|---|---:|---:|")
        for name, times in walls.items():
            print(f"| {name} | {statistics.median(times):.3f} | {max(times):.3f} |")
    else:
        (walls_a, cpu_a), (walls_b, cpu_b) = results
        print(
            f"A = {args.src}, B = {args.against} ({args.runs} runs each, interleaved, "
            f"load average {load:.1f}); medians"
        )
        print("| command | A wall s | B wall s | A CPU s | B CPU s |\n|---|---:|---:|---:|---:|")
        for name in walls_a:
            cells = [statistics.median(x[name]) for x in (walls_a, walls_b, cpu_a, cpu_b)]
            print(f"| {name} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")
    if args.importtime:
        todo = commands(args.library, args.question, args.pdf, Path("unused"))
        for name in ("citewise --help", "citewise list", "citewise ask"):
            print(f"\nslowest imports of {name}:")
            print("\n".join(slowest_imports(todo[name], env)))


def timed(
    todo: dict[str, list[str]], envs: list[dict[str, str]], args: argparse.Namespace
) -> list[tuple[dict[str, list[float]], dict[str, list[float]]]]:
    """Wall and CPU seconds of each command in each tree's environment, run after run,
    interleaved; the ingest's library is removed before each of its runs so every run
    parses and stores the file."""
    fresh = Path(todo[INGEST][4])
    for env in envs:
        for command in todo.values():  # warm the page cache and the bytecode caches
            shutil.rmtree(fresh, ignore_errors=True)
            subprocess.run(command, env=env, capture_output=True)
    results = [({name: [] for name in todo}, {name: [] for name in todo}) for _ in envs]
    for _ in range(args.runs):
        for name, command in todo.items():
            for env, (walls, cpus) in zip(envs, results, strict=True):
                shutil.rmtree(fresh, ignore_errors=True)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(command, env=env, capture_output=True)
                walls[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus[name].append(
                    after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                )
    return results


if __name__ == "__main__":
    main()
