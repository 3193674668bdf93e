"""Ingest speed and memory: citewise's full-structure ingest against raw PyMuPDF text
extraction and pymupdf4llm, on the same PDFs, in the same run.

    python benchmarks/ingest.py [--corpus DIR] [--filings DIR] [--embed] [--repeat 3]
                                [--peers corpus|all|none] [--write docs/benchmarks.md]

Two PDF sets: the corpus (../shared/corpus beside the repository) and the FinanceBench
dev filings (../shared/qa/external/financebench/corpus); `--filings ''` skips the second.
Every measurement runs in a fresh Python process of its own, started by this one, and
this one samples the resident memory of that process and all its children (psutil,
every 20 ms): "peak RSS" is the largest sum seen over the whole process tree.

- raw `page.get_text("dict")`: every page of every file, in N worker processes (a fork
  pool, one file per task), N = the number of parse workers citewise uses for the set.
  Measured twice: with PyMuPDF's default flags for "dict" (which decode every image into
  the output) and with the flags citewise's reader passes (text only), the fairer floor.
- citewise ingest: `Library.ingest` into a fresh library (parse in N worker processes,
  SQLite store, FTS and keyword index, vocabulary), no embeddings. The floor row runs
  with tesseract hidden, so pages without a usable text layer are not OCR'd; those pages
  are counted apart and left out of its pages/s. A second row ingests as users do (OCR on).
- pymupdf4llm `to_markdown` and `to_json` (one process, as the library runs them).

Raw extraction and citewise alternate, run after run (`--repeat`, medians), so a change
in the machine's load hits both.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import io
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MARK_BEGIN = "<!-- ingest-benchmark:begin -->"
MARK_END = "<!-- ingest-benchmark:end -->"
SAMPLE_SECONDS = 0.02


def shared_dir() -> Path:
    beside = ROOT.parent / "shared"
    return beside if beside.is_dir() else Path("/work/shared")


# --- what each child process measures ----------------------------------------------------


def _raw_file(job: tuple[str, bool]) -> int:
    import pymupdf

    path, text_only = job
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    with pymupdf.open(path) as doc:
        for page in doc:
            if text_only:
                page.get_text("dict", flags=flags)
            else:
                page.get_text("dict")
        return int(doc.page_count)


def child_raw(files: list[str], workers: int, text_only: bool) -> dict[str, Any]:
    import multiprocessing

    import pymupdf  # noqa: F401  (imported before the clock, as citewise's workers have it)

    started, cpu = time.perf_counter(), cpu_times()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pages = sum(pool.imap_unordered(_raw_file, [(f, text_only) for f in files]))
    return {"seconds": time.perf_counter() - started, "pages": pages, **cpu_since(cpu)}


def child_citewise(files: list[str], ocr: bool, embeddings: bool) -> dict[str, Any]:
    from citewise.api import Library

    if not ocr:  # tesseract hidden: pages without a usable text layer stay unread
        from citewise.documents.pdf import ocr as ocr_module

        ocr_module.tesseract_command = lambda chosen=None: None
    import citewise.documents.pdf.reader  # noqa: F401  (imported before the clock, as a warm CLI)

    with tempfile.TemporaryDirectory() as tmp, Library(tmp, embeddings=embeddings) as lib:
        if embeddings:
            _ = lib.embedder  # the model loads before the clock starts, as a warm server's
        started, cpu = time.perf_counter(), cpu_times()
        report = lib.ingest([Path(f) for f in files])
        seconds = time.perf_counter() - started
        used = cpu_since(cpu)
        db = lib.store.db  # type: ignore[attr-defined]
        ocr_pages = db.execute(
            "SELECT count(DISTINCT document_id || ':' || page) FROM blocks "
            "WHERE json_extract(data, '$.ocr') IS NOT NULL"
        ).fetchone()[0]
        unread = db.execute(
            "SELECT count(DISTINCT document_id || ':' || page) FROM blocks WHERE trusted = 0"
        ).fetchone()[0]
    return {
        **used,
        "seconds": seconds,
        "pages": report.pages,
        "blocks": report.blocks,
        "ocr_pages": ocr_pages,
        "unread_pages": unread,
        "failed": len(report.failed),
    }


def child_peer(files: list[str], method: str) -> dict[str, Any]:
    import pymupdf4llm

    convert = getattr(pymupdf4llm, method)
    started, cpu = time.perf_counter(), cpu_times()
    for f in files:
        with contextlib.redirect_stdout(io.StringIO()):  # it prints its OCR progress
            convert(f, **({"show_progress": False} if method == "to_markdown" else {}))
    return {"seconds": time.perf_counter() - started, **cpu_since(cpu)}


def cpu_times() -> tuple[float, float]:
    """CPU seconds (user + system) so far: of this process, and of its reaped children."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def cpu_since(before: tuple[float, float]) -> dict[str, float]:
    """CPU of the timed work (imports before the clock excluded): `cpu` of the whole
    process tree, `cpu_own` of this process alone (citewise: the one that stores)."""
    own, kids = cpu_times()
    return {"cpu": own - before[0] + kids - before[1], "cpu_own": own - before[0]}


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One measurement, in this (child) process: its result (seconds, CPU of the timed
    work) and the largest single process's peak RSS."""
    import resource

    kind = spec["kind"]
    if kind == "raw":
        result = child_raw(spec["files"], spec["workers"], spec["text_only"])
    elif kind == "citewise":
        result = child_citewise(spec["files"], spec["ocr"], spec["embeddings"])
    else:
        result = child_peer(spec["files"], spec["method"])
    largest = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    )
    result["largest_mb"] = largest / 1024  # Linux: KB
    return result


