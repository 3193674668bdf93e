"""Search fan-out: five sources with injected latency on a loopback server, searched together,
against each source alone (the floor: together <= 1.3x the slowest single source) and against
searching them one after another.

    python benchmarks/search.py [--runs 5] [--write docs/benchmarks.md]

Everything stays on 127.0.0.1: a ReplayServer serves the project's own fixtures
(tests/sources/data) with a fixed delay per source. The shipped rate limits apply.
"""

from __future__ import annotations

import argparse
import platform
import re
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citewise.sources import SourcesConfig, search_sources  # noqa: E402
from citewise.sources.net.http import reset_breakers  # noqa: E402
from citewise.store.sqlite.audit import SqliteAuditLog  # noqa: E402
from citewise.store.sqlite.db import connect  # noqa: E402
from tests.sources.loopback import ROUTES, fixture_reply  # noqa: E402
from tests.sources.replay import ReplayServer  # noqa: E402

MARK_BEGIN = "<!-- search-benchmark:begin -->"
MARK_END = "<!-- search-benchmark:end -->"
# Seconds each reply waits on the server (PubMed makes two requests: esearch, then efetch).
LATENCY = {"arxiv": 0.40, "pubmed": 0.25, "crossref": 0.30, "openalex": 0.20, "europepmc": 0.35}
QUERY = "graph networks"


def serve(server: ReplayServer) -> SourcesConfig:
    for source, delay in LATENCY.items():
        for path, name in ROUTES[source].items():
            server.add(f"/{source}{path}", fixture_reply(name, delay))
    overrides = {name: {"base_url": f"{server.base_url}/{name}"} for name in LATENCY}
    return SourcesConfig.load(env={}).with_overrides(overrides)


def timed(config: SourcesConfig, sources: list[str], db_dir: Path) -> float:
    """Seconds for one search, through a real store (cache writes, request log)."""
    reset_breakers()
    db = connect(db_dir / "library.db")
    try:
        started = time.perf_counter()
        audit = SqliteAuditLog(db)
        result = search_sources(QUERY, sources, audit=audit, config=config, refresh=True)
        elapsed = time.perf_counter() - started
    finally:
        db.close()
    if result.warnings or not result.records:
        raise SystemExit(f"benchmark search failed: {result.warnings}")
    return elapsed


def measure(runs: int) -> dict[str, float]:
    names = list(LATENCY)
    samples: dict[str, list[float]] = {name: [] for name in [*names, "together", "sequential"]}
    with ReplayServer() as server, tempfile.TemporaryDirectory() as tmp:
        config = serve(server)
        # The shipped rate limits would make repeated runs wait for arXiv's 1 request / 3 s;
        # pause between runs so every run starts with full buckets, as a user's search does.
        pause = 1 / min(config.settings(n).rate_limit.requests_per_second for n in names)
        timed(config, names, Path(tmp))  # warm-up: imports, first connections
        for _ in range(runs):
            for name in names:
                samples[name].append(timed(config, [name], Path(tmp)))
            time.sleep(pause)
            samples["together"].append(timed(config, names, Path(tmp)))
            time.sleep(pause)
            started = time.perf_counter()
            for name in names:
                timed(config, [name], Path(tmp))
            samples["sequential"].append(time.perf_counter() - started)
            time.sleep(pause)
    return {name: statistics.median(values) for name, values in samples.items()}


def report(medians: dict[str, float], runs: int) -> str:
    slowest_name = max(LATENCY, key=lambda n: medians[n])
    slowest = medians[slowest_name]
    lines = [
        MARK_BEGIN,
        "## Search",
        "",
        f'Five sources on a loopback server with injected latency, query "{QUERY}", median of '
        f"{runs} runs, shipped rate limits, a real store (cache writes and request log, "
        f"`refresh` on). Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{date.today().isoformat()}.",
        "",
        "| search | injected latency | seconds | ratio vs slowest single source |",
        "|---|---|---:|---:|",
    ]
    for name in LATENCY:
        delay = f"{LATENCY[name]:.2f} s" + (" × 2 requests" if name == "pubmed" else "")
        lines.append(
            f"| {name} alone | {delay} | {medians[name]:.3f} | {medians[name] / slowest:.2f}× |"
        )
    lines.append(
        f"| **all five together** (citewise) | | {medians['together']:.3f} | "
        f"**{medians['together'] / slowest:.2f}×** |"
    )
    lines.append(
        f"| all five one after another (peer: sequential client) | | "
        f"{medians['sequential']:.3f} | {medians['sequential'] / slowest:.2f}× |"
    )
    lines += [
        "",
        f"Floor (Search issue): together ≤ 1.3× the slowest single source ({slowest_name}). "
        f"Measured: {medians['together'] / slowest:.2f}×.",
        "",
        "Reproduce: `python benchmarks/search.py --write docs/benchmarks.md`",
        MARK_END,
    ]
    return "\n".join(lines)


def write(path: Path, section: str) -> None:
    text = path.read_text("utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(MARK_BEGIN) + ".*?" + re.escape(MARK_END), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", type=Path, help="Replace the Search section of this file.")
    args = parser.parse_args()
    medians = measure(args.runs)
    section = report(medians, args.runs)
    print(section)
    if args.write:
        write(args.write, section)


if __name__ == "__main__":
    main()
