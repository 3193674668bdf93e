"""Ingest throughput of `citewise worker` processes on a PostgreSQL library: 1 vs N.

    python benchmarks/worker_ingest.py --postgres postgresql://… [--workers 1 2 1 2]
        [--limit N] [DIR]

DIR defaults to the FinanceBench filings (../shared/qa/external/financebench/corpus: 20
10-K reports, ~3,000 pages, where parsing dominates); `--corpus` takes the 8-paper corpus.
For each worker count, back to back: a fresh schema, every file queued with `citewise
ingest --queue --detach`, then that many `citewise worker --until-done` processes started
together; timed from their start until the last exits (every ingest, embedding and
vocabulary job done). Each worker logs one line per job with its wall time, its thread's
CPU and its parse processes' CPU; with each worker's own CPU (from wait4) and the database
server's (its postmaster's /proc counters, local servers only) that gives where the CPU
went: parse, store, embed, vocabulary, queue and start-up, PostgreSQL.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
SHARED = next(
    (p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
    ROOT.parent / "shared",
)
FILINGS = SHARED / "qa" / "external" / "financebench" / "corpus"
CORPUS = SHARED / "corpus"
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    workers: int
    files: int
    blocks: int
    seconds: float
    load: tuple[float, float]
    worker_cpu: float  # the worker processes and their parse children (wait4)
    postgres_cpu: float | None
    jobs: list[dict[str, object]] = field(default_factory=list)


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


def postmaster(url: str) -> int | None:
    """The PID of the database server when it runs on this machine (else None)."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT current_setting('data_directory')").fetchone()
    pid_file = Path(str(row[0]) if row else "") / "postmaster.pid"
    try:
        return int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def postgres_cpu(pid: int | None) -> float | None:
    """CPU seconds of the server: its postmaster with every backend it reaped, plus the
    processes still running under it."""
    if pid is None:
        return None

    def stat(p: int) -> list[str]:
        return Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()

    try:
        fields = stat(pid)
    except OSError:
        return None
    total = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                child = stat(int(entry.name))
            except OSError:
                continue
            if int(child[1]) == pid:
                total += int(child[11]) + int(child[12])
    return total / TICK


def job_lines(log: Path) -> list[dict[str, object]]:
    out = []
    for line in log.read_text(errors="replace").splitlines():
        if "citewise.job " in line:
            out.append(json.loads(line.split("citewise.job ", 1)[1]))
    return out