# --- running a measurement in its own process, with its memory sampled -------------------


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (0 once it is gone)."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            total += proc.memory_info().rss
    return total


def measure(spec: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    """Run one measurement in a child process; its result plus the tree's peak RSS (MB)."""
    command = [sys.executable, __file__, "--child", json.dumps(spec)]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.wait(SAMPLE_SECONDS):
            peak = max(peak, tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"measurement {spec['kind']} failed (exit {proc.returncode})")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["peak_mb"] = peak / 2**20
    return result


# --- one PDF set -------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    processes: str
    seconds: float
    cpu: float  # CPU seconds of its whole process tree (load hardly changes them)
    pages: int  # the pages its pages/s counts
    peak_mb: float
    largest_mb: float

    @property
    def rate(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0

    @property
    def cpu_rate(self) -> float:
        return self.pages / self.cpu if self.cpu else 0.0


def bench_set(
    files: list[Path], repeat: int, embed: bool, peers: bool, env: dict[str, str]
) -> tuple[list[Row], dict[str, Any]]:
    from citewise.documents.pool.parallel import worker_count

    names = [str(f) for f in files]
    workers = worker_count(len(files))
    runs: dict[str, list[dict[str, Any]]] = {"default": [], "text": [], "cw": []}
    for _ in range(max(1, repeat)):  # alternate, so a change of load hits both
        runs["default"].append(measure(raw_spec(names, workers, False), env))
        runs["text"].append(measure(raw_spec(names, workers, True), env))
        runs["cw"].append(measure(cw_spec(names, ocr=False, embeddings=False), env))
    with_ocr = measure(cw_spec(names, ocr=True, embeddings=False), env)
    cw = runs["cw"][0]
    store_cpu = statistics.median(r["cpu_own"] for r in runs["cw"])
    readable = cw["pages"] - cw["unread_pages"]
    procs = f"{workers} + 1"
    rows = [
        _row(
            'raw `get_text("dict")`, default flags (images decoded)', str(workers), runs["default"]
        ),
        _row('raw `get_text("dict")`, citewise\'s flags (text only)', str(workers), runs["text"]),
        _row("citewise ingest, OCR off (pages with a text layer)", procs, runs["cw"], readable),
        _row("citewise ingest as users run it (OCR on)", procs, [with_ocr]),
    ]
    if embed:
        spec = cw_spec(names, ocr=True, embeddings=True)
        rows.append(_row("citewise ingest with embeddings (OCR on)", procs, [measure(spec, env)]))
    if peers:
        for method in ("to_markdown", "to_json"):
            result = measure({"kind": "peer", "files": names, "method": method}, env)
            result["pages"] = cw["pages"]
            rows.append(_row(f"pymupdf4llm.{method}", "1", [result]))
    facts = {
        "files": len(files),
        "pages": cw["pages"],
        "blocks": cw["blocks"],
        "unread": cw["unread_pages"],
        "ocr": with_ocr["ocr_pages"],
        "workers": workers,
        "store_cpu": store_cpu,
    }
    return rows, facts


def raw_spec(files: list[str], workers: int, text_only: bool) -> dict[str, Any]:
    return {"kind": "raw", "files": files, "workers": workers, "text_only": text_only}


def cw_spec(files: list[str], ocr: bool, embeddings: bool) -> dict[str, Any]:
    return {"kind": "citewise", "files": files, "ocr": ocr, "embeddings": embeddings}


def _row(name: str, procs: str, runs: list[dict[str, Any]], pages: int | None = None) -> Row:
    seconds = statistics.median(r["seconds"] for r in runs)
    cpu = statistics.median(r["cpu"] for r in runs)
    peak = max(r["peak_mb"] for r in runs)
    largest = max(r["largest_mb"] for r in runs)
    count = pages if pages is not None else runs[0]["pages"]
    return Row(name, procs, seconds, cpu, count, peak, largest)


def render_set(title: str, folder: Path, rows: list[Row], facts: dict[str, Any]) -> list[str]:
    text_only, text_cpu = rows[1].rate, rows[1].cpu_rate
    default = rows[0].rate
    floor, floor_cpu = rows[2].rate, rows[2].cpu_rate
    lines = [
        f"### {title}",
        "",
        f"{facts['files']} PDFs, {facts['pages']} pages ({folder}), {facts['blocks']} blocks; "
        f"{facts['unread']} page(s) without a usable text layer (read by OCR when it is on: "
        f"{facts['ocr']}). Raw extraction runs in {facts['workers']} processes; citewise "
        f"parses in {facts['workers']} worker processes and stores in 1.",
        "",
        "| method | processes | seconds | pages/s | vs raw text-only | CPU s | pages per CPU s "
        "| peak RSS: tree (largest process) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.name} | {row.processes} | {row.seconds:.2f} | {row.rate:.1f} | "
            f"{row.rate / text_only:.2f}× | {row.cpu:.2f} | {row.cpu_rate:.1f} | "
            f"{row.peak_mb:.0f} MB ({row.largest_mb:.0f} MB) |"
        )
    lines += [
        "",
        f"Full-structure ingest (OCR off) runs at **{floor / text_only:.0%}** of raw text-only "
        f'`get_text("dict")` pages/s and {floor / default:.0%} of `get_text("dict")` with '
        f"its default flags (floor: 50%); per CPU second, {floor_cpu / text_cpu:.0%} of raw "
        f"text-only extraction ({rows[2].cpu:.2f} CPU s: {facts['store_cpu']:.2f} in the "
        "process that stores and indexes, the rest in the parse workers). Peak RSS of the "
        "ingest process tree: "
        f"{max(r.peak_mb for r in rows[2:4]):.0f} MB (floor: 1,536 MB).",
        "",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--corpus", type=Path, default=shared_dir() / "corpus")
    filings = shared_dir() / "qa" / "external" / "financebench" / "corpus"
    parser.add_argument("--filings", type=str, default=str(filings))
    parser.add_argument("--embed", action="store_true", help="also ingest with embeddings")
    parser.add_argument("--repeat", type=int, default=3, help="raw/citewise runs (median)")
    parser.add_argument("--filings-repeat", type=int, default=1)
    parser.add_argument("--peers", choices=("corpus", "all", "none"), default="corpus")
    parser.add_argument("--write", type=Path, default=None, help="update this Markdown file")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    # bytecode as an installed package has it (PYTHONDONTWRITEBYTECODE would leave every
    # child compiling what it imports, inside the clock for the modules imported there)
    compileall.compile_dir(ROOT / "src", quiet=1)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    sets = [("Corpus", args.corpus, args.repeat, args.peers != "none")]
    if args.filings:
        sets.append(
            (
                "FinanceBench dev filings",
                Path(args.filings),
                args.filings_repeat,
                args.peers == "all",
            )
        )
    load_before = os.getloadavg()
    lines = [MARK_BEGIN, "## Ingest", ""]
    for title, folder, repeat, peers in sets:
        files = sorted(folder.glob("*.pdf"))
        rows, facts = bench_set(files, repeat, args.embed, peers, env)
        shown = (
            folder.relative_to(shared_dir().parent)
            if folder.is_relative_to(shared_dir().parent)
            else folder
        )
        lines += render_set(title, Path(shown), rows, facts)
    load_after = os.getloadavg()
    lines += [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; load average "
        f"(1/5/15 min) {'/'.join(f'{x:.1f}' for x in load_before)} at start, "
        f"{'/'.join(f'{x:.1f}' for x in load_after)} at end. Times are medians of the "
        "runs; raw and citewise runs alternate. Every row is a fresh process; citewise's "
        "processes: N parse workers + the one that stores.",
        "",
        "Reproduce: `python benchmarks/ingest.py --embed --write docs/benchmarks.md`",
        MARK_END,
    ]
    table = "\n".join(lines)
    print(table)
    if args.write:
        text = args.write.read_text() if args.write.exists() else "# Benchmarks\n"
        pattern = re.compile(re.escape(MARK_BEGIN) + ".*?" + re.escape(MARK_END), re.DOTALL)
        text = (
            pattern.sub(lambda _: table, text)
            if pattern.search(text)
            else (text.rstrip() + "\n\n" + table)
        )
        args.write.write_text(text + ("" if text.endswith("\n") else "\n"))


if __name__ == "__main__":
    main()
