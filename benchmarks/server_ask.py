"""`POST /ask` under concurrent clients: latency of a real server on a real library.

    python benchmarks/server_ask.py --library /work/libs/arch [--clients 8] [--rounds 1]
        [--servers N] [--src DIR] [--label TEXT] [--write docs/benchmarks.md]

Starts `citewise serve` on loopback in a subprocess (from `--src`, default this tree, so an
older tree can be measured the same way), warms it with one question, then asks every dev
question once from one client (solo latency) and then `--rounds` times from `--clients`
clients at once, each starting at a different question (after one untimed concurrent round
that warms every reader). Reported: p50 / p95 / max of each request's latency and the
requests per second. With the old one-lock server, p95 under 8 clients is about 8 solo
answers (every read queues behind the others); with per-request read connections it is not.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from datetime import date
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout (or a worktree's), or $CITEWISE_SHARED
SHARED = next(
    (p for p in (Path(os.environ.get("CITEWISE_SHARED", "")), ROOT.parent / "shared",
                 ROOT.parent.parent / "shared") if str(p) != "." and p.is_dir()),
    ROOT.parent / "shared",
)  # fmt: skip
DEV_QA = SHARED / "qa" / "dev.yaml"
MARK_BEGIN = "<!-- server-ask-benchmark:begin -->"
MARK_END = "<!-- server-ask-benchmark:end -->"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(library: str | Path, src: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(src), "CITEWISE_CONFIG": os.devnull}
    command = [sys.executable, "-m", "citewise", "-L", str(library), "serve", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/documents", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
        if server.poll() is not None:
            raise SystemExit(
                f"server exited: {server.stderr.read().decode() if server.stderr else ''}"
            )
    server.kill()
    raise SystemExit("server did not start within 120 s")


def ask(client: httpx.Client, question: str) -> float:
    started = time.perf_counter()
    reply = client.post("/ask", json={"question": question}, timeout=120)
    reply.raise_for_status()
    return (time.perf_counter() - started) * 1000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def concurrent(
    bases: list[str], questions: list[str], clients: int, rounds: int
) -> tuple[list[float], float]:
    """Latencies (ms) of every request from `clients` threads, and the wall time (s);
    client n talks to server n mod len(bases)."""
    latencies: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(clients)

    def work(offset: int, base: str) -> None:
        with httpx.Client(base_url=base) as client:
            start.wait()
            for i in range(len(questions) * rounds // clients):
                took = ask(client, questions[(offset + i) % len(questions)])
                with lock:
                    latencies.append(took)

    threads = [
        threading.Thread(target=work, args=(n * len(questions) // clients, bases[n % len(bases)]))
        for n in range(clients)
    ]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, time.perf_counter() - began


def measure(
    library: str | Path, src: Path, clients: int, rounds: int, servers: int = 1
) -> dict[str, float]:
    """With `servers` > 1, that many `citewise serve` processes over the same library (WAL
    readers in each), the clients spread over them: what several server processes would
    give, measured without a load balancer in front."""
    questions = [item["question"] for item in yaml.safe_load(DEV_QA.read_text("utf-8"))]
    ports = [free_port() for _ in range(servers)]
    started = [start_server(library, src, port) for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        # Warm: the embedder, indexes and answerer, and every reader a concurrent server makes.
        concurrent(bases, questions[:clients], clients, 1)
        with httpx.Client(base_url=bases[0]) as client:
            solo = [ask(client, q) for q in questions]
        together, wall = concurrent(bases, questions, clients, rounds)
    finally:
        for server in started:
            server.terminate()
        for server in started:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:  # slow to stop: the numbers still count
                server.kill()
                server.wait()
    return {
        "solo_p50": statistics.median(solo),
        "solo_p95": percentile(solo, 0.95),
        "p50": statistics.median(together),
        "p95": percentile(together, 0.95),
        "max": max(together),
        "requests": len(together),
        "rps": len(together) / wall,
    }


def row(label: str, clients: int, m: dict[str, float]) -> str:
    return (
        f"| {label} | {m['solo_p50']:.0f} | {m['solo_p95']:.0f} | {clients} | {m['requests']:.0f}"
        f" | {m['p50']:.0f} | {m['p95']:.0f} | {m['max']:.0f} | {m['rps']:.1f} |"
    )


def write(path: Path, rows: list[str], clients: int) -> None:
    load = os.getloadavg()[0]
    section = "\n".join(
        [
            MARK_BEGIN,
            "## Server: `POST /ask` under concurrent clients",
            "",
            f"Library: the PDFs of `../shared/corpus`, every dev question "
            f"(`../shared/qa/dev.yaml`) asked once by one client (solo), then by {clients} "
            "clients at once, twice, over loopback (extractive backend; the server warmed by "
            f"one untimed concurrent round). Machine: {platform.machine()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{date.today().isoformat()}; load average "
            f"{load:.1f} at the end (the machine is shared).",
            "",
            "| server | solo p50 ms | solo p95 ms | clients | requests | p50 ms | p95 ms "
            "| max ms | requests/s |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "Reproduce: `python benchmarks/server_ask.py --library LIB --write docs/benchmarks.md`"
            " (`--src OLD/src --label ...` measures another tree the same way).",
            MARK_END,
        ]
    )
    text = path.read_text("utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(MARK_BEGIN) + ".*?" + re.escape(MARK_END), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", required=True, help="a library folder or postgresql:// URL")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2, help="times each question is asked")
    parser.add_argument("--servers", type=int, default=1, help="server processes")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the tree to serve from")
    parser.add_argument("--label", default="this tree")
    parser.add_argument("--also", action="append", default=[], help="a row to keep (markdown)")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    measured = measure(args.library, args.src, args.clients, args.rounds, args.servers)
    line = row(args.label, args.clients, measured)
    print(line)
    if args.write:
        write(args.write, [*args.also, line], args.clients)


if __name__ == "__main__":
    main()