def run(base: str, files: list[Path], workers: int, sessions: bool = False) -> Run:
    url = fresh_schema(base)
    cache = Path(tempfile.mkdtemp(prefix="citewise-bench-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "HF_HUB_OFFLINE": "1"}
    cli = [sys.executable, "-m", "citewise", "--library", url]
    subprocess.run(
        [*cli, "ingest", "--queue", "--detach", "--json", *map(str, files)],
        env=env,
        check=True,
        capture_output=True,
    )
    server = postmaster(url)
    load, pg_before = os.getloadavg()[0], postgres_cpu(server)
    started, epoch = time.perf_counter(), time.time()
    logs = [cache / f"w{i}.log" for i in range(workers)]
    procs = [
        subprocess.Popen(
            [*cli, "worker", "--until-done", "--name", f"w{i}"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log.open("wb"),
            start_new_session=sessions,  # a scheduler autogroup each, as separate services
        )
        for i, log in enumerate(logs)
    ]
    cpu = 0.0
    for proc in procs:
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu += usage.ru_utime + usage.ru_stime
    seconds = time.perf_counter() - started
    pg_after = postgres_cpu(server)
    pg = pg_after - pg_before if pg_after is not None and pg_before is not None else None
    jobs = [{**j, "worker": i} for i, log in enumerate(logs) for j in job_lines(log)]
    shutil.rmtree(cache, ignore_errors=True)
    for job in jobs:  # the job's start, in seconds since the workers were started
        job["at"] = float(job.get("started", epoch)) - epoch  # type: ignore[arg-type]
    return Run(workers, len(files), blocks(url), seconds, (load, os.getloadavg()[0]), cpu, pg, jobs)


def cpu_split(result: Run) -> dict[str, float]:
    """CPU seconds by part: parse (the forked parse processes), store (the ingest job's own
    thread: hashing, receiving the parse, writing rows), embed (encoding, writing vectors),
    vocabulary, queue and start-up (the rest of the worker processes), PostgreSQL."""
    split: dict[str, float] = defaultdict(float)
    for job in result.jobs:
        kind, cpu = str(job["job"]), float(job["cpu"])  # type: ignore[arg-type]
        split["parse"] += float(job["child_cpu"])  # type: ignore[arg-type]
        part = {"ingest_file": "store", "embed_document": "embed"}.get(kind, "vocabulary")
        split[part] += cpu
    split["queue and start-up"] = result.worker_cpu - sum(split.values())
    if result.postgres_cpu is not None:
        split["PostgreSQL server"] = result.postgres_cpu
    return dict(split)


def idle(result: Run) -> list[tuple[float, float, float]]:
    """Each worker's seconds outside jobs: (start-up until its first job, between jobs,
    after its last job until the last worker exited)."""
    out = []
    for worker in range(result.workers):
        jobs = sorted((j for j in result.jobs if j["worker"] == worker), key=lambda j: j["at"])  # type: ignore[arg-type, return-value]
        if not jobs:
            out.append((result.seconds, 0.0, 0.0))
            continue
        spans = [(float(j["at"]), float(j["at"]) + float(j["seconds"])) for j in jobs]  # type: ignore[arg-type]
        gaps = sum(max(0.0, b[0] - a[1]) for a, b in zip(spans, spans[1:], strict=False))
        out.append((spans[0][0], gaps, result.seconds - spans[-1][1]))
    return out


def rates(result: Run) -> dict[str, float]:
    """Measured rates per CPU second: pages parsed, blocks stored, blocks embedded."""
    ingest = [j for j in result.jobs if j["job"] == "ingest_file"]
    embed = [j for j in result.jobs if j["job"] == "embed_document"]
    pages = sum(int(j["pages"]) for j in ingest)  # type: ignore[call-overload]
    stored = sum(int(j["blocks"]) for j in ingest)  # type: ignore[call-overload]
    embedded = sum(int(j["blocks"]) for j in embed)  # type: ignore[call-overload]
    parse = sum(float(j["child_cpu"]) for j in ingest)  # type: ignore[arg-type]
    store = sum(float(j["cpu"]) for j in ingest)  # type: ignore[arg-type]
    encode = sum(float(j.get("encode_cpu", 0.0)) for j in embed)  # type: ignore[arg-type]
    save = sum(float(j.get("save_seconds", 0.0)) for j in embed)  # type: ignore[arg-type]
    return {
        "pages per parse CPU second": pages / parse if parse else 0.0,
        "blocks stored per worker CPU second": stored / store if store else 0.0,
        "blocks encoded per CPU second": embedded / encode if encode else 0.0,
        "blocks' vectors written per second (wall)": embedded / save if save else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 1, 2])
    parser.add_argument("--corpus", action="store_true", help="the 8-paper corpus instead")
    parser.add_argument("--limit", type=int, default=None, help="the first N files only")
    parser.add_argument(
        "--own-sessions",
        action="store_true",
        help="start each worker in a session of its own (with the kernel's autogroup "
        "scheduling, a loaded machine shares CPU per session, not per process)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write every run here")
    parser.add_argument("folder", type=Path, nargs="?", default=None)
    args = parser.parse_args()
    folder = args.folder or (CORPUS if args.corpus else FILINGS)
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".pdf")[: args.limit]
    sessions = "each worker in its own session" if args.own_sessions else "one session"
    print(f"{len(files)} files from {folder}; {os.cpu_count()} cores; {sessions}")
    print("| workers | files | blocks | seconds | speed-up | load at start, end | CPU s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    results: list[Run] = []
    for n in args.workers:
        result = run(args.postgres, files, n, args.own_sessions)
        results.append(result)
        base = next(r.seconds for r in results if r.workers == args.workers[0])
        total = result.worker_cpu + (result.postgres_cpu or 0.0)
        print(f"| {n} | {result.files} | {result.blocks} | {result.seconds:.1f} | "
              f"{base / result.seconds:.2f}x | {result.load[0]:.1f}, {result.load[1]:.1f} | "
              f"{total:.1f} |", flush=True)  # fmt: skip
    for result in results:
        split = ", ".join(f"{k} {v:.1f}" for k, v in cpu_split(result).items())
        outside = "; ".join(f"{a:.1f}, {b:.1f}, {c:.1f}" for a, b, c in idle(result))
        print(f"{result.workers} worker(s), CPU seconds: {split}; each worker's seconds "
              f"outside jobs (start-up, between jobs, tail): {outside}")  # fmt: skip
    measured = ", ".join(f"{k} {v:.0f}" for k, v in rates(results[0]).items())
    print(f"rates: {measured}")
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results], indent=1))


if __name__ == "__main__":
    main()
