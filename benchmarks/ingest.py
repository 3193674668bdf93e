"""Ingest speed: citewise vs pymupdf4llm.to_markdown and .to_json on the same PDFs, same run.

    python benchmarks/ingest.py [PDF_DIR] [--embed] [--repeat 3] [--write docs/benchmarks.md]

PDF_DIR defaults to ../shared/corpus (beside the repository), else examples/papers.
citewise is measured end to end (full structure: sections, table cells, equations,
references, OCR of pages without a usable text layer; SQLite store + FTS index) into a
fresh library; with --embed, the same run also ingests with the default embeddings. Files
are parsed in one worker process per core ($CITEWISE_PARSE_WORKERS=1: sequential). Each
citewise ingest runs --repeat times into a fresh library and reports the median. The peers
are pymupdf4llm's Markdown and JSON exports (to_json is its structured-output peer).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import re
import statistics
import tempfile
import time
from pathlib import Path

import pymupdf

from citewise.api import Library
from citewise.documents.parallel import WORKERS_VARIABLE, worker_count
from citewise.embed.base import DEFAULT_MODEL

ROOT = Path(__file__).resolve().parents[1]
MARK_BEGIN = "<!-- ingest-benchmark:begin -->"
MARK_END = "<!-- ingest-benchmark:end -->"


def default_dir() -> Path:
    shared = ROOT.parent / "shared" / "corpus"
    return shared if shared.is_dir() else ROOT / "examples" / "papers"


def count_pages(files: list[Path]) -> int:
    total = 0
    for f in files:
        with pymupdf.open(f) as doc:
            total += doc.page_count
    return total


def time_citewise(files: list[Path], embeddings: bool) -> tuple[float, int, int, int]:
    """(seconds, pages, blocks, pages read by OCR) for a fresh library ingest of `files`."""
    with tempfile.TemporaryDirectory() as tmp, Library(tmp, embeddings=embeddings) as lib:
        if embeddings:
            _ = lib.embedder  # load the model before the clock starts, as a warm server would
        started = time.perf_counter()
        report = lib.ingest(files)
        seconds = time.perf_counter() - started
        ocr = lib.store.db.execute(
            "SELECT count(DISTINCT document_id || ':' || page) FROM blocks "
            "WHERE json_extract(data, '$.ocr') IS NOT NULL"
        ).fetchone()[0]
        return seconds, report.pages, report.blocks, ocr


def median_citewise(files: list[Path], embeddings: bool, repeat: int) -> tuple[float, int, int]:
    """(median seconds, blocks, OCR pages) over `repeat` fresh ingests."""
    runs = [time_citewise(files, embeddings) for _ in range(max(1, repeat))]
    return statistics.median(r[0] for r in runs), runs[0][2], runs[0][3]


def time_pymupdf4llm(files: list[Path]) -> float:
    import pymupdf4llm

    started = time.perf_counter()
    for f in files:
        with contextlib.redirect_stdout(io.StringIO()):  # it prints its OCR progress
            pymupdf4llm.to_markdown(str(f), show_progress=False)
    return time.perf_counter() - started


def time_pymupdf4llm_json(files: list[Path]) -> float:
    import pymupdf4llm

    started = time.perf_counter()
    for f in files:
        with contextlib.redirect_stdout(io.StringIO()):  # it prints its OCR progress
            pymupdf4llm.to_json(str(f))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pdf_dir", nargs="?", type=Path, default=None)
    parser.add_argument("--embed", action="store_true", help="also time ingest with embeddings")
    parser.add_argument("--repeat", type=int, default=3, help="citewise runs (median)")
    parser.add_argument("--write", type=Path, default=None, help="update this Markdown file")
    args = parser.parse_args()
    folder = args.pdf_dir or default_dir()
    files = sorted(folder.glob("*.pdf"))
    pages = count_pages(files)

    load_before = os.getloadavg()[0]
    cw_seconds, blocks, ocr_pages = median_citewise(files, False, args.repeat)
    peer_seconds = time_pymupdf4llm(files)
    json_seconds = time_pymupdf4llm_json(files)
    rows = [
        ("citewise ingest (parse + store + FTS, no embeddings)", cw_seconds),
        ("pymupdf4llm.to_markdown (peer)", peer_seconds),
        ("pymupdf4llm.to_json (structured peer)", json_seconds),
    ]
    if args.embed:
        embed_seconds, _, _ = median_citewise(files, True, args.repeat)
        rows.insert(1, (f"citewise ingest with embeddings (`{DEFAULT_MODEL}`)", embed_seconds))
        previous = os.environ.get(WORKERS_VARIABLE)
        os.environ[WORKERS_VARIABLE] = "1"
        one_seconds, _, _ = median_citewise(files, True, args.repeat)
        if previous is None:
            del os.environ[WORKERS_VARIABLE]
        else:
            os.environ[WORKERS_VARIABLE] = previous
        rows.insert(2, ("the same, parsing in this process only (1 worker)", one_seconds))

    lines = [
        MARK_BEGIN,
        "## Ingest",
        "",
        f"{len(files)} PDFs, {pages} pages ({folder.name}/), {blocks} blocks; "
        f"{ocr_pages} page(s) read by OCR (tesseract). citewise parses in "
        f"{worker_count(len(files))} worker processes; its times are the median of "
        f"{max(1, args.repeat)} fresh ingests. Machine: {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}; load average {load_before:.1f} at start, "
        f"{os.getloadavg()[0]:.1f} at end.",
        "",
        "| method | seconds | pages/s | ratio vs pymupdf4llm (speed) |",
        "|---|---:|---:|---:|",
    ]
    for name, seconds in rows:
        lines.append(
            f"| {name} | {seconds:.2f} | {pages / seconds:.1f} | {peer_seconds / seconds:.2f}× |"
        )
    lines += [
        "",
        f"Full-structure ingest vs pymupdf4llm.to_json: {json_seconds / cw_seconds:.2f}× "
        "the speed (both OCR pages without a usable text layer with tesseract).",
        "",
        "Reproduce: `python benchmarks/ingest.py --embed --write docs/benchmarks.md`",
        MARK_END,
    ]
    table = "\n".join(lines)
    print(table)
    if args.write:
        text = args.write.read_text() if args.write.exists() else "# Benchmarks\n"
        pattern = re.compile(re.escape(MARK_BEGIN) + ".*?" + re.escape(MARK_END), re.DOTALL)
        text = pattern.sub(table, text) if pattern.search(text) else text.rstrip() + "\n\n" + table
        args.write.write_text(text + ("" if text.endswith("\n") else "\n"))


if __name__ == "__main__":
    main()
