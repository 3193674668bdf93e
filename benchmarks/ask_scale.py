"""`ask` as the library grows: in-process latency (retrieval + answer) and whole processes.

    python benchmarks/ask_scale.py build --library DIR --corpus PDF_DIR [--copies 2]
    python benchmarks/ask_scale.py pad --source DIR --library BIG_DIR --blocks 1M
    python benchmarks/ask_scale.py run --library DIR --questions QA.yaml [--src TREE/src]
        [--limit 40] [--processes 5] [--answers OUT.json] [--profile]

`build` ingests the PDFs of PDF_DIR `--copies` times into DIR (copy n > 1 of a file gets a
trailing PDF comment, so it is a new document with the same pages: a library of the
FinanceBench dev filings twice is ~70k blocks). `pad` copies the library at DIR to BIG_DIR
and adds the retrieval benchmark's filler documents (benchmarks/retrieval_data.py: corpus
sentences with words swapped and digits re-drawn, 200 blocks each) until it holds
`--blocks`, then embeds them: a 1M-block library without parsing 80,000 more pages, whose
real filings still answer the questions. `run` times, in a fresh interpreter that
imports citewise from `--src` (default this tree, so an older tree is measured the same
way): every question of QA.yaml asked in-process after one warm-up question (median, p95,
max), then `citewise ask` as whole processes. `--answers` writes each answer's text and
citations, so two trees can be compared answer by answer; `--profile` prints the top of a
cProfile of the in-process loop (what dominates).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(library: Path, corpus: Path, copies: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in range(1, copies + 1):
            for pdf in sorted(corpus.glob("*.pdf")):
                target = folder / f"copy{n}" / pdf.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(pdf, target)
                if n > 1:
                    with target.open("ab") as handle:  # readers ignore bytes after %%EOF
                        handle.write(f"\n%citewise benchmark copy {n}\n".encode())
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CITEWISE_CONFIG": os.devnull}
        command = [sys.executable, "-m", "citewise", "-L", str(library), "ingest", str(folder)]
        subprocess.run(command, env=env, check=True)


def pad(source: Path, library: Path, blocks: str) -> None:
    sys.path.insert(0, str(ROOT / "src"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from retrieval_data import add_filler, copy_library, parse_size

    from citewise.api import Library

    started = time.perf_counter()
    copy_library(source, library)
    with Library(library) as lib:
        added = add_filler(lib.store, parse_size(blocks))
        filled = time.perf_counter()
        embedded = lib.prepare().embedded
        total = lib.store.stats()["blocks"]
    print(
        f"{total} blocks: {added} filler blocks added in {filled - started:.0f} s, "
        f"{embedded} embedded in {time.perf_counter() - filled:.0f} s"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


INNER = r"""
import cProfile, io, json, pstats, sys, time
from citewise.api import Library
library, questions, profile = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3] == "1"
lib = Library(library)
lib.prepare()
lib.ask("What is this library about?", review=False)
times, answers = [], []
profiler = cProfile.Profile() if profile else None
for q in questions:
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    answer = lib.ask(q, review=False)
    if profiler:
        profiler.disable()
    times.append((time.perf_counter() - start) * 1000)
    answers.append({"question": q, "refused": answer.refused, "answer": answer.answer,
                    "citations": [c for s in answer.sentences for c in s.citations]})
blocks = lib.store.stats()["blocks"]
print(json.dumps({"blocks": blocks, "ms": times, "answers": answers}))
if profiler:
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
    print(out.getvalue(), file=sys.stderr)
"""


def run(args: argparse.Namespace) -> None:
    import yaml

    items = yaml.safe_load(Path(args.questions).read_text(encoding="utf-8"))
    questions = [str(i["question"]) for i in items][: args.limit]
    env = {**os.environ, "PYTHONPATH": str(args.src), "CITEWISE_CONFIG": os.devnull}
    inner = [sys.executable, "-c", INNER, str(args.library), json.dumps(questions)]
    done = subprocess.run(
        [*inner, "1" if args.profile else "0"], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    result = json.loads(done.stdout.splitlines()[-1])
    if args.profile:
        print(done.stderr)
    ms = result["ms"]
    print(
        f"in-process ask, {result['blocks']} blocks, {len(ms)} questions: "
        f"p50 {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
        f"max {max(ms):.0f} ms"
    )
    if args.answers:
        Path(args.answers).write_text(json.dumps(result["answers"], indent=1))
    walls = []
    for q in questions[: args.processes]:
        command = [sys.executable, "-m", "citewise", "-L", str(args.library), "ask", q]
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=False)
        walls.append(time.perf_counter() - start)
    if walls:
        print(
            f"whole-process `citewise ask`, {len(walls)} runs: "
            f"median {statistics.median(walls):.2f} s, max {max(walls):.2f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build")
    make.add_argument("--library", type=Path, required=True)
    make.add_argument("--corpus", type=Path, required=True)
    make.add_argument("--copies", type=int, default=1)
    padding = commands.add_parser("pad")
    padding.add_argument("--source", type=Path, required=True)
    padding.add_argument("--library", type=Path, required=True)
    padding.add_argument("--blocks", default="1M")
    timing = commands.add_parser("run")
    timing.add_argument("--library", type=Path, required=True)
    timing.add_argument("--questions", type=Path, required=True)
    timing.add_argument("--src", type=Path, default=ROOT / "src")
    timing.add_argument("--limit", type=int, default=40)
    timing.add_argument("--processes", type=int, default=5)
    timing.add_argument("--answers", type=Path)
    timing.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.command == "build":
        build(args.library, args.corpus, args.copies)
    elif args.command == "pad":
        pad(args.source, args.library, args.blocks)
    else:
        run(args)


if __name__ == "__main__":
    main()
