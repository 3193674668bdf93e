"""`citewise matrix --all` on a whole library, as a user runs it (budget: 120 s for 323 papers).

    python benchmarks/matrix_all.py --library LIB [--column "beam size"]

Copies LIB (so its matrix cache starts empty and LIB is left as it was), then times three
runs of the CLI: every paper with the default columns; the same plus one new column (only
that column's cells are computed); the same again (nothing computed). Prints wall and CPU
seconds, cells computed and cached, and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

DEFAULT = "task,method,datasets,metrics,main result,limitations"  # the CLI's default columns


def run(library: Path, columns: str, out: Path) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    args = ["citewise", "--library", str(library), "matrix", "--all", "--columns", columns]
    done = subprocess.run([*args, "--out", str(out), "--json"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr or done.stdout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = json.loads(done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rows = len(json.loads(out.read_text())["rows"])
    return {"papers": rows, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "computed": summary["computed"], "cached": summary["cached"]}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--column", default="beam size", help="the column added on the rerun")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "lib"
        shutil.copytree(args.library, copy)
        out = Path(tmp) / "matrix.json"
        print(f"load average {os.getloadavg()[0]:.1f}")
        print("all papers, default columns:", run(copy, DEFAULT, out))
        wider = f"{DEFAULT},{args.column}"
        print(f"rerun with '{args.column}' added:", run(copy, wider, out))
        print("rerun, nothing new:", run(copy, wider, out))


if __name__ == "__main__":
    main()
