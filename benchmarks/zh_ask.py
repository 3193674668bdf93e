"""`citewise ask` in Chinese as whole processes, beside the same questions in English.

    python benchmarks/zh_ask.py [--library DIR] [--src TREE/src] [--against OTHER/src] [--runs 1]
        [--limit N] [--cache DIR] [--cold] [--stages] [--importtime]

Asks every question of tests/eval/data/dev_zh.yaml (our Chinese translation of
../shared/qa/dev.yaml; $CITEWISE_SHARED if set) and its English original (the peer, same id)
as fresh `citewise --library DIR ask "..."` processes, wall clock and CPU seconds (user +
system), Chinese and English interleaved question by question so a busy moment of the
machine hits both alike; prints p50 and p95 of each language and their ratio, next to
`python -c pass` (the floor no process beats). Without `--library` the 8 PDFs of
../shared/corpus are ingested into a temporary library first. Every question is asked once
in each language before the timed runs, into a user cache folder of the run's own
(`--cache`; XDG_CACHE_HOME): what a user's later asks find there (lang/zh.py's dictionary
tables, code_cache.py's regex programs and dataclass methods). Bytecode is compiled first,
as an installed package has it (with PYTHONDONTWRITEBYTECODE set, as some shells are, every
run would compile every module).

`--cold` also times one Chinese ask with an empty user cache (XDG_CACHE_HOME): the first
Chinese question on a machine builds the dictionary and segmenter tables (lang/zh.py).
`--stages` times, in one warm interpreter, each question's bridge (the Chinese question's
English wording, agent/bridge/zh_answer.py) and its whole `Library.ask`: what a Chinese question
costs beyond the process start, in CPU ms. `--importtime` prints the slowest imports of one
Chinese ask. `--against` runs a second tree's processes right after the first's, question by
question (each tree with a cache folder of its own), so both see the same moments of the
machine.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from startup import slowest_imports  # the one -X importtime reader (benchmarks/startup.py)

ROOT = Path(__file__).resolve().parents[1]
DEV_ZH = ROOT / "tests" / "eval" / "data" / "dev_zh.yaml"


def _shared() -> Path:
    """$CITEWISE_SHARED, else ../shared beside the repository, else /work/shared."""
    for candidate in (os.environ.get("CITEWISE_SHARED", ""), ROOT.parent / "shared"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return Path("/work/shared")


DEV_EN = _shared() / "qa" / "dev.yaml"
CORPUS = _shared() / "corpus"

# Run in the measured tree's interpreter: the bridge and the whole ask of each question,
# warm (one question asked first): CPU seconds, which the machine's other work moves less.
_STAGES = """
import json, sys, time
from citewise.api import Library
from citewise.agent.bridge.zh_answer import bridge_question
pairs = json.loads(sys.argv[2])
with Library(sys.argv[1]) as lib:
    lib.ask(pairs[0][1], review=False)
    retriever = lib.answerer.retriever
    rows = []
    for zh, en in pairs:
        start = time.process_time()
        bridge_question(zh, retriever)
        bridged = time.process_time()
        lib.ask(zh, review=False)
        asked_zh = time.process_time()
        lib.ask(en, review=False)
        asked_en = time.process_time()
        rows.append([bridged - start, asked_zh - bridged, asked_en - asked_zh])
