"""Search and ask latency of one library on SQLite and on PostgreSQL + pgvector.

    python benchmarks/postgres_latency.py --sqlite LIB_DIR --postgres postgresql://… \
        [--migrate] [--rounds 2]

Both stores must hold the same library: `--migrate` copies the SQLite library into the
PostgreSQL one first (`citewise migrate`, verified by checksums). Each backend is opened
through the API (`citewise.api.Library`), warmed with one untimed pass, then every dev
question (`../shared/qa/dev.yaml`) is searched (`Library.search`, k=8) and asked
(`Library.ask`, extractive) `--rounds` times, alternating the backends question by question
so both see the same machine load. Prints p50 / p95 / mean per backend and operation, and
whether the answers (text and cited blocks) are the same on both.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import yaml

from citewise.api import Library
from citewise.api.migrate import migrate_library
from citewise.config import Settings

ROOT = Path(__file__).resolve().parents[1]
DEV_QA = ROOT.parent.parent / "shared" / "qa" / "dev.yaml"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def questions(path: Path) -> list[str]:
    data = yaml.safe_load(path.read_text())
    items = data["items"] if isinstance(data, dict) else data
    return [str(item["question"]) for item in items]


def timed(call: object) -> tuple[float, object]:
    started = time.perf_counter()
    result = call()  # type: ignore[operator]
    return (time.perf_counter() - started) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sqlite", type=Path, required=True)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--qa", type=Path, default=DEV_QA)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--migrate", action="store_true")
    args = parser.parse_args()
    if args.migrate:
        result = migrate_library(args.sqlite, args.postgres)
        print(f"migrated: {sum(result.copied.values())} rows, verified={result.verified}")
    libraries = {
        "sqlite": Library(args.sqlite, settings=Settings.load(args.sqlite)),
        "postgres": Library(args.postgres, settings=Settings.load(args.postgres)),
    }
    asked = questions(args.qa)
    times: dict[tuple[str, str], list[float]] = {}
    answers: dict[str, list[tuple[str, list[str]]]] = {name: [] for name in libraries}
    for round_ in range(args.rounds + 1):  # round 0 warms caches and indexes, untimed
        for question in asked:
            for name, library in libraries.items():
                search_ms, _ = timed(lambda lib=library, q=question: lib.search(q, 8))
                ask_ms, answer = timed(lambda lib=library, q=question: lib.ask(q, review=False))
                if round_ == 0:
                    cited = [c for s in answer.sentences for c in s.citations]  # type: ignore[attr-defined]
                    answers[name].append((answer.answer, cited))  # type: ignore[attr-defined]
                    continue
                times.setdefault((name, "search"), []).append(search_ms)
                times.setdefault((name, "ask"), []).append(ask_ms)
    print(f"{len(asked)} questions x {args.rounds} rounds")
    print("| backend | operation | p50 ms | p95 ms | mean ms |")
    print("|---|---|---:|---:|---:|")
    for (name, op), values in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print(
            f"| {name} | {op} | {percentile(values, 0.5):.1f} | {percentile(values, 0.95):.1f} "
            f"| {statistics.fmean(values):.1f} |"
        )
    same = sum(a == b for a, b in zip(answers["sqlite"], answers["postgres"], strict=True))
    print(f"same answer and citations on both: {same}/{len(asked)}")
    for library in libraries.values():
        library.close()


if __name__ == "__main__":
    main()
