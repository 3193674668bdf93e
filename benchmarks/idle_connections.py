"""Idle and half-sent connections against a server: does another client still get answers?

    python benchmarks/idle_connections.py [--library LIB] [--src DIR] [--connections 1100]
        [--seconds 20] [--nofile 1024] [--face serve|mcp ...] [--spread 0 20 ...]

Starts `citewise serve` and `citewise mcp --http` on loopback (from `--src`, default this tree,
so an older tree is measured the same way), each with its file-descriptor limit set to
`--nofile`. An attacker process then holds `--connections` sockets against it: half connect
and send nothing, half send part of a request head (half of those trickle a header line a
second); whenever the server closes one, the attacker opens another at once, so the count
holds for the whole run. The attacker's sockets come from 127.0.0.1 (spread 0: the same
address as the measured client) or from `--spread` other loopback addresses. Meanwhile a
client opens a fresh connection every 0.1 s and asks for the document list (`GET
/documents`; over MCP a `list_documents` tool call in a session opened before the attack).
Reported per face and spread: the client's p50 / p95 / max latency and failures (a request
that takes 10 s or fails), the attacker's open sockets and reconnections per second, and the
server's failed accepts (`Too many open files` in its log).
Loopback only; every run ends after `--seconds` (plus start-up).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
PROBE_EVERY = 0.1
PROBE_TIMEOUT = 10.0
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PARTIAL_HEAD = b"GET /documents HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def build_library(folder: Path) -> Path:
    """Three corpus PDFs, no embeddings (the listing is what is measured)."""
    sys.path.insert(0, str(ROOT / "src"))
    from citewise.api import Library

    papers = sorted(CORPUS.glob("*.pdf"))[:3]
    if not papers:
        raise SystemExit(f"no PDFs in {CORPUS}: give --library")
    library = folder / "library"
    with Library(library, embeddings=False) as lib:
        lib.ingest(papers)
    return library


def limit_fds(nofile: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    return apply


def start(
    face: str, library: Path, src: Path, port: int, nofile: int, log: Path
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(src), "CITEWISE_CONFIG": os.devnull}
    env.pop("CITEWISE_TOKEN", None)
    command = [sys.executable, "-m", "citewise", "--library", str(library)]
    command += ["serve"] if face == "serve" else ["mcp", "--http"]
    command += ["--port", str(port)]
    with log.open("wb") as errors:
        return subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            preexec_fn=limit_fds(nofile),
        )


class Probe:
    """The measured client: one request per fresh connection."""

    def __init__(self, face: str, port: int) -> None:
        self.face = face
        self.base = f"http://127.0.0.1:{port}"
        self.session = ""
        # no connection kept between requests: each one is accepted anew under the attack
        self.http = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))

    def ready(self) -> bool:
        try:
            if self.face == "serve":
                return self.http.get(f"{self.base}/documents", timeout=2).status_code == 200
            return self._open_session()
        except httpx.HTTPError:
            return False

    def _open_session(self) -> bool:
        hello = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "idle-connections", "version": "1"},
            },
        }
        answer = self.http.post(f"{self.base}/mcp", json=hello, headers=MCP_HEADERS, timeout=5)
        self.session = answer.headers.get("mcp-session-id", "")
        if answer.status_code != 200 or not self.session:
            return False
        done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        self.http.post(f"{self.base}/mcp", json=done, headers=self._headers(), timeout=5)
        return True

    def _headers(self) -> dict[str, str]:
        return {**MCP_HEADERS, "mcp-session-id": self.session, "mcp-protocol-version": "2025-06-18"}

    def once(self) -> float | None:
        """Seconds for one answer on a fresh connection; None when it failed or timed out."""
        started = time.perf_counter()
        try:
            if self.face == "serve":
                answer = self.http.get(f"{self.base}/documents", timeout=PROBE_TIMEOUT)
                ok = answer.status_code == 200 and isinstance(answer.json(), list)
            else:
                call = {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": "list_documents", "arguments": {}},
                }
                answer = self.http.post(
                    f"{self.base}/mcp", json=call, headers=self._headers(), timeout=PROBE_TIMEOUT
                )
                ok = answer.status_code == 200 and '"result"' in answer.text
        except httpx.HTTPError:
            return None
        return time.perf_counter() - started if ok else None


async def hold(port: int, count: int, seconds: float, spread: int) -> dict[str, float]:
    """`count` sockets held against 127.0.0.1:port for `seconds`, each reopened when closed."""
    stop = time.monotonic() + seconds
    stats = {"open": 0, "opened": 0, "closed_by_server": 0, "samples": 0, "open_sum": 0}

    async def one(n: int) -> None:
        source = f"127.0.0.{2 + n % spread}" if spread else "127.0.0.1"
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
            except OSError:
                await asyncio.sleep(0.05)
                continue
            stats["opened"] += 1
            stats["open"] += 1
            try:
                if n % 2:
                    writer.write(PARTIAL_HEAD)
                trickle = n % 4 == 3
                while time.monotonic() < stop:
                    remaining = stop - time.monotonic()
                    try:
                        data = await asyncio.wait_for(reader.read(4096), min(1.0, remaining))
                    except TimeoutError:
                        if trickle:
                            writer.write(b"X-Slow: a\r\n")
                        continue
                    if not data:
                        stats["closed_by_server"] += 1
                        break
            except OSError:
                stats["closed_by_server"] += 1
            finally:
                stats["open"] -= 1
                writer.close()

    async def sample() -> None:
        while time.monotonic() < stop:
            await asyncio.sleep(0.5)
            stats["samples"] += 1
            stats["open_sum"] += stats["open"]

    await asyncio.gather(sample(), *(one(n) for n in range(count)))
    mean_open = stats["open_sum"] / max(stats["samples"], 1)
    return {
        "mean_open": round(mean_open),
        "reopened_per_s": round((stats["opened"] - count) / seconds, 1),
    }


def attacker_main(port: int, count: int, seconds: float, spread: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(json.dumps(asyncio.run(hold(port, count, seconds, spread))), flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def measure(face: str, args: argparse.Namespace, library: Path, spread: int) -> dict[str, object]:
    port = free_port()
    log = Path(tempfile.mkstemp(suffix=".log")[1])
    server = start(face, library, args.src, port, args.nofile, log)
    probe = Probe(face, port)
    try:
        deadline = time.monotonic() + 120
        while not probe.ready():
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{face} did not start")
            time.sleep(0.3)
        attacker = subprocess.Popen(
            [sys.executable, __file__, "--attack", str(port), str(args.connections)]
            + [str(args.seconds + 3), str(spread)],
            stdout=subprocess.PIPE,
        )
        time.sleep(3)  # the attacker's sockets open
        latencies: list[float] = []
        failures = 0
        stop = time.monotonic() + args.seconds
        while time.monotonic() < stop:
            took = probe.once()
            if took is None:
                failures += 1
            else:
                latencies.append(took)
            time.sleep(PROBE_EVERY)
        out, _ = attacker.communicate(timeout=args.seconds + 60)
        held = json.loads(out.decode().strip().splitlines()[-1])
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    emfile = log.read_text(errors="replace").count("Too many open files")
    log.unlink()
    timed = latencies + [PROBE_TIMEOUT] * failures  # a failure counts as the whole timeout
    return {
        "face": face,
        "spread": spread,
        "requests": len(timed),
        "failed": failures,
        "p50_ms": round(statistics.median(timed) * 1000, 1),
        "p95_ms": round(percentile(timed, 0.95) * 1000, 1),
        "max_ms": round(max(timed) * 1000, 1),
        "emfile": emfile,
        **held,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--attack":
        port, count, seconds, spread = sys.argv[2:6]
        attacker_main(int(port), int(count), float(seconds), int(spread))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--library", type=Path, help="default: three corpus PDFs, ingested")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the tree to serve from")
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--nofile", type=int, default=1024, help="the server's fd limit")
    parser.add_argument("--face", action="append", choices=["serve", "mcp"])
    parser.add_argument("--spread", type=int, action="append", help="attacker addresses")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        library = args.library or build_library(Path(scratch))
        print(
            "| face | attacker addresses | requests | failed | p50 ms | p95 ms | max ms "
            "| attacker sockets open (mean) | reopened / s | accepts failed (EMFILE) |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for face in args.face or ["serve", "mcp"]:
            for spread in args.spread or [0, 20]:
                r = measure(face, args, library, spread)
                print(
                    f"| {r['face']} | {r['spread'] or '1 (the client’s)'} | {r['requests']} "
                    f"| {r['failed']} | {r['p50_ms']} | {r['p95_ms']} | {r['max_ms']} "
                    f"| {r['mean_open']} | {r['reopened_per_s']} | {r['emfile']} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