print(json.dumps(rows))
"""


def questions(limit: int | None) -> list[tuple[str, str, str]]:
    """(id, Chinese, English) for every translated dev question."""
    english = {str(e["id"]): str(e["question"]) for e in yaml.safe_load(DEV_EN.read_text())}
    chinese = yaml.safe_load(DEV_ZH.read_text("utf-8"))
    pairs = [(str(e["id"]), str(e["question"]), english[str(e["id"])]) for e in chinese]
    return pairs[:limit] if limit else pairs


def run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def p95(values: list[float]) -> float:
    return (
        statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]
    )


def row(name: str, walls: list[float], cpus: list[float]) -> str:
    return (
        f"| {name} | {len(walls)} | {statistics.median(walls):.3f} | {p95(walls):.3f} "
        f"| {statistics.median(cpus):.3f} | {max(walls):.3f} |"
    )


def ingest(library: Path, env: dict[str, str]) -> None:
    command = [sys.executable, "-m", "citewise", "-L", str(library), "ingest"]
    done = subprocess.run([*command, *map(str, sorted(CORPUS.glob("*.pdf")))], env=env)
    if done.returncode:
        sys.exit(f"ingest of {CORPUS} failed")


Times = dict[str, list[float]]


def measure(args: argparse.Namespace, library: Path, envs: list[dict[str, str]]) -> None:
    pairs = questions(args.limit)
    cli = [sys.executable, "-m", "citewise", "-L", str(library), "ask"]
    # every question once in each language, untimed: the page cache, the dictionary tables
    # and the code cache (regex programs, dataclass methods) as a user's later asks find them
    for env in envs:
        for _, zh, en in pairs:
            for question in (zh, en):
                subprocess.run([*cli, question], env=env, capture_output=True)
    results: list[tuple[Times, Times]] = [
        ({"floor": [], "zh": [], "en": []}, {"floor": [], "zh": [], "en": []}) for _ in envs
    ]
    for _ in range(args.runs):
        for n, (_, zh, en) in enumerate(pairs):
            for env, (walls, cpus) in zip(envs, results, strict=True):
                todo = [("zh", [*cli, zh]), ("en", [*cli, en])]
                if n % 4 == 0:
                    todo.insert(0, ("floor", [sys.executable, "-c", "pass"]))
                for name, command in todo:
                    wall, cpu = run(command, env)
                    walls[name].append(wall)
                    cpus[name].append(cpu)
    load = os.getloadavg()[0]
    for env, (walls, cpus) in zip(envs, results, strict=True):
        print(
            f"\n{env['PYTHONPATH']}: {len(pairs)} questions x {args.runs} run(s)"
            + (", interleaved with the other tree" if len(envs) > 1 else "")
            + f", load average {load:.1f}"
        )
        print("| process | runs | p50 wall s | p95 wall s | p50 CPU s | max wall s |")
        print("|---|---:|---:|---:|---:|---:|")
        print(row("python -c pass (floor)", walls["floor"], cpus["floor"]))
        print(row("citewise ask, Chinese (dev_zh)", walls["zh"], cpus["zh"]))
        print(row("citewise ask, English (dev.yaml)", walls["en"], cpus["en"]))
        ratio = statistics.median(walls["zh"]) / statistics.median(walls["en"])
        ratio95 = p95(walls["zh"]) / p95(walls["en"])
        cpu = statistics.median(cpus["zh"]) / statistics.median(cpus["en"])
        print(f"Chinese / English: p50 {ratio:.2f}, p95 {ratio95:.2f} (wall); p50 {cpu:.2f} (CPU)")
        if args.cold:
            with tempfile.TemporaryDirectory() as cache:
                wall, cpu = run([*cli, pairs[0][1]], {**env, "XDG_CACHE_HOME": cache})
            print(f"first Chinese ask, empty user cache: {wall:.3f} s wall, {cpu:.3f} s CPU")
        if args.stages:
            stages(library, pairs, env)
        if args.importtime:
            print(f"\nslowest imports of a Chinese ask ({pairs[0][0]}):")
            print("\n".join(slowest_imports([*cli, pairs[0][1]], env, top=12)))


def stages(library: Path, pairs: list[tuple[str, str, str]], env: dict[str, str]) -> None:
    asked = json.dumps([[zh, en] for _, zh, en in pairs])
    done = subprocess.run(
        [sys.executable, "-c", _STAGES, str(library), asked],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = json.loads(done.stdout)
    print("\nin one warm process, CPU ms per question | p50 | p95 | max |\n|---|---:|---:|---:|")
    for n, name in enumerate(("bridge (Chinese -> English)", "ask, Chinese", "ask, English")):
        ms = [r[n] * 1000 for r in rows]
        print(f"| {name} | {statistics.median(ms):.1f} | {p95(ms):.1f} | {max(ms):.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, help="a library of ../shared/corpus")
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--against", type=Path, help="a second tree's src/, interleaved")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--limit", type=int, help="only the first N questions")
    parser.add_argument("--cache", help="where the trees' user cache folders go (default: fresh)")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--stages", action="store_true")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    trees = [args.src, *([args.against] if args.against else [])]
    for tree in trees:
        compileall.compile_dir(tree, quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        # a cache folder of each tree's own, written as an installed command writes it (the
        # code cache is not saved under PYTHONDONTWRITEBYTECODE), shared by no other process
        # (a tree's dictionary tables would remove another tree's as stale)
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        envs = [
            {
                **base,
                "PYTHONPATH": str(tree),
                "CITEWISE_CONFIG": os.devnull,
                "XDG_CACHE_HOME": str(Path(args.cache or tmp) / f"cache{n}"),
            }
            for n, tree in enumerate(trees)
        ]
        library = args.library or Path(tmp) / "library"
        if not args.library:
            ingest(library, envs[0])
        measure(args, library, envs)


if __name__ == "__main__":
    main()
