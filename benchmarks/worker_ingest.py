"""Ingest throughput of `citewise worker` processes on a PostgreSQL library: 1 vs N.

    python benchmarks/worker_ingest.py --postgres postgresql://… [--workers 1 2] [DIR]

For each worker count: a fresh schema in the database, every file of DIR (default: the
shared corpus) queued with `citewise ingest --queue --detach`, then that many
`citewise worker --until-done` processes started together; timed from their start until
the last one exits (every ingest job and the embedding job done). Prints files, blocks,
seconds and files per second per worker count, and the speed-up over the first.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent.parent / "shared" / "corpus"


def citewise(url: str, *args: str, env: dict[str, str]) -> list[str]:
    return [sys.executable, "-m", "citewise", "--library", url, *args]


def fresh_schema(base: str) -> str:
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options={quote(f'-csearch_path={schema},public')}"


def blocks(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM blocks").fetchone()
    return int(row[0]) if row else 0


def run(base: str, folder: Path, workers: int) -> tuple[int, float]:
    url = fresh_schema(base)
    env = {**os.environ, "XDG_CACHE_HOME": tempfile.mkdtemp(prefix="citewise-bench-")}
    subprocess.run(
        citewise(url, "ingest", "--queue", "--detach", "--json", str(folder), env=env),
        env=env,
        check=True,
        capture_output=True,
    )
    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            citewise(url, "worker", "--until-done", "--name", f"w{i}", env=env),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i in range(workers)
    ]
    for proc in procs:
        proc.wait()
    return blocks(url), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("folder", type=Path, nargs="?", default=CORPUS)
    args = parser.parse_args()
    files = sum(1 for p in args.folder.iterdir() if p.suffix.lower() == ".pdf")
    print("| workers | files | blocks | seconds | files/s | speed-up |")
    print("|---:|---:|---:|---:|---:|---:|")
    first = None
    for n in args.workers:
        count, seconds = run(args.postgres, args.folder, n)
        first = first or seconds
        print(f"| {n} | {files} | {count} | {seconds:.1f} | {files / seconds:.2f} | "
              f"{first / seconds:.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
